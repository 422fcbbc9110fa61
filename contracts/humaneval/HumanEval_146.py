"""HumanEval/146 specialFilter: a list of integers (possibly empty)."""

from typing import List


def pre(nums: List[int]) -> bool:
    # The reference calls str() on numbers above 10, which CPython refuses above 4300 digits.
    return all(x < 10**4000 for x in nums)
