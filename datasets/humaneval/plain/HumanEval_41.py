"""Plain reference for HumanEval/41 (car_race_collision).

reason: the original returns n**2 at once; the straightforward solution counts the collisions
one pair of cars (one driving left to right, one right to left) at a time.
"""


def car_race_collision(n: int):
    collisions = 0
    for _left in range(n):
        for _right in range(n):
            collisions += 1
    return collisions
