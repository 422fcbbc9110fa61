"""Attacks the memory cap: allocates 10 GB at once."""


def f(x):
    block = bytearray(10 * 1024**3)
    return x + 1 + len(block) * 0
