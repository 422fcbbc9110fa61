"""Attacks the judge: replaces the oracle and serializer functions, returns a wrong value."""

from evalplus_ng import judge, serialize


def f(x):
    judge.check = lambda *args: True
    judge.equal = lambda *args: True
    serialize.decode = lambda wire: x + 1
    return x - 1
