"""HumanEval/74 total_match: two lists of strings (either may be empty)."""

from typing import List


def pre(lst1: List[str], lst2: List[str]) -> bool:
    return True
