"""Attacks the parent's memory through the queue of results: behind a slow right answer
(4 s: each call sleeps 40 ms), 80 wrong answers that each return 5,000 one-tuples
(50 KB of JSON, a size every output is allowed), each spelled apart so that each runs.

Results come back in order, so at ``-j 2`` they wait in the parent while the slow one
runs, and each kept its parsed output (1.3 MB of Python objects). Expected: each a wrong
output, the parent holding none of them.
"""

#: The slow right answer, judged first.
SLOW = "import time\n\n\ndef add(x, y):\n    time.sleep(0.04)\n    return x + y\n"
#: How many wrong answers wait behind it.
COUNT = 80


def records() -> list[dict[str, str]]:
    return [{"solution": f"def add(x, y):\n    return [(0,)] * 5_000  # {k}\n"}
            for k in range(COUNT)]


def right_records() -> list[dict[str, str]]:
    """The same number of right answers, spelled apart (the run to compare with)."""
    return [{"solution": f"def add(x, y):\n    return x + y  # {k}\n"} for k in range(COUNT)]
