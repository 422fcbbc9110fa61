"""Fixed ground truth for HumanEval/24 (largest_divisor).

category: performance
witness: [521641]
reason: the original tries every candidate below n (10**6 steps for a prime near 10**6);
the largest proper divisor is n // (smallest factor), found by trial division up to sqrt(n).
"""


def largest_divisor(n: int) -> int:
    factor = 2
    while factor * factor <= n:
        if n % factor == 0:
            return n // factor
        factor += 1
    return 1
