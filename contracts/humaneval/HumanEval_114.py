"""HumanEval/114 minSubArraySum: a non-empty list of integers."""

from typing import List


def pre(nums: List[int]) -> bool:
    return len(nums) >= 1
