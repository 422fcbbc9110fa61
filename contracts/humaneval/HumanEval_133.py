"""HumanEval/133 sum_squares: a list (possibly empty) of ints and finite floats of magnitude at most 1e50."""

import math
from typing import List


def pre(lst: List[float | int]) -> bool:
    for x in lst:
        if type(x) is float:
            # The ceiling of inf or nan is no integer.
            if not math.isfinite(x):
                return False
            # ambiguous: magnitudes near the float range (overflow and rounding decide the answer).
            if abs(x) > 1e50:
                return False
    return True
