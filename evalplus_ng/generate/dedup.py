"""Cheap deduplication keys for values already known to match a spec.

``freezer(spec)`` returns a function ``key`` such that, for any two values ``a``
and ``b`` that both match ``spec`` (``typespec.matches``), ``key(a) == key(b)``
exactly when ``canonical(a) == canonical(b)``. Because the spec fixes every
exact type, an int, a str, a bool or None is its own key (``1`` and ``True``
cannot meet at one place of a spec), and lists and tuples of such values are
keyed by a tuple built in C code, with no text written. A list of floats with
no NaN is keyed by its doubles' bytes (``repr``, and so ``canonical``, tells two
doubles apart exactly when their bits differ: ``0.0`` and ``-0.0`` are equal but
distinct inputs). Single floats, lists with a NaN, unions, ``Any``, sets and
dicts are keyed by their ``canonical`` text.

Keys are only compared, never ordered or iterated, so hash seeds do not matter.
"""

from __future__ import annotations

import functools
import math
from array import array
from collections.abc import Callable, Hashable
from typing import Any

from evalplus_ng import typespec as ts
from evalplus_ng.serialize import canonical
from evalplus_ng.typespec import Spec

Freeze = Callable[[Any], Hashable]

#: Kinds whose values, of one exact type, are equal exactly when their canonical texts are.
_SELF_KEYED = frozenset({ts.INT, ts.STR, ts.BOOL, ts.NONE})


def _self(value: Any) -> Hashable:
    return value  # type: ignore[no-any-return]


def _floats(value: Any) -> Hashable:
    """The key of a list (or tuple) of floats: its doubles' bytes when it holds no NaN."""
    if any(map(math.isnan, value)):
        return canonical(value)  # every NaN is one value to canonical, whatever its bits
    return array("d", value).tobytes()


@functools.cache
def freezer(spec: Spec) -> Freeze:
    """The key function of values matching ``spec`` (see the module's docstring)."""
    kind = spec.kind
    if kind in _SELF_KEYED:
        return _self
    sequence = kind == ts.LIST or (kind == ts.TUPLE and spec.variadic)
    if sequence and spec.args[0].kind in _SELF_KEYED:
        return tuple
    if sequence and spec.args[0].kind == ts.FLOAT:
        return _floats
    if sequence:
        item = freezer(spec.args[0])
        if item is not canonical:
            return lambda value: tuple(map(item, value))
    if kind == ts.TUPLE and not spec.variadic:
        members = tuple(freezer(member) for member in spec.args)
        if any(member is not canonical for member in members):
            return lambda value: tuple(f(v) for f, v in zip(members, value, strict=True))
    return canonical
