"""HumanEval/57 monotonic: any list of integers."""

from typing import List


def pre(l: List[int]) -> bool:
    return True
