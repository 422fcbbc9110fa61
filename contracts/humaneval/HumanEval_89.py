"""HumanEval/89 encrypt: a string of lowercase ASCII letters (the rotated alphabet), possibly empty."""

_LOWER = frozenset("abcdefghijklmnopqrstuvwxyz")


def pre(s: str) -> bool:
    # ambiguous: any character but a lowercase letter: the docstring rotates "the alphabet" and
    # shows only lowercase words; whether capitals rotate too and what becomes of other
    # characters is not said.
    return all(c in _LOWER for c in s)
