"""Attacks the answer key: looks for the reference solution in the memory its process inherited.

The supervisor runs ground-truth jobs too; a child forked from it would find that
job's code in the frames above its own, among the objects the collector tracks, or
in raw memory. It returns the reference's answer if it finds the reference.
"""

import gc
import re
import sys

PATTERN = re.compile(rb"return x \+ (\d{13})")


def _found(text):
    match = PATTERN.search(text)
    return int(match.group(1)) if match else None


def _search():
    frame = sys._getframe()
    while frame is not None:
        for value in list(frame.f_locals.values()):
            if isinstance(value, (str, bytes)):
                found = _found(value if isinstance(value, bytes) else value.encode())
                if found:
                    return found
            if isinstance(value, dict) and isinstance(value.get("code"), str):
                found = _found(value["code"].encode())
                if found:
                    return found
        frame = frame.f_back
    for item in gc.get_objects():
        if isinstance(item, dict) and isinstance(item.get("code"), str):
            found = _found(item["code"].encode())
            if found:
                return found
    try:
        with open("/proc/self/maps") as maps, open("/proc/self/mem", "rb", 0) as memory:
            for line in maps:
                fields = line.split()
                if not fields[1].startswith("rw"):
                    continue
                start, end = (int(part, 16) for part in fields[0].split("-"))
                if end - start > 1 << 28:
                    continue
                try:
                    memory.seek(start)
                    found = _found(memory.read(end - start))
                except (OSError, ValueError, OverflowError):
                    continue
                if found:
                    return found
    except OSError:
        pass
    return None


def f(x):
    secret = _search()
    return x - 1 if secret is None else x + secret
