"""Attacks the parent's memory: a right answer padded to 4 MB with one long literal.

Parsing costs about 490 bytes of memory per byte of source: this one took the parent
to 2 GB before answers had a size limit (a 50 MB one would kill the run). Expected:
failed unread, ``source too large``.
"""


def record() -> dict[str, str]:
    return {"solution": "def add(x, y):\n    return x + y\n\n\nPAD = [" + "1," * 2_000_000 + "]\n"}
