"""Plain reference for Mbpp/589 (perfect_squares).

reason: the fixed ground truth lists r * r for the r in range; the straightforward
solution walks every integer from a to b, as the original does, with an exact test.
"""

from math import isqrt


def perfect_squares(a, b):
    if a > b:
        a, b = b, a
    if b < 0:
        return []
    if a < 0:
        a = 0
    return [x for x in range(a, b + 1) if isqrt(x) ** 2 == x]
