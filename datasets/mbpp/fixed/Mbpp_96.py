"""Fixed ground truth for Mbpp/96 (divisor).

category: performance
witness: [1000000]
reason: the original tries every i from 1 to n (10**6 steps for n = 10**6); divisors
come in pairs (i, n // i), so trying i up to sqrt(n) suffices.
"""

from math import isqrt


def divisor(n):
    if n < 1:
        return 0
    count = 0
    for i in range(1, isqrt(n) + 1):
        if n % i == 0:
            count += 1 if i * i == n else 2
    return count
