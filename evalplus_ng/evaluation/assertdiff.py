"""A wrong output shown as pytest shows a failing ``assert actual == expected`` (a
program's stdout: :func:`text_diff`).

What a sample returned against what the ground truth answered, for the results file and
the report: the assert line with the call, where two sequences first differ, and the
full diff of their pretty-printed forms (``-`` the expected lines, ``+`` the actual ones,
``?`` marking the characters, as pytest's "Full diff"). Bounded: every line is cut at
:data:`LINE_CHARS` characters and the diff at :data:`DIFF_LINES` lines, and values whose
text is longer than :data:`DIFF_CHARS` are not diffed at all (their heads are shown), so
that a huge output costs neither time nor room.
"""

from __future__ import annotations

import difflib
import pprint
from collections.abc import Sequence
from typing import Any

from evalplus_ng.records import Outcome, Status
from evalplus_ng.types import Args

#: Characters of one line of the diff, beyond which it is cut.
LINE_CHARS = 160
#: Lines of the full diff, beyond which the rest is counted, not shown.
DIFF_LINES = 24
#: Characters of a value's printed form beyond which the full diff is left out.
DIFF_CHARS = 20_000


def _cut(text: str, limit: int = LINE_CHARS) -> str:
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


def call_text(entry_point: str, args: Args) -> str:
    """``f(1, [2])``: a call of ``entry_point`` on ``args``, cut."""
    return _cut(f"{entry_point}({', '.join(map(repr, args))})")


def _first_difference(expected: Any, actual: Any) -> list[str]:
    """pytest's lines for two sequences of one type: where they first differ, or which
    holds more items."""
    if type(expected) is not type(actual) or not isinstance(actual, list | tuple | str):
        if type(expected) is not type(actual):
            return [f"types differ: {type(actual).__name__} != {type(expected).__name__}"]
        return []
    for index, (mine, theirs) in enumerate(zip(actual, expected, strict=False)):
        if mine != theirs:
            return [_cut(f"At index {index} diff: {mine!r} != {theirs!r}")]
    if len(actual) > len(expected):
        return [_cut(f"Left contains {len(actual) - len(expected)} more items, first extra "
                     f"item: {actual[len(expected)]!r}")]
    if len(expected) > len(actual):
        return [_cut(f"Right contains {len(expected) - len(actual)} more items, first extra "
                     f"item: {expected[len(actual)]!r}")]
    return []


def _full_diff(expected: Any, actual: Any) -> list[str]:
    theirs, mine = pprint.pformat(expected, width=80), pprint.pformat(actual, width=80)
    if len(theirs) > DIFF_CHARS or len(mine) > DIFF_CHARS:
        return [f"(no full diff: the values print as {len(theirs):,} and {len(mine):,} "
                "characters)"]
    lines = [line.rstrip() for line in difflib.ndiff(theirs.splitlines(), mine.splitlines())
             if not line.startswith("  ") or len(theirs.splitlines()) > 1]
    shown = [_cut(line) for line in lines[:DIFF_LINES]]
    if len(lines) > DIFF_LINES:
        shown.append(f"... ({len(lines) - DIFF_LINES} more lines)")
    return ["Full diff:", *shown]


def assert_diff(entry_point: str, args: Args, expected: Any, actual: Any) -> str:
    """A wrong output as pytest reports ``assert entry_point(*args) == expected``."""
    lines = [_cut(f"assert {actual!r} == {expected!r}"),
             f" +  where {_cut(repr(actual), LINE_CHARS // 2)} = {call_text(entry_point, args)}",
             *_first_difference(expected, actual), *_full_diff(expected, actual)]
    return "\n".join(lines)


def text_diff(expected: str, actual: str) -> str:
    """A program's wrong stdout as pytest reports ``assert stdout == expected``: the
    expected lines ``-``, the printed ones ``+``."""
    theirs, mine = expected.splitlines(), actual.splitlines()
    lines = ["assert stdout == expected"]
    if len(expected) > DIFF_CHARS or len(actual) > DIFF_CHARS:
        lines.append(f"(no full diff: {len(expected):,} characters expected, "
                     f"{len(actual):,} printed)")
        return "\n".join(lines)
    changed = [line.rstrip() for line in difflib.ndiff(theirs, mine)]
    shown = [_cut(line) for line in changed[:DIFF_LINES]]
    if len(changed) > DIFF_LINES:
        shown.append(f"... ({len(changed) - DIFF_LINES} more lines)")
    return "\n".join([*lines, "Full diff:", *shown])


def first_wrong_output(outcomes: Sequence[Outcome], passed: Sequence[bool]) -> int | None:
    """The index of the first outcome that failed, where it is a wrong output with its value
    kept (:attr:`~evalplus_ng.records.Kept.FIRST_FAILED`); None where the first failure
    is of another kind (raised, timed out) or none failed."""
    failing = next((i for i, ok in enumerate(passed) if not ok), None)
    if failing is None:
        return None
    outcome = outcomes[failing]
    return failing if outcome.status is Status.OK and outcome.value is not None else None
