"""HumanEval/42 incr_list: any list of integers (possibly empty)."""

from typing import List


def pre(l: List[int]) -> bool:
    return True
