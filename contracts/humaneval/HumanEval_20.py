"""HumanEval/20 find_closest_elements: at least two finite floats (|x| <= 1e50) with one closest pair."""

import math
from typing import List


def pre(numbers: List[float]) -> bool:
    # The docstring: "a supplied list of numbers (of length at least two)".
    if len(numbers) < 2 or not all(math.isfinite(x) for x in numbers):
        return False
    # ambiguous: magnitudes near the float range (overflow and rounding decide the answer).
    if not all(abs(x) <= 1e50 for x in numbers):
        return False
    # The closest distance is always that of two neighbours in sorted order (float
    # subtraction is monotonic), and any pair that ties with it makes neighbours tie too.
    ordered = sorted(numbers)
    gaps = [high - low for low, high in zip(ordered, ordered[1:])]
    best = min(gaps)
    closest = {(low, high) for low, high, gap in zip(ordered, ordered[1:], gaps) if gap == best}
    # ambiguous: ties the docstring does not order (two different pairs equally close).
    return len(closest) == 1
