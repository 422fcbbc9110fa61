"""Fixed ground truth for Mbpp/256 (count_Primes_nums).

category: performance
witness: [10000]
reason: the original tests every i < n by trial division over all j < i (quadratic in n:
more than a million steps for n = 10**4); a sieve of Eratosthenes marks the primes below
n in about n steps.
"""

from math import isqrt


def count_Primes_nums(n):
    if n < 3:
        return 0
    sieve = bytearray([1]) * n
    sieve[0] = sieve[1] = 0
    for i in range(2, isqrt(n - 1) + 1):
        if sieve[i]:
            sieve[i * i::i] = bytes(len(range(i * i, n, i)))
    return sum(sieve)
