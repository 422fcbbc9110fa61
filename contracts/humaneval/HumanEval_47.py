"""HumanEval/47 median: a non-empty list of integers of magnitude at most 1e50."""

from typing import List


def pre(l: List[int]) -> bool:
    # ambiguous: the median of an empty list is undefined (None, 0 or an error?).
    if not l:
        return False
    # ambiguous: magnitudes near the float range (overflow and rounding decide the answer).
    return all(abs(v) <= 1e50 for v in l)
