"""HumanEval/71 triangle_area: three positive integer side lengths (they need not form a triangle)."""


def pre(a: int, b: int, c: int) -> bool:
    return a > 0 and b > 0 and c > 0
