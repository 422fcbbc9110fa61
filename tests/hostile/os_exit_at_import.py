"""Attacks the load step: the process exits (os._exit) while the module loads."""

import os

os._exit(0)


def f(x):
    return x + 1
