"""HumanEval/34 unique: any list of integers (may be empty)."""

from typing import List


def pre(l: List[int]) -> bool:
    return True
