"""HumanEval/158 find_max: a non-empty list of strings."""

from typing import List


def pre(words: List[str]) -> bool:
    # "The list contains different words" is read as "various words", not "distinct":
    # base input ["play", "play", "play"] repeats one word. The reference reads [0] of
    # the sorted list, so the list must not be empty.
    return len(words) >= 1
