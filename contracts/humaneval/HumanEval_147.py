"""HumanEval/147 get_max_triples: a positive integer n."""


def pre(n: int) -> bool:
    # The docstring: "You are given a positive integer n". Size bound only: n <= 10**6
    # (the answer's array has n elements).
    return 1 <= n <= 10**6
