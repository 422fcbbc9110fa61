"""Attacks the load time limit: spins forever while the module loads."""

while True:
    pass


def f(x):
    return x + 1
