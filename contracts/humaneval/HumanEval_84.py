"""HumanEval/84 solve: an integer N with 0 <= N <= 10000 (the stated constraint)."""


def pre(N: int) -> bool:
    # The docstring's constraint: 0 <= N <= 10000.
    return 0 <= N <= 10000
