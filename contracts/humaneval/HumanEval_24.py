"""HumanEval/24 largest_divisor: an integer n with 2 <= n <= 10**6."""


def pre(n: int) -> bool:
    # n < 2 has no divisor smaller than itself (n = 1 makes the reference divide by 0).
    # The reference tries every candidate below n, linear in the value of n: bound it.
    return 2 <= n <= 10**6
