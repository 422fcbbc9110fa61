"""HumanEval/21 rescale_to_unit: at least two finite floats of magnitude at most 1e50, not all equal."""

import math
from typing import List


def pre(numbers: List[float]) -> bool:
    # The docstring: "list of numbers (of at least two elements)".
    if len(numbers) < 2 or not all(math.isfinite(x) for x in numbers):
        return False
    # ambiguous: magnitudes near the float range (overflow and rounding decide the answer).
    if not all(abs(x) <= 1e50 for x in numbers):
        return False
    # No linear transform sends the smallest to 0 and the largest to 1 when they are equal.
    return max(numbers) > min(numbers)
