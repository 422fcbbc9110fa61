"""HumanEval/131 digits: a positive integer n."""


def pre(n: int) -> bool:
    # The reference calls str(n), which CPython refuses above 4300 digits.
    return 1 <= n < 10**4000
