"""HumanEval/107 even_odd_palindrome: an integer n with 1 <= n <= 10**3 (the stated constraint)."""


def pre(n: int) -> bool:
    # The docstring's note: 1 <= n <= 10^3.
    return 1 <= n <= 1000
