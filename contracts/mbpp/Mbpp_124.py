"""Mbpp/124 angle_complex(a, b): the angle of a + b. EvalPlus passes ``float(a)`` and
``complex(b)`` and asks ``b.real == 0``; both parts finite (the angle of an infinite or
NaN sum is not a number the docstring defines)."""

import math


def pre(a: float, b: complex) -> bool:
    return b.real == 0 and math.isfinite(a) and math.isfinite(b.imag)
