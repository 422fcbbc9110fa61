"""HumanEval/81 numerical_letter_grade: a list of GPAs, each a number from 0.0 to 4.0 inclusive."""

from typing import List


def pre(grades: List[float | int]) -> bool:
    # The docstring's table covers GPAs from 0.0 to 4.0 (NaN fails both comparisons).
    return all(0 <= g <= 4 for g in grades)
