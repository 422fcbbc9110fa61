"""Attacks the process group: SIGKILL to its own group (killpg(0))."""

import os


def f(x):
    os.killpg(0, 9)
    return x + 1
