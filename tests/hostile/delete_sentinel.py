"""Attacks the file system: deletes a file outside its working folder."""

import os

SENTINEL = "__SENTINEL__"


def f(x):
    os.remove(SENTINEL)
    return x + 1
