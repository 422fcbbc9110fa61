"""HumanEval/127 intersection: two closed integer intervals (start, end) with start <= end."""

from typing import Tuple


def pre(interval1: Tuple[int, int], interval2: Tuple[int, int]) -> bool:
    # The docstring: "it is assumed that its start is less or equal its end".
    if interval1[0] > interval1[1] or interval2[0] > interval2[1]:
        return False
    # Size bound only: a length up to 10**12 keeps one primality test affordable
    # (trial division up to its square root).
    length = min(interval1[1], interval2[1]) - max(interval1[0], interval2[0])
    return length <= 10**12
