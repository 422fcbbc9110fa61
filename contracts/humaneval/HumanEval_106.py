"""HumanEval/106 f: a non-negative integer n (the length of the result)."""


def pre(n: int) -> bool:
    # n >= 0: the docstring asks for "a list of size n". The upper bound only keeps sizes
    # sane: even positions hold i!, which grows explosively.
    return 0 <= n <= 200
