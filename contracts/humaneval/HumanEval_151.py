"""HumanEval/151 double_the_difference: a list (possibly empty) of finite numbers, ints or plainly
written floats that are not whole numbers ("ignore numbers that are ... not integers" is
ambiguous for 1.0: an integer by value, not by type)."""

import math
from typing import List


def pre(lst: List[float | int]) -> bool:
    # The reference detects non-integers by looking for '.' in str(x). Floats that str()
    # writes in exponent notation (|x| < 1e-4 or |x| >= 1e16) or as inf/nan have no '.',
    # so e.g. 1e-05 would count as an odd integer: keep floats in the plain range.
    for x in lst:
        if type(x) is float and not (math.isfinite(x) and 1e-4 <= abs(x) < 1e16):
            return False
        if type(x) is float and x.is_integer():
            return False
    return True
