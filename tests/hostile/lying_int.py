"""Attacks the comparison: returns an int subclass whose __eq__ always says yes."""


class Liar(int):
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    __hash__ = int.__hash__


def f(x):
    return Liar(-12345)
