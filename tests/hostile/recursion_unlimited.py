"""Attacks the stack: unbounded recursion after raising the recursion limit to 10**6."""

import sys

sys.setrecursionlimit(10**6)


def f(x):
    return f(x) + 1
