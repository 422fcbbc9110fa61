"""HumanEval/109 move_one_ball: a list (possibly empty) of distinct integers."""

from typing import List


def pre(arr: List[int]) -> bool:
    # The docstring says "The given list is guaranteed to have unique elements".
    return len(set(arr)) == len(arr)
