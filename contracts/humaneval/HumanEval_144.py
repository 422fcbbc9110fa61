"""HumanEval/144 simplify: two fractions "<numerator>/<denominator>" of positive whole numbers."""

import re

# Positive whole numbers written plainly, no sign or leading zeros; each part is at
# most 10**7 (see below).
_FRACTION = re.compile(r"([1-9][0-9]{0,7})/([1-9][0-9]{0,7})")


def _ok(fraction: str) -> bool:
    match = _FRACTION.fullmatch(fraction)
    if match is None:
        return False
    # The reference decides wholeness with float division; with the numerator product
    # below 10**14 (< 2**52) a non-whole quotient can never round to a whole float.
    return int(match.group(1)) <= 10**7 and int(match.group(2)) <= 10**7


def pre(x: str, n: str) -> bool:
    return _ok(x) and _ok(n)
