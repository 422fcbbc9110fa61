"""HumanEval/88 sort_array: a list (possibly empty) of non-negative integers."""

from typing import List


def pre(array: List[int]) -> bool:
    return all(v >= 0 for v in array)
