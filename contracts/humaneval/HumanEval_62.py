"""HumanEval/62 derivative: the integer coefficients of a polynomial, lowest degree first."""

from typing import List


def pre(xs: List[int]) -> bool:
    return True
