"""HumanEval/44 change_base: a non-negative integer x and a base from 2 to 9 ("less than 10")."""


def pre(x: int, base: int) -> bool:
    # The docstring: "base numbers are less than 10"; bases 0 and 1 have no positional numerals.
    if not 2 <= base <= 9:
        return False
    # ambiguous: a sign convention the docstring leaves open (is -8 in base 3 "-22", or a complement?).
    return x >= 0
