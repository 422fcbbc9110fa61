"""Attacks the supervisor from C: libc.kill(getppid(), SIGKILL) through ctypes."""

import ctypes
import os


def f(x):
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.kill(os.getppid(), 9) != 0:
        raise OSError(ctypes.get_errno(), "kill refused")
    return x + 1
