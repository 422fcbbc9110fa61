"""HumanEval/69 search: a non-empty list of positive integers."""

from typing import List


def pre(lst: List[int]) -> bool:
    # The reference allocates a list of size max(lst) + 1: bound the values.
    return len(lst) > 0 and all(1 <= v <= 10**6 for v in lst)
