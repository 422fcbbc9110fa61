"""HumanEval/59 largest_prime_factor: an integer n > 1 that is not a prime."""


def pre(n: int) -> bool:
    # The docstring: "Assume n > 1 and is not a prime" (4 is the least such n).
    # Size only: the primality check below trial-divides up to sqrt(n), so n stays below
    # 10**10 to keep contract checks cheap in the fuzz loop.
    if not 4 <= n <= 10**10:
        return False
    d = 2
    while d * d <= n:
        if n % d == 0:
            return True
        d += 1
    return False  # n is prime
