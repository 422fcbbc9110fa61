"""Attacks the reply channel: sys.exit instead of returning."""

import sys


def f(x):
    sys.exit(0)
