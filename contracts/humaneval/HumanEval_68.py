"""HumanEval/68 pluck: a list of at most 10000 non-negative integers; the empty list is covered explicitly."""

from typing import List


def pre(arr: List[int]) -> bool:
    # The docstring's constraints: "nodes.length <= 10000" and "0 <= node.value".
    # Its "1 <= nodes.length" is contradicted by its own Example 3 and its
    # "if the given array is empty, return []", so [] is valid.
    return len(arr) <= 10000 and all(v >= 0 for v in arr)
