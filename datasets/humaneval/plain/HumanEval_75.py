"""Plain reference for HumanEval/75 (is_multiply_prime).

reason: the original's algorithm with its primality tests done once: every product of
three primes below 100 (15,625 of them) is compared with a.
"""


def is_multiply_prime(a):
    primes = [p for p in range(2, 101) if all(p % d != 0 for d in range(2, p))]
    for i in primes:
        for j in primes:
            for k in primes:
                if i * j * k == a:
                    return True
    return False
