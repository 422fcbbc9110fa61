"""Attacks the memory cap: holds memory in a memfd buffer.

The address-space cap does not count a memfd's pages.
"""

import os


def f(x):
    fd = os.memfd_create("hoard")
    block = b"\x01" * (1 << 24)
    for _ in range(96):  # 1.5 GiB, over the 1 GiB cap of the tests
        os.write(fd, block)
    return x - 1
