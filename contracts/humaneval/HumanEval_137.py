"""HumanEval/137 compare_one: two finite real numbers, each an int, a float, or a string like "2,3" / "-5.1" / "6"."""

import math
import re

# A real number written in decimal, with '.' or ',' as the decimal separator.
_REAL = re.compile(r"[+-]?[0-9]+(?:[.,][0-9]+)?")


def _ok(value: int | float | str) -> bool:
    if type(value) is str:
        if _REAL.fullmatch(value) is None:
            return False
        return math.isfinite(float(value.replace(",", ".")))
    if type(value) is int:
        # The reference converts with float(), which overflows past ~1.8e308.
        return -10**300 < value < 10**300
    return math.isfinite(value)


def pre(a: int | float | str, b: int | float | str) -> bool:
    return _ok(a) and _ok(b)
