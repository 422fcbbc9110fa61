"""HumanEval/150 x_or_y: a positive integer n and two integers x, y."""


def pre(n: int, x: int, y: int) -> bool:
    # Primality only makes sense for n >= 1 (the reference calls 0 and negatives prime).
    # The fixed ground truth trial-divides up to sqrt(n); the oracle's line budget drops
    # inputs too costly for it.
    return 1 <= n <= 10**12
