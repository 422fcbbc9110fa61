"""HumanEval/106 f: a non-negative integer n (the length of the result)."""


def pre(n: int) -> bool:
    # Even positions hold i!, computed by a loop: bound n (factorials grow explosively).
    return 0 <= n <= 200
