"""How large an output the parent reads: each output's allowance, checked before it is built.

A child's output is untrusted: its JSON text could hold millions of values (8 million
empty lists are 24 MB of text and, parsed and decoded, 1.27 GB of Python objects). So the
parent reads an output only within its allowance, and reports one past it as an ERROR of
:attr:`~evalplus_ng.records.Fault.TOO_LARGE` (``OutputTooLarge: output too large``):

* its text's bytes, checked on the frame's length before the body is read (a longer body
  is skipped, never held);
* its values, counted on the text (commas and opening brackets: a cheap bound, exact for
  lists of scalars), before the text is parsed;
* its nesting, counted on the parsed text before it is decoded into typed values.

An output with a judge is allowed :data:`FACTOR` times the larger of its input's and its
expected output's size, plus a slack (:data:`SLACK_BYTES`, :data:`SLACK_VALUES`,
:data:`SLACK_NESTING`), so that what a sample can make the parent build is bounded by the
suite and these limits, never by the sample. A right output is the expected value: the
same values and nesting, its text longer only where floats are spelled longer (within a
tolerance: ``0.0`` against ``-1.1102230246251565e-16``, under 8 times). An output the
``set`` oracle judges may repeat members: up to the same allowance, so padding beyond it
(a right answer with a million repeats) fails as too large.
"""

from __future__ import annotations

from dataclasses import dataclass

from evalplus_ng.types import Wire

#: Bytes of JSON text every judged output may have, whatever its input and expected output.
SLACK_BYTES = 1 << 16
#: Values (as :func:`values` counts them) every judged output may hold.
SLACK_VALUES = 1 << 14
#: Levels of nesting (lists and JSON objects of the wire form) every judged output may have
#: beyond the deeper of its input and expected output.
SLACK_NESTING = 64
#: Times the larger of its input's and its expected output's text a judged output may be,
#: in bytes and in values.
FACTOR = 8


@dataclass(frozen=True)
class Allowance:
    """The most an output may be: its text's bytes, its values, its levels of nesting."""

    bytes: int
    values: int
    nesting: int


def values(text: bytes | bytearray, start: int = 0, end: int | None = None) -> int:
    """How many values the JSON text ``text[start:end]`` holds at most: one, plus one per
    comma and per opening bracket (a comma or bracket inside a string counts too)."""
    stop = len(text) if end is None else end
    return (1 + text.count(b",", start, stop) + text.count(b"[", start, stop)
            + text.count(b"{", start, stop))


def nesting(wire: Wire, limit: int) -> int:
    """Levels of lists and JSON objects in ``wire`` (0 for a scalar), counted up to
    ``limit + 1``: a tree deeper than ``limit`` is not walked further. One level at a time,
    without recursion."""
    depth = 0
    level: list[Wire] = [wire] if type(wire) is list or type(wire) is dict else []
    while level and depth <= limit:
        depth += 1
        inner: list[Wire] = []
        for node in level:
            members = node if type(node) is list else list(node.values())
            kinds = set(map(type, members))  # in C: most lists hold no list
            if list in kinds or dict in kinds:
                inner.extend(v for v in members if type(v) is list or type(v) is dict)
        level = inner
    return depth


def allowance(expected_text: bytes, expected: Wire, input_text: bytes,
              given: Wire) -> Allowance:
    """The allowance of an output whose expected output and input are these (texts as the
    child's encoder writes them, and wire trees)."""
    size = max(len(expected_text), len(input_text))
    count = max(values(expected_text), values(input_text))
    deepest = max(nesting(expected, 1 << 20), nesting(given, 1 << 20))
    return Allowance(SLACK_BYTES + FACTOR * size, SLACK_VALUES + FACTOR * count,
                     SLACK_NESTING + deepest)
