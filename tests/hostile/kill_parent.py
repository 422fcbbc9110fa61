"""Attacks the supervisor: SIGKILL to the parent process."""

import os


def f(x):
    os.kill(os.getppid(), 9)
    return x + 1
