"""HumanEval/87 get_row: a ragged list of integer rows (possibly empty) and an integer x."""

from typing import List


def pre(lst: List[List[int]], x: int) -> bool:
    return True
