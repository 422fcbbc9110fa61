"""Attacks the time limit: ignores SIGALRM, SIGTERM, SIGINT and SIGHUP, then spins."""

import signal


def f(x):
    for signum in (signal.SIGALRM, signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, signal.SIG_IGN)
    while True:
        pass
