"""HumanEval/99 closest_integer: a decimal number string: optional '-', digits, optional '.digits'."""

_DIGITS = frozenset("0123456789")


def pre(value: str) -> bool:
    body = value[1:] if value.startswith("-") else value
    whole, dot, frac = body.partition(".")
    if not whole or any(c not in _DIGITS for c in whole):
        return False
    if dot and (not frac or any(c not in _DIGITS for c in frac)):
        return False
    # The reference goes through float(): keep to at most 15 significant digits so the
    # conversion is exact enough to decide the rounding.
    return len(whole.lstrip("0")) + len(frac.rstrip("0")) <= 15
