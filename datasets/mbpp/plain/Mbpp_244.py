"""Plain reference for Mbpp/244 (next_Perfect_Square).

reason: the straightforward solution takes the exact integer square root and adds one.
"""

import math


def next_Perfect_Square(N):
    if N < 0:
        return 0
    root = math.isqrt(int(N)) + 1
    return root * root
