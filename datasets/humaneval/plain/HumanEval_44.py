"""Plain reference for HumanEval/44 (change_base).

reason: base conversion by recursion on x // base is the textbook form, so a number with
more digits than the recursion allows is left to the stress tier.
"""


def change_base(x: int, base: int):
    if x < base:
        return str(x)
    return change_base(x // base, base) + str(x % base)
