"""Attacks the file system: leaves a file in a world-writable folder other than /tmp.

/run/lock (or /var/lock) takes files from anyone.
"""

import os

NAME = "__LOCK_NAME__"


def f(x):
    for folder in ("/run/lock", "/var/lock", "/var/crash", "/var/metrics"):
        try:
            with open(os.path.join(folder, NAME), "w") as handle:
                handle.write("left behind by a sample")
            return x - 1
        except OSError:
            continue
    raise PermissionError("no world-writable folder took the file")
