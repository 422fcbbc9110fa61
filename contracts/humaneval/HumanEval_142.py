"""HumanEval/142 sum_squares: a list of integers (possibly empty)."""

from typing import List


def pre(lst: List[int]) -> bool:
    return True
