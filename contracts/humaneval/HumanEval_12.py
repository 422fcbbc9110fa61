"""HumanEval/12 longest: any list of strings; the empty list is explicitly covered (None)."""

from typing import List


def pre(strings: List[str]) -> bool:
    return True
