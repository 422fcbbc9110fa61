"""HumanEval/90 next_smallest: any list of integers (empty or no 2nd smallest gives None)."""

from typing import List


def pre(lst: List[int]) -> bool:
    return True
