"""Attacks the file system: leaves a file in a world-writable folder outside /tmp.

The folder (mode 1777) sits outside every temporary folder, as /var/crash or a shared
drop folder would; a file left there outlives the run.
"""

import os

DROP = "__DROP__"


def f(x):
    with open(os.path.join(DROP, "left-behind.txt"), "w") as handle:
        handle.write("left behind by a sample")
    return x - 1
