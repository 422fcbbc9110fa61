"""HumanEval/85 add: a non-empty list of integers."""

from typing import List


def pre(lst: List[int]) -> bool:
    # The docstring says "Given a non-empty list of integers".
    return len(lst) >= 1
