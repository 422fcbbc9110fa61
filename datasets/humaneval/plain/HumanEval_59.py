"""Plain reference for HumanEval/59 (largest_prime_factor).

reason: the original's algorithm, the straightforward one: every j up to n that divides n,
kept when trial division finds it prime (about n steps).
"""


def largest_prime_factor(n: int):
    def is_prime(k):
        if k < 2:
            return False
        for i in range(2, k):
            if k % i == 0:
                return False
        return True

    largest = 1
    for j in range(2, n + 1):
        if n % j == 0 and is_prime(j):
            largest = j
    return largest
