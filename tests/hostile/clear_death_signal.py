"""Attacks the tool's end: clears its parent-death signal and spins, to outlive Ctrl-C.

A child that survived would burn CPU with no limit after `evaluate` is stopped.
"""

import ctypes

PR_SET_PDEATHSIG = 1


def f(x):
    ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, 0, 0, 0, 0)
    while True:
        pass
