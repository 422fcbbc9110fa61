"""HumanEval/40 triples_sum_to_zero: any list of integers (may be empty or shorter than three)."""

from typing import List


def pre(l: List[int]) -> bool:
    return True
