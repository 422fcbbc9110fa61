"""HumanEval/99 closest_integer: a decimal number string: optional '-', digits, optional '.digits'."""

_DIGITS = frozenset("0123456789")


def pre(value: str) -> bool:
    # The number is written as in the examples ("10", "15.3", "-14.5"); other spellings
    # ('+', '.5', '5.', exponents, spaces) are not promised.
    body = value[1:] if value.startswith("-") else value
    whole, dot, frac = body.partition(".")
    if not whole or any(c not in _DIGITS for c in whole):
        return False
    if dot and (not frac or any(c not in _DIGITS for c in frac)):
        return False
    # ambiguous: the natural solution converts with float(); beyond 15 significant digits
    # a float no longer decides the rounding ("2.5000000000000001" reads as 2.5).
    return len(whole.lstrip("0")) + len(frac.rstrip("0")) <= 15
