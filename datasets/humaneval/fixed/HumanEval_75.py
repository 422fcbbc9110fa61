"""Fixed ground truth for HumanEval/75 (is_multiply_prime).

category: performance
witness: [0]
reason: the original tries every triple of numbers up to 100 (with a trial-division
primality test for each), millions of steps for any a that is not such a product; counting
a's prime factors with multiplicity takes a few steps (and, unlike the original, stays
right for a >= 100, e.g. 404 = 2 * 2 * 101).
"""


def is_multiply_prime(a):
    if a < 2:
        return False
    count = 0
    factor = 2
    while factor * factor <= a and count < 3:
        while a % factor == 0:
            a //= factor
            count += 1
        factor += 1
    if a > 1:
        count += 1
    return count == 3
