"""Attacks the reply channel: writes garbage to every file descriptor from 0 to 20."""

import contextlib
import os


def f(x):
    for fd in range(21):
        with contextlib.suppress(OSError):
            os.write(fd, b"garbage\xff\x00 not a frame\n")
    return x + 1
