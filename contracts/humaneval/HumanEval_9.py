"""HumanEval/9 rolling_max: any list of integers (may be empty)."""

from typing import List


def pre(numbers: List[int]) -> bool:
    return True
