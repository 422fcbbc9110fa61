"""HumanEval/25 factorize: an integer n with 1 <= n <= 10**12 (1 has the empty factorization)."""


def pre(n: int) -> bool:
    # Factorizations exist for positive integers only (math.sqrt fails on negatives).
    # Trial division takes up to sqrt(n) steps: bound n so that stays ~10**6.
    return 1 <= n <= 10**12
