"""Attacks the process limit from C: libc.fork() through ctypes; a forked child would spin."""

import ctypes


def f(x):
    libc = ctypes.CDLL(None, use_errno=True)
    pid = libc.fork()
    if pid < 0:
        raise OSError(ctypes.get_errno(), "fork refused")
    if pid == 0:
        while True:
            pass
    return x + 1
