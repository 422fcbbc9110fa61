"""HumanEval/97 multiply: two integers (negative allowed, as in the examples)."""


def pre(a: int, b: int) -> bool:
    return True
