"""HumanEval/2 truncate_number: a positive, finite float."""

import math


def pre(number: float) -> bool:
    return math.isfinite(number) and number > 0
