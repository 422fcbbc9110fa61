"""HumanEval/71 triangle_area: three positive integer side lengths at most 10**15 (they need not form a triangle)."""


def pre(a: int, b: int, c: int) -> bool:
    # The docstring: "the lengths of the three sides", so each is positive.
    if a <= 0 or b <= 0 or c <= 0:
        return False
    # ambiguous: the area is a float rounded to 2 places, and the natural solution (Heron's
    # formula) computes in floats; beyond 10**15 the half-perimeter no longer has an exact
    # float and the answer depends on the order of the float operations.
    return a <= 10**15 and b <= 10**15 and c <= 10**15
