"""HumanEval/0 has_close_elements: finite floats and a finite, non-negative threshold."""

import math
from typing import List


def pre(numbers: List[float], threshold: float) -> bool:
    # A threshold is a distance: a negative one is meaningless (0 is the degenerate "never").
    if not math.isfinite(threshold) or threshold < 0:
        return False
    return all(math.isfinite(x) for x in numbers)
