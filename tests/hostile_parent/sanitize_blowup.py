"""Attacks the parent's sanitizer: 800 lines of ``x = (``, 4.8 KB.

No bracket ever closes, so every run of lines the sanitizer tries fails to parse, and it
tries a run from every line, trimmed one line at a time, in every re-indentation: about
n^2.7 parses (400 lines took 45 s before sanitizing was bounded; 800 take minutes).
Expected: failed unrun, ``sanitize limit``.
"""


def record() -> dict[str, str]:
    return {"completion": "x = (\n" * 800}
