"""HumanEval/22 filter_integers: a list of any Python values (may be empty)."""

from typing import Any, List


def pre(values: List[Any]) -> bool:
    return True
