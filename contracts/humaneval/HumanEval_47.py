"""HumanEval/47 median: a non-empty list of integers (the median of [] is undefined)."""

from typing import List


def pre(l: List[int]) -> bool:
    return len(l) > 0
