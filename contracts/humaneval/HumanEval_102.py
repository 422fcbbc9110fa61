"""HumanEval/102 choose_num: two positive integers x and y (x > y allowed, giving -1)."""


def pre(x: int, y: int) -> bool:
    # The docstring says "takes two positive numbers x and y".
    return x > 0 and y > 0
