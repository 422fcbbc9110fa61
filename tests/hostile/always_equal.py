"""Attacks the comparison: returns an object equal to everything."""


class AlwaysEqual:
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    __hash__ = object.__hash__


def f(x):
    return AlwaysEqual()
