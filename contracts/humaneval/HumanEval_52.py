"""HumanEval/52 below_threshold: a list of integers (possibly empty) and an integer threshold t."""

from typing import List


def pre(l: List[int], t: int) -> bool:
    return True
