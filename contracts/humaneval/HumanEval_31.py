"""HumanEval/31 is_prime: an integer n with 0 <= n <= 10**6."""


def pre(n: int) -> bool:
    # Primality of negative numbers is a matter of convention, so keep n >= 0.
    # The reference trial-divides by every k < n - 1, linear in the value of n: bound it.
    return 0 <= n <= 10**6
