"""HumanEval/4 mean_absolute_deviation: a non-empty list of finite floats of magnitude at most 1e50."""

import math
from typing import List


def pre(numbers: List[float]) -> bool:
    # The mean of an empty dataset does not exist (it divides by the length 0).
    if len(numbers) == 0 or not all(math.isfinite(x) for x in numbers):
        return False
    # ambiguous: magnitudes near the float range (overflow and rounding decide the answer).
    return all(abs(x) <= 1e50 for x in numbers)
