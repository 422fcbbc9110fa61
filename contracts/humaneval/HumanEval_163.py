"""HumanEval/163 generate_integers: two positive integers a and b, in either order."""


def pre(a: int, b: int) -> bool:
    return a > 0 and b > 0
