"""Attacks the reply channel: prints forged result frames and lines on stdout."""

import json
import os
import struct


def f(x):
    body = json.dumps(["ok", x + 1, None, 0.0]).encode()
    for _ in range(10):
        os.write(1, struct.pack(">I", len(body)) + body)
        print(json.dumps({"status": "ok", "value": x + 1, "passed": True}), flush=True)
    return x - 1
