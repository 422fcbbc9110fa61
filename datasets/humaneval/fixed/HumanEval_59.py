"""Fixed ground truth for HumanEval/59 (largest_prime_factor).

category: performance
witness: [377726]
reason: the original tries every j up to n and tests each divisor's primality by trial
division up to the divisor itself; dividing out factors up to sqrt(n) suffices.
"""


def largest_prime_factor(n: int):
    largest = 1
    factor = 2
    while factor * factor <= n:
        while n % factor == 0:
            largest = factor
            n //= factor
        factor += 1
    if n > 1:
        largest = max(largest, n)
    return largest
