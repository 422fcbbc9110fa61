"""HumanEval/84 solve: an integer N with 0 <= N <= 10000 (the stated constraint)."""


def pre(N: int) -> bool:
    return 0 <= N <= 10000
