"""HumanEval/144 simplify: two fractions "<numerator>/<denominator>" of positive whole numbers up to 10**7."""

import re

# Positive whole numbers written plainly, no sign or leading zeros; each part is at
# most 10**7 (see below).
_FRACTION = re.compile(r"([1-9][0-9]{0,7})/([1-9][0-9]{0,7})")


def _ok(fraction: str) -> bool:
    match = _FRACTION.fullmatch(fraction)
    if match is None:
        return False
    # ambiguous: the natural solution (HumanEval's own) divides the products as floats and
    # asks whether the quotient is whole; with both products below 10**14 (< 2**52) a float
    # decides that exactly, beyond it float rounding does.
    return int(match.group(1)) <= 10**7 and int(match.group(2)) <= 10**7


def pre(x: str, n: str) -> bool:
    # The docstring: "both numerator and denominator are positive whole numbers".
    return _ok(x) and _ok(n)
