"""HumanEval/21 rescale_to_unit: at least two finite floats, not all equal."""

import math
from typing import List


def pre(numbers: List[float]) -> bool:
    if len(numbers) < 2 or not all(math.isfinite(x) for x in numbers):
        return False
    low, high = min(numbers), max(numbers)
    # The transform divides by (max - min): it must be non-zero and finite.
    return high > low and math.isfinite(high - low)
