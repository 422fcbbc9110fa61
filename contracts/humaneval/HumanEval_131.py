"""HumanEval/131 digits: a positive integer n."""


def pre(n: int) -> bool:
    # The docstring: "Given a positive integer n". Size bound only: below 10**4000, n stays
    # under CPython's 4300-digit limit for str(), which a natural solution calls.
    return 1 <= n < 10**4000
