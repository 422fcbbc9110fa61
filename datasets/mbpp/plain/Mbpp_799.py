"""Plain reference for Mbpp/799 (left_rotate).

reason: the straightforward solution rotates one bit at a time, d times, within 32 bits.
"""


def left_rotate(n, d):
    if d > 32:
        return n >> (32 - d)  # a negative shift count, as the original: ValueError
    for _ in range(d):
        n = ((n << 1) | (n >> 31)) & 0xFFFFFFFF
    return n
