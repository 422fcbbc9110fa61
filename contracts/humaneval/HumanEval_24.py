"""HumanEval/24 largest_divisor: an integer n with 2 <= n <= 10**12."""


def pre(n: int) -> bool:
    # n < 2 has no divisor smaller than itself (n = 1 makes the reference divide by 0).
    # The fixed ground truth trial-divides up to sqrt(n); the oracle's line budget drops
    # inputs too costly for it. The bound only keeps values of a sane size.
    return 2 <= n <= 10**12
