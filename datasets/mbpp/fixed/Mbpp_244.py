"""Fixed ground truth for Mbpp/244 (next_Perfect_Square).

category: edge-case
witness: [10000000200000000]
reason: the original takes math.floor(math.sqrt(N)): past 2**52 the float square root
rounds up to an integer, so next_Perfect_Square((10**8 + 1)**2 - 1) gives (10**8 + 2)**2
and skips (10**8 + 1)**2, the next square; an exact integer root does not.
"""

import math


def next_Perfect_Square(N):
    if N < 0:
        return 0
    root = math.isqrt(math.floor(N)) + 1
    return root * root
