"""HumanEval/88 sort_array: a list (possibly empty) of non-negative integers."""

from typing import List


def pre(array: List[int]) -> bool:
    # The docstring says "Given an array of non-negative integers".
    return all(v >= 0 for v in array)
