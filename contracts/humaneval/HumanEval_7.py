"""HumanEval/7 filter_by_substring: any list of strings (may be empty) and any substring."""

from typing import List


def pre(strings: List[str], substring: str) -> bool:
    return True
