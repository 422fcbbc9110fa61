"""HumanEval/29 filter_by_prefix: any list of strings (may be empty) and any prefix."""

from typing import List


def pre(strings: List[str], prefix: str) -> bool:
    return True
