"""Attacks the process limit: starts a thread that computes the answer."""

import threading


def f(x):
    box = []
    worker = threading.Thread(target=lambda: box.append(x + 1))
    worker.start()
    worker.join()
    return box[0]
