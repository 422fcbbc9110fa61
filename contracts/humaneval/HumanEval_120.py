"""HumanEval/120 maximum: 1..1000 integers in [-1000, 1000] and 0 <= k <= len(arr)."""

from typing import List


def pre(arr: List[int], k: int) -> bool:
    # The docstring's notes: length in [1, 1000], elements in [-1000, 1000], 0 <= k <= len(arr).
    return (1 <= len(arr) <= 1000 and all(-1000 <= v <= 1000 for v in arr)
            and 0 <= k <= len(arr))
