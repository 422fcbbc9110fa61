"""HumanEval/44 change_base: a positive integer x and a base from 2 to 9 ("less than 10")."""


def pre(x: int, base: int) -> bool:
    # x = 0 (or negative) gives "" from the reference, not a representation of x;
    # base 1 never terminates, base 0 divides by zero.
    return x >= 1 and 2 <= base <= 9
