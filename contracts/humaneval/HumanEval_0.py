"""HumanEval/0 has_close_elements: finite floats and a finite threshold, all of magnitude at most 1e50."""

import math
from typing import List


def pre(numbers: List[float], threshold: float) -> bool:
    # NaN and infinities have no distance; a negative threshold is allowed (nothing is that close).
    values = [*numbers, threshold]
    if not all(math.isfinite(x) for x in values):
        return False
    # ambiguous: magnitudes near the float range (overflow and rounding decide the answer).
    return all(abs(x) <= 1e50 for x in values)
