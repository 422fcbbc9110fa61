"""Input-class requirement: the boundary classes each test's input and output fall in.

A wrong sample that passes the base tests usually mishandles a class of inputs the
base tests never show: a value between 0 and 1, a two-character string, a letter
outside ASCII, an integer past 2**53, a list with a repeated element, an empty
result. Each class an input (per argument) or the ground truth's output falls in is
a goal; a MINI that meets them all shows every class the full suite shows.

Pure functions of plain values: the same classes on every machine.
"""

from __future__ import annotations

import itertools
import math
import re
import sys
from collections.abc import Mapping, Sequence
from typing import Any

#: Integers past this lose precision as floats (JSON numbers in many tools).
_BIG = 2**53
#: Collections and strings at least this long are "long".
_LONG = 20


def _length(prefix: str, size: int) -> set[str]:
    if size <= 2:
        return {f"{prefix}len{size}"}
    return {f"{prefix}long"} if size >= _LONG else {f"{prefix}short"}


def _number(prefix: str, value: float) -> set[str]:
    if isinstance(value, float) and not math.isfinite(value):
        return {f"{prefix}nonfinite"}
    found = {f"{prefix}{'neg' if value < 0 else 'zero' if value == 0 else 'pos'}"}
    if abs(value) > _BIG:
        found.add(f"{prefix}big")
    if isinstance(value, float):
        if value != int(value):
            found.add(f"{prefix}fraction")
        if 0 < abs(value) < 1:
            found.add(f"{prefix}unit")
    return found


def _text(prefix: str, value: str) -> set[str]:
    found = _length(prefix, len(value))
    if any(c.isspace() for c in value):
        found.add(f"{prefix}space")
    if any(c.isupper() for c in value) and any(c.islower() for c in value):
        found.add(f"{prefix}mixedcase")
    elif any(c.isupper() for c in value):
        found.add(f"{prefix}upper")
    if any(not c.isascii() for c in value):
        found.add(f"{prefix}nonascii")
    if any(c.isdigit() for c in value):
        found.add(f"{prefix}digit")
    if any(not (c.isalnum() or c.isspace()) for c in value):
        found.add(f"{prefix}symbol")
    if len(value) >= 2 and value == value[::-1]:
        found.add(f"{prefix}palindrome.{'even' if len(value) % 2 == 0 else 'odd'}")
    return found


def _sequence(prefix: str, items: Sequence[Any]) -> set[str]:
    found = _length(prefix, len(items))
    try:
        if len(set(items)) < len(items):
            found.add(f"{prefix}repeats")
    except TypeError:  # unhashable items
        pass
    if len(items) >= 2:
        try:
            pairs = list(itertools.pairwise(items))
            if all(a <= b for a, b in pairs):
                found.add(f"{prefix}ascending")
            elif all(a >= b for a, b in pairs):
                found.add(f"{prefix}descending")
            else:
                found.add(f"{prefix}unordered")
        except TypeError:  # items without an order
            pass
    for item in items:
        found |= value_classes(item, f"{prefix}item.", depth=1)
    return found


def value_classes(value: Any, prefix: str = "", depth: int = 0) -> set[str]:
    """The classes of one value (items of a collection one level down)."""
    if value is None:
        return {f"{prefix}none"}
    if isinstance(value, bool):
        return {f"{prefix}{str(value).lower()}"}
    if isinstance(value, (int, float)):
        return _number(prefix, value)
    if isinstance(value, str):
        return _text(prefix, value)
    if depth > 1:
        return {f"{prefix}{type(value).__name__}"}
    if isinstance(value, dict):
        found = _length(prefix, len(value))
        for key, item in value.items():
            found |= value_classes(key, f"{prefix}key.", depth + 1)
            found |= value_classes(item, f"{prefix}item.", depth + 1)
        return found
    if isinstance(value, (list, tuple)):
        return _sequence(prefix, value) if depth == 0 else _length(prefix, len(value))
    if isinstance(value, (set, frozenset)):
        return _length(prefix, len(value))
    return {f"{prefix}{type(value).__name__}"}


def classes_of_test(args: Sequence[Any], output: Any) -> set[str]:
    """Goals one test meets: each argument's classes (``a0:``, ``a1:``...) and the
    ground truth's output's (``out:``)."""
    found: set[str] = set()
    for index, argument in enumerate(args):
        found |= value_classes(argument, f"a{index}:")
    found |= value_classes(output, "out:")
    return found


#: The classes of a test input a kill may rest on (:func:`input_kinds`), in report order:
#: an argument (or an item of one) of length zero; an argument of length one (a
#: one-element collection, a one-character string); the number zero; a negative number;
#: an integer past 2**53 (floats lose it); an integer past the float range; an infinite
#: or NaN float; a character outside ASCII; a collection with a repeated element (ties);
#: None.
KINDS = ("empty", "single", "zero", "negative", "big", "huge", "nonfinite", "nonascii",
         "duplicates", "none")
#: Classes of :func:`value_classes` that name a kind at any depth (an item's too) ...
_ANY_DEPTH = {"len0": "empty", "zero": "zero", "neg": "negative", "big": "big",
              "nonfinite": "nonfinite", "nonascii": "nonascii", "none": "none"}
#: ... and those that name one only for a whole argument.
_TOP_LEVEL = {"len1": "single", "repeats": "duplicates"}


def _past_float(value: Any, depth: int = 0) -> bool:
    """An integer too large for a float, itself or (one level down) among its items."""
    if isinstance(value, int) and not isinstance(value, bool):
        return abs(value) > _FLOAT_MAX
    if depth == 0 and isinstance(value, (list, tuple, set, frozenset)):
        return any(_past_float(item, 1) for item in value)
    if depth == 0 and isinstance(value, dict):
        return any(_past_float(item, 1) for pair in value.items() for item in pair)
    return False


_FLOAT_MAX = int(sys.float_info.max)


def input_kinds(args: Sequence[Any]) -> tuple[str, ...]:
    """The kinds (:data:`KINDS`, in that order) of one test input's arguments: what of
    its classes (:func:`value_classes`) a kill may rest on. Arguments are pooled: a
    prompt speaks of "an empty list", rarely of which argument is empty."""
    found: set[str] = set()
    for argument in args:
        for name in value_classes(argument):
            if name in _TOP_LEVEL:
                found.add(_TOP_LEVEL[name])
            while name.startswith(("item.", "key.")):
                name = name.split(".", 1)[1]
            if name in _ANY_DEPTH:
                found.add(_ANY_DEPTH[name])
        if _past_float(argument):
            found.add("huge")
    return tuple(kind for kind in KINDS if kind in found)


def boundary_class(value: Any) -> str | None:
    """The boundary class of one argument, if it is at a boundary: a number that is zero,
    one or negative; a string or collection that is empty or holds one item."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        if isinstance(value, float) and not math.isfinite(value):
            return None
        return "zero" if value == 0 else "one" if value == 1 else "neg" if value < 0 else None
    if isinstance(value, (str, list, tuple, set, frozenset, dict)):
        return "empty" if not value else "one" if len(value) == 1 else None
    return None


#: Per class, what in a prompt mentions it (case-insensitive regular expressions): a
#: word for it, or an example showing it.
MENTIONS: Mapping[str, str] = {
    "empty": (r"\bempty\b|\[\]|\(\)|\{\}|(?<![\"'])(\"\"|'')(?![\"'])"  # not a docstring's quotes
              r"|\bno (elements|items|numbers|strings|words)\b"),
    "single": (r"\bsingleton|\bsingle (element|item|character|char|letter|digit|word|value)"
               r"|\bone (element|item|character|letter|digit|word)\b"
               r"|\blength (of )?(1|one)\b"),
    "zero": r"(?<!non-)(?<!non)\bzero\b|(?<![\w.])0(?!\w|\.\d)|non-?negative",
    "negative": (r"(?<!non-)(?<!non)negative|\bminus\b|below zero|less than (zero|0)\b"
                 r"|(?<![\w)\]])-\d"),
    "big": r"\b(large|big|huge|overflows?|arbitrar\w*)\b|\d{16,}|\*\*\s*\d{2,}",
    "huge": r"\b(large|big|huge|overflows?|arbitrar\w*)\b|\d{309,}|\*\*\s*\d{3,}",
    "nonfinite": r"\b(inf|infinity|infinite|nan)\b",
    "nonascii": r"unicode|non-?ascii|accent|diacritic|utf-?8|[^\x00-\x7f]",
    "duplicates": (r"duplicat|repeat|\bties?\b|\btied\b|\bunique\b|\bdistinct\b"
                   r"|more than once|multiple times|\boccur|\bfrequen"
                   r"|\bsame (value|element|number|item|character|letter|word)s?\b"),
    "none": r"\b(?-i:None)\b|\bnull\b",
}
_MENTIONS = {kind: re.compile(pattern, re.IGNORECASE) for kind, pattern in MENTIONS.items()}
#: A string literal without spaces in a prompt (``"{()}[{}]"``): its brackets are text,
#: not an empty collection.
_WORD_LITERAL = re.compile(r"([\"'])[^\"'\s]+\1")
#: The classes a string literal's text cannot mention.
_OUTSIDE_LITERALS = frozenset({"empty"})


def mentioned(prompt: str) -> frozenset[str]:
    """The classes ``prompt`` mentions (:data:`MENTIONS`); brackets inside a string
    literal do not mention an empty collection."""
    bare = _WORD_LITERAL.sub(r"\1x\1", prompt)
    return frozenset(kind for kind, pattern in _MENTIONS.items()
                     if pattern.search(bare if kind in _OUTSIDE_LITERALS else prompt))


def unshown_kinds(prompt: str, base_inputs: Sequence[Sequence[Any]]) -> frozenset[str]:
    """The classes no base input has and ``prompt`` does not mention."""
    shown = {kind for args in base_inputs for kind in input_kinds(args)}
    return frozenset(KINDS) - shown - mentioned(prompt)


def edges_of(args: Sequence[Any], edges: frozenset[str]) -> tuple[str, ...]:
    """The classes of ``args`` (:func:`input_kinds`) among ``edges``."""
    return tuple(kind for kind in input_kinds(args) if kind in edges)


assert set(MENTIONS) == set(KINDS)
