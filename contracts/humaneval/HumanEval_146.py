"""HumanEval/146 specialFilter: a list of integers (possibly empty)."""

from typing import List


def pre(nums: List[int]) -> bool:
    # Size bound only: below 10**4000, the numbers above 10 (whose digits are read) stay
    # under CPython's 4300-digit limit for str(), which a natural solution calls.
    return all(x < 10**4000 for x in nums)
