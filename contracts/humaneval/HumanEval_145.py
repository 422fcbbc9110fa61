"""HumanEval/145 order_by_points: a list of integers (possibly empty)."""

from typing import List


def pre(nums: List[int]) -> bool:
    # Size bound only: below 10**4000 in magnitude, the numbers stay under CPython's
    # 4300-digit limit for str(), which a natural solution calls to read digits.
    return all(-10**4000 < x < 10**4000 for x in nums)
