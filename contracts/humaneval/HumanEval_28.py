"""HumanEval/28 concatenate: any list of strings; the empty list is explicitly covered."""

from typing import List


def pre(strings: List[str]) -> bool:
    return True
