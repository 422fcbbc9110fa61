"""HumanEval/65 circular_shift: a non-negative integer x (below 10**4000) and a non-negative shift."""


def pre(x: int, shift: int) -> bool:
    # ambiguous: a sign convention the docstring leaves open (does a negative x's '-' rotate too?).
    if x < 0:
        return False
    # ambiguous: a negative shift (a left shift, or no shift at all?).
    if shift < 0:
        return False
    # Size only: str(x) is refused beyond 4300 digits in CPython 3.11.
    return x < 10**4000
