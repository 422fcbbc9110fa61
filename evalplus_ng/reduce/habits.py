"""Normalising habits: rewrites of an input that LLM samples often make unasked.

A sample that lowercases its text, drops punctuation or non-ASCII letters, strips or
removes spaces, sorts or de-duplicates its list, or takes absolute values computes
``f(rewrite(x))`` where the ground truth computes ``f(x)``; it passes every test on
which the rewrite does not change the ground truth's answer, and fails every test on
which it does. A test is *sensitive* to a habit when the ground truth answers the
rewritten input differently, *insensitive* when the rewrite changes the input but not
the answer (a sample that should have normalised and did not fails there). Both are
goals of the ``habits`` requirement: a MINI meeting them shows each habit the full
suite can tell apart.

Pure functions of plain values: the same rewrites on every machine.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from evalplus_ng.types import Args

_NOT_ASCII_ALNUM = re.compile(r"[^A-Za-z0-9]")


def _text(rewrite: Callable[[str], str]) -> Callable[[Any], Any]:
    def apply(value: Any) -> Any:
        return rewrite(value) if isinstance(value, str) else None

    return apply


def _numbers(value: Any) -> bool:
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)


def _sorted(value: Any) -> Any:
    if not isinstance(value, list):
        return None
    try:
        return sorted(value)
    except TypeError:  # items without an order
        return None


def _unique(value: Any) -> Any:
    if not isinstance(value, list):
        return None
    try:
        return list(dict.fromkeys(value))
    except TypeError:  # unhashable items
        return None


def _absolute(value: Any) -> Any:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return abs(value)
    if isinstance(value, list) and value and _numbers(value):
        return [abs(v) for v in value]
    return None


#: Each habit: the rewrite of one argument (None where it does not apply).
HABITS: dict[str, Callable[[Any], Any]] = {
    "lower": _text(str.lower),
    "strip": _text(str.strip),
    "nospace": _text(lambda text: "".join(c for c in text if not c.isspace())),
    "alnum": _text(lambda text: "".join(c for c in text if c.isalnum())),
    "ascii_alnum": _text(lambda text: _NOT_ASCII_ALNUM.sub("", text)),
    "sorted": _sorted,
    "unique": _unique,
    "abs": _absolute,
}


def rewrites(args: Args) -> list[tuple[str, Args]]:
    """Each habit's rewrite of each argument that it changes: ``(goal stem, args)``,
    the stem naming the argument and the habit (``a0:lower``)."""
    found: list[tuple[str, Args]] = []
    for index, value in enumerate(args):
        for name, habit in HABITS.items():
            rewritten = habit(value)
            if rewritten is None or type(rewritten) is not type(value) or rewritten == value:
                continue
            found.append((f"a{index}:{name}",
                          [*args[:index], rewritten, *args[index + 1:]]))
    return found


def goals(stems: Sequence[str], same: Sequence[bool | None]) -> set[str]:
    """A test's goals: each rewrite's stem with ``:changes`` (the ground truth answered it
    differently) or ``:keeps`` (the same answer); None (it did not answer) is no goal."""
    return {f"{stem}:{'keeps' if kept else 'changes'}"
            for stem, kept in zip(stems, same, strict=True) if kept is not None}
