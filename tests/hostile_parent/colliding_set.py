"""Attacks the parent's decoder: forges its reply, a set of 200,000 ints that all hash
to 0 (multiples of 2**61 - 1, 4 MB of JSON, far below the 64 MiB output cap).

The child cannot build such a set itself in time (that is just as quadratic), so it
writes the frame by hand on every descriptor and exits. Building the set in the parent
costs n^2 / 2 comparisons with the GIL held (40,000 members took 34 s before decoding
was bounded). Expected: bad output, ``unjudgeable output``; verdict ``wrong output``.
"""

SOLUTION = '''\
import os
import struct


def add(x, y):
    text = '{"s":[' + ",".join(str(i * (2**61 - 1)) for i in range(200_000)) + "]}"
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
