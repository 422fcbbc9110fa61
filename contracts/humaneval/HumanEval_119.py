"""HumanEval/119 match_parens: a list of exactly two strings made of '(' and ')' only."""

from typing import List


def pre(lst: List[str]) -> bool:
    return len(lst) == 2 and all(c in "()" for item in lst for c in item)
