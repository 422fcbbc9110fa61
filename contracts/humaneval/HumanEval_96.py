"""HumanEval/96 count_up_to: a non-negative integer n."""


def pre(n: int) -> bool:
    # The reference tests every i < n by trial division (quadratic in n): bound n.
    return 0 <= n <= 10000
