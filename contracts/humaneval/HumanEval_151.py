"""HumanEval/151 double_the_difference: a list (possibly empty) of ints and finite, not whole-number floats of magnitude at most 1e50."""

import math
from typing import List


def pre(lst: List[float | int]) -> bool:
    for x in lst:
        if type(x) is float:
            # inf and nan are left out: they are no finite real numbers.
            if not math.isfinite(x):
                return False
            # ambiguous: magnitudes near the float range (overflow and rounding decide the answer).
            if abs(x) > 1e50:
                return False
            # ambiguous: whole-number floats (1.0): is that an integer ("ignore numbers that
            # are ... not integers")? by value yes, by type no.
            if x.is_integer():
                return False
    return True
