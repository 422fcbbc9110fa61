"""HumanEval/123 get_odd_collatz: a positive integer n (bounded so the float arithmetic stays exact)."""


def pre(n: int) -> bool:
    # The reference halves with float division (n / 2): it raises OverflowError for
    # n beyond ~1e308 and silently rounds once a trajectory exceeds 2**53. Every
    # trajectory starting below 10**8 peaks below 2**53 (the first start whose peak
    # passes 2**53 is 319804831), so this generous bound keeps the results exact.
    return 1 <= n <= 10**8
