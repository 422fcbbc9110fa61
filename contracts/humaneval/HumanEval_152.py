"""HumanEval/152 compare: two integer lists of equal length (scores and guesses)."""

from typing import List


def pre(game: List[int], guess: List[int]) -> bool:
    return len(game) == len(guess)
