"""HumanEval/43 pairs_sum_to_zero: any list of integers."""

from typing import List


def pre(l: List[int]) -> bool:
    return True
