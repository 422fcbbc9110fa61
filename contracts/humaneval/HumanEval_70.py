"""HumanEval/70 strange_sort_list: any list of integers, including the empty list."""

from typing import List


def pre(lst: List[int]) -> bool:
    return True
