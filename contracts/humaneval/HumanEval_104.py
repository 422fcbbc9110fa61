"""HumanEval/104 unique_digits: a list (possibly empty) of positive integers."""

from typing import List


def pre(x: List[int]) -> bool:
    return all(v > 0 for v in x)
