"""Mbpp/252 convert(numbers): a complex number to polar coordinates. EvalPlus passes
``complex(x)``; finite parts (the polar form of an infinite or NaN number is not what
the docstring asks about)."""

import math


def pre(numbers: complex) -> bool:
    return math.isfinite(numbers.real) and math.isfinite(numbers.imag)
