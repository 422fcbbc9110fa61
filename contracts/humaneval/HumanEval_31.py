"""HumanEval/31 is_prime: an integer n <= 10**12 (numbers below 2 are simply not prime)."""


def pre(n: int) -> bool:
    # The bound only keeps values of a sane size (the line budget drops inputs too costly
    # for the plain reference); below 2 the answer is False at no cost.
    return n <= 10**12
