"""Plain reference for Mbpp/58 (opposite_Signs).

reason: the straightforward solution compares each number with 0.
"""


def opposite_Signs(x, y):
    return (x > 0 and y < 0) or (x < 0 and y > 0)
