"""HumanEval/24 largest_divisor: an integer n with 2 <= n <= 10**12."""


def pre(n: int) -> bool:
    # ambiguous: below 2, whether negative divisors count decides it (0 and 1: -1 or none; negatives: none).
    if n < 2:
        return False
    # The bound only keeps values of a sane size (the line budget drops inputs too costly
    # for the plain reference).
    return n <= 10**12
