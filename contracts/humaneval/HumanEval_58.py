"""HumanEval/58 common: two lists of integers (either may be empty)."""

from typing import List


def pre(l1: List[int], l2: List[int]) -> bool:
    return True
