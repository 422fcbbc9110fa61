"""HumanEval/45 triangle_area: a side length a and the height h on it, both positive, at most 1e50."""


def pre(a: int, h: int) -> bool:
    # The docstring: the length of a side and a height, so both are positive.
    if a <= 0 or h <= 0:
        return False
    # ambiguous: magnitudes near the float range (overflow and rounding decide the answer).
    return a <= 1e50 and h <= 1e50
