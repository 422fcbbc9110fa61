"""HumanEval/92 any_int: three numbers, each an int or a float (non-integers give False)."""


def pre(x: float | int, y: float | int, z: float | int) -> bool:
    return True
