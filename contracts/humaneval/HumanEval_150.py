"""HumanEval/150 x_or_y: a positive integer n and two integers x, y."""


def pre(n: int, x: int, y: int) -> bool:
    # Primality only makes sense for n >= 1 (the reference calls 0 and negatives prime).
    # It is tested by trial division over range(2, n), linear in n: bound n generously.
    return 1 <= n <= 10**6
