"""Mbpp/404 minimum(a, b): "the minimum of two numbers". EvalPlus's contract allows
ints and floats, infinities included; NaN has no minimum (``min`` then depends on the
argument order), so it is out."""

import math


def pre(a: int | float, b: int | float) -> bool:
    return not (isinstance(a, float) and math.isnan(a)) and not (
        isinstance(b, float) and math.isnan(b))
