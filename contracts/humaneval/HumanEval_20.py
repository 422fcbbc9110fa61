"""HumanEval/20 find_closest_elements: a list of at least two finite floats (duplicates allowed)."""

import math
from typing import List


def pre(numbers: List[float]) -> bool:
    return len(numbers) >= 2 and all(math.isfinite(x) for x in numbers)
