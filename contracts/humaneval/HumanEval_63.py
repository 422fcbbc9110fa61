"""HumanEval/63 fibfib: the index n of the FibFib sequence, a non-negative integer."""


def pre(n: int) -> bool:
    # The reference is the naive exponential recursion (fibfib(25) ~ 0.15 s, x1.84 per step).
    return 0 <= n <= 25
