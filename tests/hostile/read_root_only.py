"""Attacks the file system: reads a file only root may read (mode 0600) outside its folder."""

SECRET = "__SECRET__"


def f(x):
    with open(SECRET) as handle:
        handle.read()
    return x + 1
