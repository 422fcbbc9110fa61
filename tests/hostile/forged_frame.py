"""Attacks the supervisor's decoder: forges a reply frame holding a malformed complex value."""

import contextlib
import json
import os
import struct


def f(x):
    body = json.dumps(["ok", {"c": [x + 1]}, None, 0.0]).encode()
    for fd in range(3, 64):
        with contextlib.suppress(OSError):
            os.write(fd, struct.pack(">I", len(body)) + body)
    os._exit(0)
