"""Attacks the file system: creates a file outside its working folder."""

TARGET = "__TARGET__"


def f(x):
    with open(TARGET, "w") as handle:
        handle.write("escaped")
    return x + 1
