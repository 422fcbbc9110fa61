"""The shape of a program's stdin: lines of tokens, counts that size lists and blocks.

A grammar is a tuple of items. A :class:`Line` is one line of segments: a
:class:`Field` (one token, a variable other counts may name) or a :class:`Seq` (a run of
tokens of one kind, as many as a :class:`Count` says: ``n`` integers, ``k_i`` of them
after ``k_i`` itself). A :class:`Repeat` is a block of items read ``count`` times (the
``m`` edges, the ``n`` rows of a grid, the ``t`` test cases). Tokens are integers, decimal
numbers or words (anything else without spaces).

:func:`parse` reads a text with a grammar into a :class:`Values` tree (or says where it
does not fit); :func:`render` writes a tree back as text: the same text for any text the
grammar parses (tokens joined by one space, one line per :class:`Line`, a final newline).
Pure: text and records in and out.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Union

#: Token kinds.
INT, FLOAT, WORD = "int", "float", "word"
_INT = re.compile(r"[-+]?\d+")
_FLOAT = re.compile(r"[-+]?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?")

Scalar = int | float | str


def kind_of(token: str) -> str:
    """The kind of one token: :data:`INT`, :data:`FLOAT` or :data:`WORD`."""
    if _INT.fullmatch(token):
        return INT
    if _FLOAT.fullmatch(token):
        return FLOAT
    return WORD


def widest(kinds: Sequence[str]) -> str:
    """The narrowest kind every one of ``kinds`` fits (an integer is a number too)."""
    if all(kind == INT for kind in kinds):
        return INT
    if all(kind in (INT, FLOAT) for kind in kinds):
        return FLOAT
    return WORD


def value_of(token: str, kind: str) -> Scalar | None:
    """``token`` read as ``kind``; None when it is not one."""
    if kind == INT:
        return int(token) if _INT.fullmatch(token) else None
    if kind == FLOAT:
        return float(token) if _FLOAT.fullmatch(token) else None
    return token


def text_of(value: Scalar) -> str:
    """A value as its token."""
    if isinstance(value, float):
        return repr(value) if value != int(value) or abs(value) >= 1e16 else str(int(value))
    return str(value)


def lines_of(text: str) -> list[list[str]]:
    """The text's lines as token lists; blank lines at the end dropped."""
    rows = [line.split() for line in text.split("\n")]
    while rows and not rows[-1]:
        rows.pop()
    return rows


@dataclass(frozen=True)
class Count:
    """How many: ``scale`` times the value of the variable ``var``, plus ``offset`` (a
    constant when ``var`` is None)."""

    var: str | None
    offset: int = 0
    scale: int = 1

    def of(self, env: Mapping[str, Scalar]) -> int:
        """The count in ``env``."""
        base = int(env[self.var]) * self.scale if self.var is not None else 0
        return base + self.offset

    def __str__(self) -> str:
        if self.var is None:
            return str(self.offset)
        scaled = f"{self.scale}*{self.var}" if self.scale != 1 else self.var
        return scaled + (f"{self.offset:+d}" if self.offset else "")


@dataclass(frozen=True)
class Field:
    """One token bound to a variable."""

    name: str
    kind: str


@dataclass(frozen=True)
class Seq:
    """``length`` tokens of one kind (the list ``name``)."""

    name: str
    kind: str
    length: Count


Segment = Field | Seq


@dataclass(frozen=True)
class Line:
    """One line: its segments in order."""

    segments: tuple[Segment, ...]


@dataclass(frozen=True)
class Repeat:
    """The items ``body`` read ``count`` times; its iterations are the list ``name``."""

    name: str
    count: Count
    body: tuple[Item, ...]


Item = Union[Line, "Repeat"]
Grammar = tuple[Item, ...]


@dataclass
class Values:
    """What one text (or one iteration of a block) holds: scalars and lists by name, and
    each block's iterations."""

    scalars: dict[str, Scalar]
    lists: dict[str, list[Scalar]]
    blocks: dict[str, list[Values]]


class Mismatch(ValueError):
    """The text does not fit the grammar (the message says where)."""


def _scope(env: Mapping[str, Scalar], values: Values) -> dict[str, Scalar]:
    return {**env, **values.scalars}


class _Reader:
    def __init__(self, rows: list[list[str]]) -> None:
        self.rows = rows
        self.at = 0

    def items(self, items: Sequence[Item], env: Mapping[str, Scalar]) -> Values:
        values = Values({}, {}, {})
        for item in items:
            if isinstance(item, Line):
                self.line(item, env, values)
            else:
                count = item.count.of(_scope(env, values))
                if count < 0:
                    raise Mismatch(f"block {item.name}: count {item.count} is {count}")
                if count > len(self.rows) - self.at and _lines_per_iteration(item) > 0:
                    raise Mismatch(f"block {item.name}: {count} iterations, "
                                   f"{len(self.rows) - self.at} line(s) left")
                inner = _scope(env, values)
                values.blocks[item.name] = [self.items(item.body, inner) for _ in range(count)]
        return values

    def line(self, line: Line, env: Mapping[str, Scalar], values: Values) -> None:
        if self.at >= len(self.rows):
            raise Mismatch(f"line {self.at + 1}: missing")
        tokens = self.rows[self.at]
        where = f"line {self.at + 1}"
        position = 0
        for segment in line.segments:
            if isinstance(segment, Field):
                if position >= len(tokens):
                    raise Mismatch(f"{where}: too few tokens")
                value = value_of(tokens[position], segment.kind)
                if value is None:
                    raise Mismatch(f"{where}: {tokens[position]!r} is not {segment.kind}")
                values.scalars[segment.name] = value
                position += 1
            else:
                length = segment.length.of(_scope(env, values))
                if length < 0 or position + length > len(tokens):
                    raise Mismatch(f"{where}: {segment.name} needs {length} token(s), "
                                   f"{len(tokens) - position} left")
                items: list[Scalar] = []
                for token in tokens[position:position + length]:
                    value = value_of(token, segment.kind)
                    if value is None:
                        raise Mismatch(f"{where}: {token!r} is not {segment.kind}")
                    items.append(value)
                values.lists[segment.name] = items
                position += length
        if position != len(tokens):
            raise Mismatch(f"{where}: {len(tokens) - position} token(s) too many")
        self.at += 1


def _lines_per_iteration(repeat: Repeat) -> int:
    return sum(1 for item in repeat.body if isinstance(item, Line))


def read_items(items: Sequence[Item], rows: list[list[str]],
               env: Mapping[str, Scalar]) -> tuple[Values, int] | None:
    """The values ``items`` read from the first of ``rows`` (token lists), with the
    variables ``env`` in scope, and how many rows they read; None when they do not fit."""
    reader = _Reader(rows)
    try:
        values = reader.items(items, env)
    except (Mismatch, KeyError):
        return None
    return values, reader.at


def read_prefix(items: Sequence[Item], rows: list[list[str]],
                env: Mapping[str, Scalar]) -> int | None:
    """How many of ``rows`` (token lists) ``items`` read from the first, with the
    variables ``env`` in scope; None when they do not fit."""
    read = read_items(items, rows, env)
    return None if read is None else read[1]


def parse(grammar: Grammar, text: str) -> Values:
    """The values ``text`` holds under ``grammar``; :class:`Mismatch` when it does not fit
    (every line read, nothing left over)."""
    reader = _Reader(lines_of(text))
    values = reader.items(grammar, {})
    if reader.at != len(reader.rows):
        raise Mismatch(f"line {reader.at + 1}: {len(reader.rows) - reader.at} line(s) too many")
    return values


def _write(items: Sequence[Item], values: Values, out: list[str]) -> None:
    for item in items:
        if isinstance(item, Line):
            tokens: list[str] = []
            for segment in item.segments:
                if isinstance(segment, Field):
                    tokens.append(text_of(values.scalars[segment.name]))
                else:
                    tokens.extend(text_of(value) for value in values.lists[segment.name])
            out.append(" ".join(tokens))
        else:
            for inner in values.blocks[item.name]:
                _write(item.body, inner, out)


def render(grammar: Grammar, values: Values) -> str:
    """The text of ``values`` under ``grammar``."""
    out: list[str] = []
    _write(grammar, values, out)
    return "\n".join(out) + "\n"


def size(items: Sequence[Item]) -> int:
    """Items, blocks' bodies included: the simpler of two grammars is the smaller."""
    return sum(1 + (size(item.body) if isinstance(item, Repeat) else 0) for item in items)


def describe(grammar: Grammar) -> list[object]:
    """The grammar as plain JSON-able data (stored in the artifact as the contract)."""
    def segment(part: Segment) -> object:
        if isinstance(part, Field):
            return [part.name, part.kind]
        return [part.name, part.kind, str(part.length)]

    out: list[object] = []
    for item in grammar:
        if isinstance(item, Line):
            out.append({"line": [segment(part) for part in item.segments]})
        else:
            out.append({"repeat": item.name, "count": str(item.count),
                        "body": describe(item.body)})
    return out
