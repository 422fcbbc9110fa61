"""HumanEval/49 modp: an exponent n >= 0 and a modulus p >= 2; returns 2**n mod p."""


def pre(n: int, p: int) -> bool:
    # p = 1 makes the reference return 1 for n = 0 although 2**0 % 1 == 0; p <= 0 is
    # not a modulus. The fixed ground truth squares and multiplies (log n steps).
    return 0 <= n <= 10**12 and p >= 2
