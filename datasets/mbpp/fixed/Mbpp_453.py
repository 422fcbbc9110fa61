"""Fixed ground truth for Mbpp/453 (sumofFactors).

category: performance
witness: [1000000]
reason: the original tries every i from 2 to n (10**6 steps for n = 10**6); divisors
come in pairs (i, n // i), so trying i up to sqrt(n) suffices.
"""

from math import isqrt


def sumofFactors(n):
    if n % 2 != 0:
        return 0
    total = 0
    for i in range(1, isqrt(n) + 1):
        if n % i == 0:
            for factor in {i, n // i}:
                if factor % 2 == 0:
                    total += factor
    return total
