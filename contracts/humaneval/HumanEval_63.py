"""HumanEval/63 fibfib: the index n of the FibFib sequence, a non-negative integer."""


def pre(n: int) -> bool:
    # The fixed ground truth iterates (the original recursion is exponential); the values
    # grow like 1.84**n, so n is bounded to keep outputs a sane size.
    return 0 <= n <= 1000
