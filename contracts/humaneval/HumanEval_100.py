"""HumanEval/100 make_a_pile: a positive integer n (number of levels)."""


def pre(n: int) -> bool:
    # n >= 1: the docstring says "Given a positive integer n". The upper bound only keeps
    # sizes sane: the result has n elements.
    return 1 <= n <= 1000
