"""Attacks the reply channel: prints forged result frames and lines on stderr."""

import json
import os
import struct
import sys


def f(x):
    body = json.dumps(["ok", x + 1, None, 0.0]).encode()
    for _ in range(10):
        os.write(2, struct.pack(">I", len(body)) + body)
        print(json.dumps({"status": "ok", "value": x + 1, "passed": True}), file=sys.stderr)
    sys.stderr.flush()
    return x - 1
