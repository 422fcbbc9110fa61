"""HumanEval/113 odd_count: a list of strings, each made of decimal digits only."""

from typing import List

_DIGITS = frozenset("0123456789")


def pre(lst: List[str]) -> bool:
    # The docstring says "each string consists of only digits".
    return all(c in _DIGITS for item in lst for c in item)
