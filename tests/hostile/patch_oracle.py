"""Attacks the judge: replaces the oracle and serializer functions, returns a wrong value."""

from evalplus_ng import oracle, serialize


def f(x):
    oracle.check = lambda *args: True
    oracle.equal = lambda *args: True
    serialize.decode = lambda wire: x + 1
    return x - 1
