"""Plain reference for HumanEval/24 (largest_divisor).

reason: the straightforward solution (the original's) tries every candidate below n from the
top, where the fixed ground truth's trial division up to sqrt(n) is faster than a plain
solution needs to be.
"""


def largest_divisor(n: int) -> int:
    for i in range(n - 1, 0, -1):
        if n % i == 0:
            return i
