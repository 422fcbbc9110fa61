"""Plain reference for Mbpp/162 (sum_series).

reason: the fixed ground truth uses the closed form; the straightforward solution is the
original's, adding the terms n, n - 2, n - 4, ... one by one.
"""


def sum_series(n):
    if n <= 0:
        return 0
    return sum(n - 2 * i for i in range(n // 2 + 1))
