"""HumanEval/157 right_angle_triangle: three positive integer side lengths."""


def pre(a: int, b: int, c: int) -> bool:
    # "the lengths of the three sides of a triangle": lengths are positive. The triangle
    # inequality is not required: the docstring's own example (1, 2, 3) is degenerate
    # and expects False, and base input (2, 2, 10) is not a triangle at all.
    return a > 0 and b > 0 and c > 0
