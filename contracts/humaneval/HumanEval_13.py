"""HumanEval/13 greatest_common_divisor: two non-negative integers, not both zero."""


def pre(a: int, b: int) -> bool:
    # ambiguous: a sign convention the docstring leaves open (is gcd(-4, 6) 2 or -2?).
    if a < 0 or b < 0:
        return False
    # ambiguous: every integer divides 0, so gcd(0, 0) has no greatest (0 only by convention).
    return a > 0 or b > 0
