"""HumanEval/65 circular_shift: a non-negative integer x and a non-negative shift."""


def pre(x: int, shift: int) -> bool:
    # A negative x has a '-' that is not a digit; a negative shift is not a right shift.
    # str(x) is refused beyond 4300 digits in Python 3.11.
    return 0 <= x < 10**4000 and shift >= 0
