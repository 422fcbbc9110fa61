"""Which valid inputs are like a task's base tests, and which are edges the prompt omits.

A valid input can still be one the task never asked about: the reference then answers
something the sentence is silent on (None where nothing matches, an empty list, -1),
and a sample that answers otherwise is not clearly wrong. Where nobody wrote a contract
for a task (MBPP+'s tasks, a user's tasks file), the base tests are the only word on
what the task is about, so a new input tests correctness only while it and its answer
look like them (:func:`infer_likeness`, :func:`unlike`); the others are **edges**, kept
in a tier of their own and judged apart (``augment`` writes ``<Stem>Plus-Edge.jsonl.gz``):

* **output**: the ground truth's answer is None, empty, zero, negative, NaN or infinite,
  or of a type, or holds an empty item, where no base answer does and the prompt does not
  mention it (a "no match" sentinel, an empty result, a nested tuple emptied);
* **order**: two numbers given in one order in every base input (``low``, ``high``)
  come reversed, where the prompt speaks of a range (between, range, interval, from ...
  to);
* **spacing**: a string with leading, trailing or repeated whitespace, or whitespace
  other than a space, where no base string has any and the prompt speaks of none;
* **case**: an upper-case letter where the base strings have letters but none upper
  case (and the other way round), where the prompt says nothing of case;
* **alphabet**: a string argument with letters, digits or other symbols where no base
  string there has any (a letter in an IP address, a digit in a word);
* **shape**: a string argument whose shape (runs of letters, of digits, of spaces,
  and each other character) is none of the base strings' there, where each of those is
  structured text (two or more symbols, not prose: an address ``9.9.9.9``, a tuple
  written out ``(9, 9)``); where every base
  string there has one shape with the same run lengths too (a date ``9999-99-99``), that
  one.

A written contract (``contracts/<dataset>/<Task>.py``) is the maintainer's word on what
is valid, and there every valid input is like the base tests. Pure: plain values in,
a verdict out.
"""

from __future__ import annotations

import enum
import math
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from evalplus_ng.generate.classes import mentioned


class Unlike(enum.Enum):
    """Why an input is an edge (the first reason, in this order)."""

    OUTPUT = "edge-output"  #: an answer of a class no base answer has
    ORDER = "edge-order"  #: the bounds of a range reversed
    SPACING = "edge-spacing"  #: whitespace no base string has
    CASE = "edge-case"  #: a letter case no base string has
    ALPHABET = "edge-alphabet"  #: letters, digits or symbols no base string there has
    SHAPE = "edge-shape"  #: a string of a shape no base string there has


#: Answer classes a prompt may mention (:data:`evalplus_ng.generate.classes.MENTIONS`).
_MENTIONABLE = ("none", "empty", "zero", "negative", "nonfinite")
_SPACING_WORDS = re.compile(r"\b(white\s*space|spaces?|blanks?|tabs?|newlines?|strip\w*|"
                            r"trim\w*)\b", re.IGNORECASE)
_CASE_WORDS = re.compile(r"upper|lower|capital|\bcase\b|\bcases\b|insensitive",
                         re.IGNORECASE)
#: Whitespace a base string may show without showing "spacing": one space between words.
_ODD_SPACING = re.compile(r"^\s|\s$|\s\s|[^\S ]")
_RANGE_WORDS = re.compile(r"\bbetween\b|\branges?\b|\bintervals?\b|\bfrom\b[^.]*\bto\b",
                          re.IGNORECASE)
#: A shape must be read off at least this many base strings.
_SHAPE_EVIDENCE = 2


@dataclass(frozen=True)
class Likeness:
    """What a task's base tests show: the answer classes (and the ones the prompt
    mentions); the text traits (``spacing``, ``upper``, ``lower``) a new string may
    have; per argument position, the alphabet of its strings (None: any) and their
    shapes (None: any; a shape with run lengths, ``9{4}-9{2}``, where all share it)."""

    outputs: frozenset[str]
    text: frozenset[str]
    alphabets: tuple[frozenset[str] | None, ...] = ()
    shapes: tuple[frozenset[str] | None, ...] = ()
    #: Pairs of positions ``(low, high)`` of numbers ``low <= high`` in every base input
    #: (and ``<`` in one), where the prompt speaks of a range.
    ordered: tuple[tuple[int, int], ...] = ()


def answer_classes(value: Any) -> frozenset[str]:
    """The classes of one answer: ``none``, ``empty``, ``zero``, ``negative``,
    ``nonfinite``, ``type:<name>`` (booleans only their type) and ``empty-item`` (a
    collection holding an empty string or collection)."""
    if value is None:
        return frozenset({"none"})
    found = {f"type:{type(value).__name__}"}
    if isinstance(value, bool):
        return frozenset(found)
    if isinstance(value, float) and not math.isfinite(value):
        found.add("nonfinite")
    elif isinstance(value, (int, float)):
        found |= {"zero"} if value == 0 else {"negative"} if value < 0 else set()
    elif isinstance(value, (str, bytes, list, tuple, dict, set, frozenset)) and not value:
        found.add("empty")
    elif isinstance(value, (list, tuple, dict, set, frozenset)) and any(
            isinstance(item, _SIZED) and not item
            for item in (value.values() if isinstance(value, dict) else value)):
        found.add("empty-item")
    return frozenset(found)


_SIZED = (str, bytes, list, tuple, dict, set, frozenset)


def _strings(value: Any, depth: int = 0) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif depth < 3 and isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            yield from _strings(item, depth + 1)
    elif depth < 3 and isinstance(value, dict):
        for pair in value.items():
            yield from _strings(pair, depth + 1)


def text_traits(strings: Sequence[str]) -> frozenset[str]:
    """``spacing`` (leading, trailing, repeated or non-space whitespace), ``upper`` and
    ``lower`` (a letter of that case), ``letters`` (any letter) among ``strings``."""
    found: set[str] = set()
    for text in strings:
        if _ODD_SPACING.search(text):
            found.add("spacing")
        if any(c.isupper() for c in text):
            found.add("upper")
        if any(c.islower() for c in text):
            found.add("lower")
        if any(c.isalpha() for c in text):
            found.add("letters")
    return frozenset(found)


def shape(text: str, lengths: bool = False) -> str:
    """Runs of letters as ``a``, of digits as ``9``, of whitespace as one space; every
    other character as it is (``'2026-01-02'`` -> ``'9-9-9'``); with ``lengths``, each
    run longer than one with its length (``'9{4}-9{2}-9{2}'``)."""
    runs: list[list[Any]] = []
    for c in text:
        kind = "a" if c.isalpha() else "9" if c.isdigit() else " " if c.isspace() else c
        if runs and kind in "a9 " and runs[-1][0] == kind:
            runs[-1][1] += 1
        else:
            runs.append([kind, 1])
    return "".join(f"{kind}{{{count}}}" if lengths and count > 1 else kind
                   for kind, count in runs)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _ordered_pairs(base_inputs: Sequence[Sequence[Any]], arity: int) -> list[tuple[int, int]]:
    numbers = [p for p in range(arity) if all(_number(args[p]) for args in base_inputs)]
    pairs = []
    for low in numbers:
        for high in numbers:
            if (low != high and all(args[low] <= args[high] for args in base_inputs)
                    and any(args[low] < args[high] for args in base_inputs)):
                pairs.append((low, high))
    return pairs


def alphabet(text: str) -> frozenset[str]:
    """What ``text`` is made of: ``letter``, ``digit``, ``space``, ``symbol``."""
    return frozenset("letter" if c.isalpha() else "digit" if c.isdigit()
                     else "space" if c.isspace() else "symbol" for c in text)


def _structured(coarse: str) -> bool:
    """A shape of structured text (a date, an address, a tuple written out: fields of
    letters or digits between two or more symbols), not of words (no punctuation, or
    prose: words between spaces) nor of symbols alone (brackets)."""
    symbols = sum(c not in "a9 " for c in coarse)
    return symbols >= 2 and symbols < len(coarse) and "a a" not in coarse


def _shapes(strings: Sequence[str]) -> frozenset[str] | None:
    shapes = frozenset(shape(s) for s in strings)
    if not all(map(_structured, shapes)):
        return None
    exact = frozenset(shape(s, lengths=True) for s in strings)
    return exact if len(exact) == 1 else shapes


def infer_likeness(prompt: str, base_inputs: Sequence[Sequence[Any]],
                   base_outputs: Sequence[Any]) -> Likeness:
    """What the base tests (inputs and the ground truth's answers) show; see the module
    docstring. Classes the prompt mentions count as shown."""
    said = mentioned(prompt)
    outputs = frozenset().union(*map(answer_classes, base_outputs)) | {
        kind for kind in _MENTIONABLE if kind in said}
    strings = [s for args in base_inputs for value in args for s in _strings(value)]
    shown = set(text_traits(strings))
    if not strings or _SPACING_WORDS.search(prompt):
        shown.add("spacing")
    if "letters" not in shown or _CASE_WORDS.search(prompt):
        shown |= {"upper", "lower"}
    arity = min((len(args) for args in base_inputs), default=0)
    alphabets: list[frozenset[str] | None] = []
    shapes: list[frozenset[str] | None] = []
    for position in range(arity):
        values = [args[position] for args in base_inputs]
        texts = [v for v in values if isinstance(v, str)]
        whole = len(texts) == len(values) and len(texts) >= _SHAPE_EVIDENCE
        alphabets.append(frozenset().union(*map(alphabet, texts)) if whole else None)
        shapes.append(_shapes(texts) if whole else None)
    ordered = _ordered_pairs(base_inputs, arity) if _RANGE_WORDS.search(prompt) else []
    return Likeness(outputs, frozenset(shown), tuple(alphabets), tuple(shapes), tuple(ordered))


def unlike(likeness: Likeness, args: Sequence[Any], answer: Any) -> Unlike | None:
    """Why ``args`` (answered ``answer`` by the ground truth) is an edge of the task
    whose base tests ``likeness`` describes; None when it is like them."""
    if answer_classes(answer) - likeness.outputs:
        return Unlike.OUTPUT
    for low, high in likeness.ordered:
        if (max(low, high) < len(args) and _number(args[low]) and _number(args[high])
                and args[low] > args[high]):
            return Unlike.ORDER
    traits = text_traits([s for value in args for s in _strings(value)]) - {"letters"}
    if "spacing" in traits - likeness.text:
        return Unlike.SPACING
    if traits - likeness.text:
        return Unlike.CASE
    texts = [(p, v) for p, v in enumerate(args[:len(likeness.shapes)]) if isinstance(v, str)]
    for position, text in texts:
        letters = likeness.alphabets[position]
        if letters is not None and alphabet(text) - letters - {"space"}:
            return Unlike.ALPHABET
    for position, text in texts:
        wanted = likeness.shapes[position]
        if wanted is not None and not {shape(text), shape(text, lengths=True)} & wanted:
            return Unlike.SHAPE
    return None
