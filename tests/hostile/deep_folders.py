"""Attacks the cleanup: a folder tree 3,000 deep (with a file at every level) in the working
folder, deeper than shutil.rmtree can recurse and longer than PATH_MAX as one path."""

import os


def f(x):
    for _ in range(3000):
        os.mkdir("d")
        os.chdir("d")
        with open("f", "w") as handle:
            handle.write("x")
    return x - 1
