"""Plain reference for HumanEval/31 (is_prime).

reason: the straightforward solution (the original's) tries every divisor below n, where the
fixed ground truth's trial division up to sqrt(n) is faster than a plain solution needs to be.
"""


def is_prime(n):
    if n < 2:
        return False
    for k in range(2, n):
        if n % k == 0:
            return False
    return True
