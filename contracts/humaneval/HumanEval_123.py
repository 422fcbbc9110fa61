"""HumanEval/123 get_odd_collatz: a positive integer n."""


def pre(n: int) -> bool:
    # The docstring: "Given a positive integer n".
    return n >= 1
