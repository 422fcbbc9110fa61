"""HumanEval/94 skjkasdkd: a list of integers (each at most 10**9) containing at least one prime."""

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
    # Values are bounded above only to keep a test cheap: the natural primality test, trial
    # division up to sqrt(v), takes up to ~31,600 steps per value. Negatives are allowed
    # (they are not prime).
    if not all(v <= 10**9 for v in lst):
        return False
    # "find the largest prime value" presumes there is one: without a prime there is no answer.
    return any(_is_prime(v) for v in set(lst))
