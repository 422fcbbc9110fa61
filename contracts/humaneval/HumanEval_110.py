"""HumanEval/110 exchange: two non-empty lists of integers."""

from typing import List


def pre(lst1: List[int], lst2: List[int]) -> bool:
    # The docstring says "It is assumed that the input lists will be non-empty".
    return len(lst1) >= 1 and len(lst2) >= 1
