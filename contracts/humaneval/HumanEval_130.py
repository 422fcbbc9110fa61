"""HumanEval/130 tri: a non-negative integer n."""


def pre(n: int) -> bool:
    # The answer is a list of n + 1 numbers: bound n so outputs stay small.
    return 0 <= n <= 1000
