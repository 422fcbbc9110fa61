"""HumanEval/13 greatest_common_divisor: two non-negative integers, not both zero."""


def pre(a: int, b: int) -> bool:
    # Negative arguments make the reference return a negative "greatest" divisor, and
    # gcd(0, 0) has no greatest divisor; gcd(n, 0) = n is well defined.
    return a >= 0 and b >= 0 and (a > 0 or b > 0)
