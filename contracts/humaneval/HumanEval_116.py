"""HumanEval/116 sort_array: a list of integers (the examples include negatives), possibly empty."""

from typing import List


def pre(arr: List[int]) -> bool:
    # The docstring says non-negative, but its own example sorts negatives, and the dataset's
    # tests settle their order (the ones of bin(x), i.e. of |x|): both are valid.
    return True
