"""Attacks the supervisor's decoder: returns a list nested 3000 deep."""


def f(x):
    value = []
    for _ in range(3000):
        value = [value]
    return value
