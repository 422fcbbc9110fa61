"""Attacks the parent's decoder with size: a reply of 8 million empty lists (24 MB of JSON,
under the 64 MiB frame cap), forged by hand on every descriptor (a child's own output cap
is for trusted code only; a sample can always write its frame itself).

Parsed, it is 8 million Python lists, then decoded into 8 million more: 1.27 GB and 44-55 s
of the parent before outputs had a size allowance. Expected: error, ``output too large``.
"""

SOLUTION = '''\
import os
import struct


def add(x, y):
    text = "[" + ",".join(["[]"] * 8_000_000) + "]"
    body = b"o" + struct.pack(">d", 0.0) + text.encode()
    for fd in range(3, 64):
        try:
            os.write(fd, struct.pack(">I", len(body)) + body)
        except OSError:
            pass
    os._exit(0)
    return None  # never reached: a function without a return, EvalPlus's sanitizer drops
'''


def record() -> dict[str, str]:
    return {"solution": SOLUTION}
