"""HumanEval/75 is_multiply_prime: a non-negative integer a less than 100."""

# base inputs 105, 125, 126, 729, 891 and 1001 violate the docstring ("a is less
# than 100"); they are accepted by name only, since for larger a the reference
# (primes up to 100) is wrong, e.g. 404 = 2 * 2 * 101.
_BASE_OVER_100 = (105, 125, 126, 729, 891, 1001)


def pre(a: int) -> bool:
    return 0 <= a < 100 or a in _BASE_OVER_100
