"""HumanEval/150 x_or_y: three integers n, x and y (n below 2, including 0 and negatives, is not prime)."""


def pre(n: int, x: int, y: int) -> bool:
    # Size bound only: n <= 10**12 keeps one primality test affordable (trial division up
    # to its square root).
    return n <= 10**12
