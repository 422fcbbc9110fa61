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
from collections.abc import Sequence
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
