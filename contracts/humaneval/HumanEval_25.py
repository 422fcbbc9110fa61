"""HumanEval/25 factorize: an integer n with 1 <= n <= 10**12 (1 has the empty factorization)."""


def pre(n: int) -> bool:
    # The docstring: n "should be equal to the product of all factors", and a product of
    # primes is at least 1 (1 being the empty product).
    if n < 1:
        return False
    # Trial division takes up to sqrt(n) steps: the bound keeps values of a sane size.
    return n <= 10**12
