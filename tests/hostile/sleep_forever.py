"""Attacks the time limit: sleeps for 1000 seconds."""

import time


def f(x):
    time.sleep(1000)
    return x + 1
