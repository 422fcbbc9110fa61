"""Plain reference for Mbpp/300 (count_binary_seq).

reason: the straightforward solution adds, for each number k of ones, the ways to place
k ones in the first half times the ways in the second, C(n, k) ** 2, in integers, and
returns the sum as a float as the prompt's example (2.0) does.
"""

import math


def count_binary_seq(n):
    total = 0
    for k in range(n + 1):
        total += math.comb(n, k) ** 2
    return float(total)
