"""HumanEval/41 car_race_collision: n, the number of cars in each direction, a non-negative integer."""


def pre(n: int) -> bool:
    return n >= 0
