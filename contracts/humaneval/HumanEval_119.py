"""HumanEval/119 match_parens: a list of exactly two strings made of '(' and ')' only."""

from typing import List


def pre(lst: List[str]) -> bool:
    # The docstring: "a list of two strings, both strings consist of open parentheses '(' or
    # close parentheses ')' only".
    return len(lst) == 2 and all(c in "()" for item in lst for c in item)
