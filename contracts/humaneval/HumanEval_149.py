"""HumanEval/149 sorted_list_sum: a list of strings (possibly empty, duplicates allowed)."""

from typing import List


def pre(lst: List[str]) -> bool:
    # "You may assume that all words will have the same length" is contradicted by the
    # docstring's own examples (["aa", "a", "aaa"]), so it is not enforced.
    return True
