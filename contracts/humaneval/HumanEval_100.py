"""HumanEval/100 make_a_pile: a positive integer n (number of levels)."""


def pre(n: int) -> bool:
    # The result has n elements: bound n so it cannot explode.
    return 1 <= n <= 1000
