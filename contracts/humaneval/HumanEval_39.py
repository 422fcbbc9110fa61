"""HumanEval/39 prime_fib: an integer n with 1 <= n <= 11 (the n-th prime Fibonacci number)."""


def pre(n: int) -> bool:
    # The sequence is counted from n = 1. Prime Fibonacci numbers grow exponentially and
    # the reference trial-divides up to their square root: the 11th (2971215073) takes
    # milliseconds, the 12th (99194853094755497) would take ~3 * 10**8 steps.
    return 1 <= n <= 11
