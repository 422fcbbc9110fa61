"""HumanEval/137 compare_one: two real numbers of magnitude at most 1e50, each an int, a finite float, or a string like "2,3" / "-5.1" / "6"."""

import math
import re
from fractions import Fraction

# A real number written in decimal, with '.' or ',' as the decimal separator.
_REAL = re.compile(r"[+-]?[0-9]+(?:[.,][0-9]+)?")


def _exact(value: int | float | str) -> Fraction | None:
    """The real number a valid value stands for, None if the value is not valid."""
    if type(value) is str:
        # Size bound only: the digits stay under CPython's 4300-digit limit for int().
        if len(value) > 4000 or _REAL.fullmatch(value) is None:
            return None
        return Fraction(value.replace(",", "."))
    if type(value) is float and not math.isfinite(value):
        return None
    return Fraction(value)


def _sign(x: Fraction) -> int:
    return (x > 0) - (x < 0)


def pre(a: int | float | str, b: int | float | str) -> bool:
    exact_a, exact_b = _exact(a), _exact(b)
    if exact_a is None or exact_b is None:
        return False
    # ambiguous: magnitudes near the float range (overflow and rounding decide the answer).
    if abs(exact_a) > 1e50 or abs(exact_b) > 1e50:
        return False
    # ambiguous: values whose order depends on whether they are compared exactly or as
    # floats (10**20 + 1 vs 1e20, "0,1" vs 0.1, "9007199254740993" vs 9007199254740993):
    # every mix of exact values and values rounded to floats must give the same order.
    values_a = (exact_a, Fraction(float(exact_a)))
    values_b = (exact_b, Fraction(float(exact_b)))
    return len({_sign(x - y) for x in values_a for y in values_b}) == 1
