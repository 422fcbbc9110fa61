"""HumanEval/39 prime_fib: an integer n with 1 <= n <= 11 (the n-th prime Fibonacci number)."""


def pre(n: int) -> bool:
    # The docstring counts from n = 1 (prime_fib(1) == 2): there is no 0-th or negative one.
    if n < 1:
        return False
    # The bound keeps each test cheap: prime Fibonacci numbers grow exponentially, the 11th
    # (2971215073) takes milliseconds to confirm by trial division, the 12th
    # (99194853094755497) ~3 * 10**8 steps.
    return n <= 11
