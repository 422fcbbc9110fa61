"""HumanEval/55 fib: the index n of the Fibonacci sequence, a non-negative integer."""


def pre(n: int) -> bool:
    # The reference is the naive exponential recursion (fib(30) ~ 0.1 s, each +1 costs x1.6).
    return 0 <= n <= 30
