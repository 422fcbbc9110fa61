"""HumanEval/128 prod_signs: a list of integers (empty is allowed and gives None)."""

from typing import List


def pre(arr: List[int]) -> bool:
    return True
