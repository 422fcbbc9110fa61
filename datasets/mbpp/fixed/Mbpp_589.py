"""Fixed ground truth for Mbpp/589 (perfect_squares).

category: edge-case
witness: [10000000000000000, 10000000000000002]
reason: the original tests math.sqrt(x).is_integer(), a float test: past 2**52 a
non-square's square root rounds to an integer (perfect_squares(10**16, 10**16 + 2) lists
10**16 + 1), and past 10**308 math.sqrt raises. It also walks every integer
from a to b; the squares between them are r * r for r from ceil(sqrt(a)) to isqrt(b).
"""

from math import isqrt


def perfect_squares(a, b):
    if a > b:
        a, b = b, a
    if b < 0:
        return []
    if a < 0:
        a = 0
    first = isqrt(a - 1) + 1 if a > 0 else 0
    return [r * r for r in range(first, isqrt(b) + 1)]
