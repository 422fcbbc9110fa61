"""HumanEval/30 get_positive: any list of integers (may be empty)."""

from typing import List


def pre(l: List[int]) -> bool:
    return True
