"""HumanEval/26 remove_duplicates: any list of integers (may be empty)."""

from typing import List


def pre(numbers: List[int]) -> bool:
    return True
