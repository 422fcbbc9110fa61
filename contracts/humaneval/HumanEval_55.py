"""HumanEval/55 fib: the index n of the Fibonacci sequence, a non-negative integer."""


def pre(n: int) -> bool:
    # The fixed ground truth iterates (the original recursion is exponential); fib(n) has
    # about n / 5 digits, so n is bounded to keep outputs a sane size.
    return 0 <= n <= 1000
