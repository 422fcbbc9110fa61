"""HumanEval/94 skjkasdkd: a list of non-negative integers containing at least one prime."""

from typing import List


def _is_prime(n: int) -> bool:
    # Deterministic Miller-Rabin for n < 3.3e24 (n is bounded far below that here).
    if n < 2:
        return False
    small = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
    for p in small:
        if n % p == 0:
            return n == p
    d, r = n - 1, 0
    while d % 2 == 0:
        d //= 2
        r += 1
    for a in small:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(r - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def pre(lst: List[int]) -> bool:
    # Negative values make the reference's n**0.5 complex (TypeError); the task asks for
    # "the largest prime value", so a prime must be present (without one the reference
    # returns 0, or 1 when a 1 is present). Values are bounded because the reference
    # tests primality by trial division up to sqrt(v).
    if not all(0 <= v <= 10**9 for v in lst):
        return False
    return any(_is_prime(v) for v in set(lst))
