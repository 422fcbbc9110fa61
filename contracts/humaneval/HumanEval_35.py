"""HumanEval/35 max_element: a non-empty list of integers."""

from typing import List


def pre(l: List[int]) -> bool:
    # "Return maximum element in the list" presupposes one: an empty list has no maximum element.
    return len(l) > 0
