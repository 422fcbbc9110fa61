"""Plain reference for Mbpp/96 (divisor).

reason: the fixed ground truth pairs divisors up to sqrt(n); the straightforward solution
is the original's, trying every i from 1 to n.
"""


def divisor(n):
    return sum(1 for i in range(1, n + 1) if n % i == 0)
