"""HumanEval/116 sort_array: a list of integers (the examples include negatives), possibly empty."""

from typing import List


def pre(arr: List[int]) -> bool:
    # The docstring says non-negative, but its own example sorts negatives: both are valid.
    return True
