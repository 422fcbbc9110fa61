"""Plain reference for Mbpp/739 (find_Index).

reason: the straightforward solution walks the triangular numbers k (k + 1) / 2 for
k = 1, 2, ... until one has n digits; it takes about sqrt(2 * 10 ** (n - 1)) steps, so
n past 11 or so is left to the stress tier.
"""


def find_Index(n):
    k = 1
    while len(str(k * (k + 1) // 2)) < n:
        k += 1
    return k
