"""HumanEval/104 unique_digits: a list (possibly empty) of positive integers."""

from typing import List


def pre(x: List[int]) -> bool:
    # The docstring says "Given a list of positive integers x".
    return all(v > 0 for v in x)
