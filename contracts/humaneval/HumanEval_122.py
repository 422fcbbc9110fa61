"""HumanEval/122 add_elements: 1..100 integers and 1 <= k <= len(arr)."""

from typing import List


def pre(arr: List[int], k: int) -> bool:
    # The docstring's constraints: 1 <= len(arr) <= 100 and 1 <= k <= len(arr).
    return 1 <= len(arr) <= 100 and 1 <= k <= len(arr)
