"""HumanEval/69 search: a non-empty list of positive integers."""

from typing import List


def pre(lst: List[int]) -> bool:
    # The docstring: "a non-empty list of positive integers".
    return len(lst) > 0 and all(v >= 1 for v in lst)
