"""HumanEval/158 find_max: a non-empty list of strings."""

from typing import List


def pre(words: List[str]) -> bool:
    # "The list contains different words" is read as "various words", not "distinct":
    # base input ["play", "play", "play"] repeats one word. The docstring asks to return
    # one of the words: an empty list has none, and no answer is given for it.
    return len(words) >= 1
