"""HumanEval/5 intersperse: any list of integers (may be empty) and any integer delimiter."""

from typing import List


def pre(numbers: List[int], delimeter: int) -> bool:
    return True
