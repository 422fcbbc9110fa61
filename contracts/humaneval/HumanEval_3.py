"""HumanEval/3 below_zero: any list of integer operations (may be empty)."""

from typing import List


def pre(operations: List[int]) -> bool:
    return True
