"""HumanEval/59 largest_prime_factor: an integer n > 1 that is not a prime."""


def pre(n: int) -> bool:
    # The reference tries every j up to n (and tests primality in O(j)): bound n.
    if not 4 <= n <= 10**6:
        return False
    d = 2
    while d * d <= n:
        if n % d == 0:
            return True
        d += 1
    return False  # n is prime
