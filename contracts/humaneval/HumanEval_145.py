"""HumanEval/145 order_by_points: a list of integers (possibly empty)."""

from typing import List


def pre(nums: List[int]) -> bool:
    # The reference calls str() on each number, which CPython refuses above 4300 digits.
    return all(-10**4000 < x < 10**4000 for x in nums)
