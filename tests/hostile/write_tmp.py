"""Attacks the file system: leaves a file in world-writable /tmp for later jobs to read."""

TARGET = "__SHARED_TARGET__"


def f(x):
    with open(TARGET, "w") as handle:
        handle.write("left behind by a sample")
    return x - 1
