"""Fixed ground truth for HumanEval/96 (count_up_to).

category: performance
witness: [2700]
reason: the original tests every i < n by trial division over all j < i (quadratic in n);
a sieve of Eratosthenes lists the primes below n in about n steps.
"""

from itertools import compress


def count_up_to(n):
    if n < 3:
        return []
    sieve = bytearray([1]) * n
    sieve[0] = sieve[1] = 0
    factor = 2
    while factor * factor < n:
        if sieve[factor]:
            sieve[factor * factor::factor] = bytes(len(range(factor * factor, n, factor)))
        factor += 1
    return list(compress(range(n), sieve))
