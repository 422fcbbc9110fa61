"""Attacks the reply channel: floods stdout with 1 GB, then returns a wrong value."""

import os
import sys


def f(x):
    chunk = b'\x00\x00\x00\x07["ok"]' * (1 << 16)
    for _ in range((1 << 30) // len(chunk)):
        os.write(1, chunk)
    print("x" * 1000, file=sys.stdout)
    return x - 1
