"""HumanEval/83 starts_one_ends: a positive integer n (number of digits)."""


def pre(n: int) -> bool:
    # n >= 1: the docstring says "Given a positive integer n". The upper bound only keeps
    # sizes sane: the answer 18 * 10**(n - 2) has n - 1 digits.
    return 1 <= n <= 1000
