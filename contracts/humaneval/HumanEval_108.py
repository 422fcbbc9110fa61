"""HumanEval/108 count_nums: any list of integers (negatives have a negative first digit)."""

from typing import List


def pre(arr: List[int]) -> bool:
    return True
