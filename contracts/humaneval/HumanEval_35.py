"""HumanEval/35 max_element: a non-empty list of integers."""

from typing import List


def pre(l: List[int]) -> bool:
    # An empty list has no maximum (the reference reads l[0]).
    return len(l) > 0
