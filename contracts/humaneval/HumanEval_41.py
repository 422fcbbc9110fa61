"""HumanEval/41 car_race_collision: n, the number of cars in each direction, a non-negative integer."""


def pre(n: int) -> bool:
    # The docstring: n is a number of cars, so it is not negative.
    return n >= 0
