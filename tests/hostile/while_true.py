"""Attacks the time limit: spins forever in pure Python."""


def f(x):
    while True:
        pass
