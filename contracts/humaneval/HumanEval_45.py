"""HumanEval/45 triangle_area: a side length a and the height h on it, both positive."""


def pre(a: int, h: int) -> bool:
    return a > 0 and h > 0
