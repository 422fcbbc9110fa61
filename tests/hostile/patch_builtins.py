"""Attacks the judge: patches len, isinstance, type and int.__eq__, then returns a wrong value."""

import builtins
import contextlib


def f(x):
    builtins.len = lambda *args: 0
    builtins.isinstance = lambda *args: True
    builtins.issubclass = lambda *args: True
    builtins.type = lambda *args: int
    with contextlib.suppress(TypeError):
        int.__eq__ = lambda self, other: True
    return x - 1
