"""HumanEval/31 is_prime: an integer n with 0 <= n <= 10**12."""


def pre(n: int) -> bool:
    # Primality of negative numbers is a matter of convention, so keep n >= 0.
    # The fixed ground truth trial-divides up to sqrt(n); the oracle's line budget drops
    # inputs too costly for it. The bound only keeps values of a sane size.
    return 0 <= n <= 10**12
