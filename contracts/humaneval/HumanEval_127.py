"""HumanEval/127 intersection: two closed integer intervals (start, end) with start <= end."""

from typing import Tuple


def pre(interval1: Tuple[int, int], interval2: Tuple[int, int]) -> bool:
    if interval1[0] > interval1[1] or interval2[0] > interval2[1]:
        return False
    # The reference tests primality by trial division over range(2, length), linear in
    # the intersection's length: keep that length generously bounded.
    length = min(interval1[1], interval2[1]) - max(interval1[0], interval2[0])
    return length <= 10**6
