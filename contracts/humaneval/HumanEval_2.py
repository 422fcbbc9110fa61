"""HumanEval/2 truncate_number: a positive, finite float of magnitude at most 1e50."""

import math


def pre(number: float) -> bool:
    # The docstring: "Given a positive floating point number".
    if not math.isfinite(number) or number <= 0:
        return False
    # ambiguous: magnitudes near the float range (rounding decides the answer).
    return number <= 1e50
