"""Attacks the process limit: runs a subprocess (true)."""

import subprocess


def f(x):
    subprocess.run(["true"], check=True)
    return x + 1
