"""HumanEval/89 encrypt: a string of lowercase ASCII letters (the rotated alphabet), possibly empty."""

_LOWER = frozenset("abcdefghijklmnopqrstuvwxyz")


def pre(s: str) -> bool:
    # The rotation is only defined on the alphabet; every example is lowercase letters.
    return all(c in _LOWER for c in s)
