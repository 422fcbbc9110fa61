"""Plain reference for Mbpp/453 (sumofFactors).

reason: the fixed ground truth pairs divisors up to sqrt(n); the straightforward solution
is the original's, trying every i from 2 to n.
"""


def sumofFactors(n):
    if n % 2 != 0:
        return 0
    return sum([i for i in range(2, n + 1) if n % i == 0 and i % 2 == 0])
