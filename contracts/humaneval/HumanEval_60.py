"""HumanEval/60 sum_to_n: a non-negative integer n (n = 0 is the empty sum)."""


def pre(n: int) -> bool:
    # The reference materialises range(n + 1): bound n (larger n probes nothing new and
    # makes every oracle and evaluation run slow).
    return 0 <= n <= 10**5
