"""HumanEval/105 by_length: any list of integers (values outside 1..9 are ignored)."""

from typing import List


def pre(arr: List[int]) -> bool:
    return True
