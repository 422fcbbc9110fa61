"""HumanEval/8 sum_product: any list of integers; the empty list is explicitly covered."""

from typing import List


def pre(numbers: List[int]) -> bool:
    return True
