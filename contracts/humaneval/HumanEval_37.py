"""HumanEval/37 sort_even: any list of integers (may be empty)."""

from typing import List


def pre(l: List[int]) -> bool:
    return True
