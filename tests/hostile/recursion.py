"""Attacks the stack: unbounded recursion under the default recursion limit."""


def f(x):
    return f(x) + 1
