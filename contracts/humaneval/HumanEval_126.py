"""HumanEval/126 is_sorted: a list (possibly empty) of non-negative integers."""

from typing import List


def pre(lst: List[int]) -> bool:
    # "Assume no negative numbers and only integers."
    return all(x >= 0 for x in lst)
