"""HumanEval/133 sum_squares: a list of finite real numbers (ints or floats), possibly empty."""

import math
from typing import List


def pre(lst: List[float | int]) -> bool:
    # math.ceil is undefined for inf and nan.
    return all(type(x) is int or math.isfinite(x) for x in lst)
