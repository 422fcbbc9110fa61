"""HumanEval/136 largest_smallest_integers: a list of integers (possibly empty)."""

from typing import List


def pre(lst: List[int]) -> bool:
    return True
