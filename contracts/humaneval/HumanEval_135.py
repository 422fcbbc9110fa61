"""HumanEval/135 can_arrange: a list of integers (possibly empty) without duplicate values."""

from typing import List


def pre(arr: List[int]) -> bool:
    return len(set(arr)) == len(arr)
