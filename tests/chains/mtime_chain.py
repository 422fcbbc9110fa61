"""Attacks later samples' verdicts: a chain of copies learns the answers from what each
copy leaves in its working folder's modification time (issue 31).

Before each output a copy writes there what it returned so far and what it guesses now.
The run stops at the first wrong output (the copy waits for
that before it writes again), so the next copy finds the last guess written
to be wrong (or every output right): it knows one answer more, and guesses on. The
copies differ only in ``COPY`` (identical code would be judged once).
"""

import os
import time

COPY = "__COPY__"
#: Marks a time this chain wrote (a real modification time is far larger).
MARK = 1 << 40
calls = []


def _known():
    """The answers the previous copies found, in input order."""
    stamp = os.stat(".").st_mtime_ns
    if stamp >> 40 != 1:
        return []
    index, guess = (stamp >> 24) & 0xFFFF, (stamp >> 23) & 1
    answers = [bool(stamp >> bit & 1) for bit in range(index)]
    return [*answers, not guess]


KNOWN = _known()


def f(xs):
    index = len(calls)
    if index:
        # The run is stopped within milliseconds of a wrong output: wait for that before
        # writing over what the last output's guess was.
        time.sleep(0.2)
    guess = KNOWN[index] if index < len(KNOWN) else True
    calls.append(guess)
    bits = sum(1 << bit for bit, answer in enumerate(calls[:-1]) if answer)
    stamp = MARK | index << 24 | int(guess) << 23 | bits
    os.utime(".", ns=(stamp, stamp))
    return guess
