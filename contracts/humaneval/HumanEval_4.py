"""HumanEval/4 mean_absolute_deviation: a non-empty list of finite floats."""

import math
from typing import List


def pre(numbers: List[float]) -> bool:
    # The mean divides by the length, so the list must be non-empty.
    return len(numbers) > 0 and all(math.isfinite(x) for x in numbers)
