"""HumanEval/33 sort_third: any list of integers (may be empty)."""

from typing import List


def pre(l: List[int]) -> bool:
    return True
