"""HumanEval/73 smallest_change: any list of integers."""

from typing import List


def pre(arr: List[int]) -> bool:
    return True
