"""HumanEval/49 modp: an exponent n >= 0 and a modulus p >= 1; returns 2**n mod p."""


def pre(n: int, p: int) -> bool:
    # ambiguous: a negative n (2^n is no integer: a modular inverse, or an error?).
    if n < 0:
        return False
    # Size only: n <= 10**12 keeps the cost of a test small (the fixed ground truth squares and
    # multiplies, log n steps).
    if n > 10**12:
        return False
    # p = 0 is no modulus at all.
    # ambiguous: a sign convention the docstring leaves open (is 2^n mod -3 in 0..2 or -2..0?).
    return p >= 1
