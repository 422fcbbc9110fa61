"""Attacks the load step: sys.exit while the module loads."""

import sys

sys.exit(0)


def f(x):
    return x + 1
