"""Type-preserving serialization of plain Python values to JSON-compatible trees.

Invariants: ``decode(encode(v)) == v`` with the same types all the way down
(1, 1.0 and True stay distinct; tuples, sets and dict keys survive), and
``canonical(v)`` is a string that is equal for equal values and stable across
processes, so it can key deduplication. Only exact builtin types are accepted:
an object whose class merely *claims* to be an int or a list is refused, which
is what makes the trusted comparison in :mod:`evalplus_ng.judge` tamper-proof.
"""

from __future__ import annotations

import json
import math
import sys
from collections import Counter, OrderedDict, defaultdict
from collections.abc import Iterator
from typing import Any

from evalplus_ng.types import Wire

# Tags for the non-JSON kinds. A JSON object on the wire is always a tag.
_TUPLE, _SET, _FROZENSET, _DICT, _BYTES, _COMPLEX, _BIGINT = "t", "s", "f", "d", "b", "c", "i"

#: Above this many digits ``int -> str`` is refused by CPython; such ints travel in hex.
_INT_DIGITS = 4000
_BIG = 10**_INT_DIGITS


class Unserializable(TypeError):
    """The value holds an object that is not plain data."""


class Unjudgeable(ValueError):
    """A wire value whose hashed members collide too much to build (or compare) cheaply."""


#: At most this many distinct members of one set, frozenset or dict (keys) may share a hash
#: value. Building a hashed container costs about n x (distinct members sharing a hash)
#: comparisons: members that all hash alike and differ (ints that differ by multiples of
#: 2**61 - 1, tuples made to match) would make it quadratic; equal ones cost one
#: comparison each. Distinct builtin values rarely share a hash at all; strings hash with
#: SipHash under the parent's own seed.
MAX_SHARED_HASH = 16


def spread(items: list[Any]) -> list[Any]:
    """``items`` when no hash value is shared by more than :data:`MAX_SHARED_HASH`
    distinct ones (a set or dict of them is then built in linear time), else
    :class:`Unjudgeable`; ``TypeError`` for an unhashable one. Linear: each member is
    compared with at most :data:`MAX_SHARED_HASH` earlier ones of its hash (distinct hash
    values are distinct ints, which their own hashes spread); repeats of one value (a
    list of 250 zeros) are one member."""
    if len(items) > MAX_SHARED_HASH:
        distinct: dict[int, list[Any]] = {}
        for item in items:
            seen = distinct.setdefault(hash(item), [])
            if any(item is other or item == other for other in seen):
                continue
            if len(seen) == MAX_SHARED_HASH:
                raise Unjudgeable(f"more than {MAX_SHARED_HASH} distinct members of "
                                  f"{len(items)} share one hash value")
            seen.append(item)
    return items


# Stdlib dict subclasses whose equality is the dict's: accepted as dicts.
_DICT_LIKE = (OrderedDict, defaultdict, Counter)


def _numpy_scalar(value: object) -> Any:
    """Return a numpy scalar as the matching Python scalar, else raise."""
    numpy = sys.modules.get("numpy")
    if numpy is None or type(value).__module__ != "numpy":
        raise Unserializable(type(value).__name__)
    # Exact numpy scalar types only: a subclass defined by the sample is refused.
    if type(value) not in numpy.sctypeDict.values():
        raise Unserializable(type(value).__name__)
    item = value.item()  # type: ignore[attr-defined]
    if type(item) not in (bool, int, float, complex, str, bytes):
        raise Unserializable(type(value).__name__)
    return item


def encode(value: object) -> Wire:
    """Encode a plain value; raise :class:`Unserializable` for anything else."""
    kind = type(value)
    if value is None or kind is bool or kind is str or kind is float:
        return value
    if kind is int:
        if -_BIG < value < _BIG:
            return value
        return {_BIGINT: hex(value)}  # type: ignore[arg-type]
    if kind is list:
        if _flat(value):  # type: ignore[arg-type]
            return list(value)  # type: ignore[call-overload]
        return [encode(v) for v in value]  # type: ignore[attr-defined]
    if kind is tuple:
        return {_TUPLE: [encode(v) for v in value]}  # type: ignore[attr-defined]
    if kind is dict or kind in _DICT_LIKE:
        pairs: list[tuple[object, object]] = list(dict.items(value))  # type: ignore[arg-type]
        return {_DICT: [[encode(k), encode(v)] for k, v in pairs]}
    if kind is set or kind is frozenset:
        items = sorted((encode(v) for v in value), key=_dump)  # type: ignore[attr-defined]
        return {_SET if kind is set else _FROZENSET: items}
    if kind is bytes:
        return {_BYTES: value.hex()}  # type: ignore[attr-defined]
    if kind is complex:
        return {_COMPLEX: [value.real, value.imag]}  # type: ignore[attr-defined]
    return encode(_numpy_scalar(value))


_SCALAR_TYPES = frozenset({type(None), bool, int, float, str})
_PLAIN_TYPES = frozenset({type(None), bool, float, str})


def _flat(items: list[Any]) -> bool:
    """Is this list its own wire form: scalars only, every int in range?"""
    kinds = set(map(type, items))
    if kinds <= _PLAIN_TYPES:
        return True
    if not kinds <= _SCALAR_TYPES:
        return False
    if len(kinds) == 1:  # all ints
        return bool(min(items) > -_BIG and max(items) < _BIG)
    return all(-_BIG < v < _BIG for v in items if type(v) is int)


def decode(wire: Wire) -> Any:
    """Inverse of :func:`encode`; raises ``ValueError`` on a malformed tree
    (:class:`Unjudgeable` on a set or dict whose members collide, see :func:`spread`)."""
    if wire is None or isinstance(wire, (bool, int, float, str)):
        return wire
    if isinstance(wire, list):
        if set(map(type, wire)) <= _SCALAR_TYPES:  # a flat list is its own value
            return list(wire)
        return [decode(v) for v in wire]
    if isinstance(wire, dict) and len(wire) == 1:
        ((tag, body),) = wire.items()
        if tag == _TUPLE:
            return tuple(decode(v) for v in body)
        # Members are decoded into a list first: a hashed container is built only when
        # their hashes are spread out (:func:`spread`).
        if tag == _SET:
            return set(spread([decode(v) for v in body]))
        if tag == _FROZENSET:
            return frozenset(spread([decode(v) for v in body]))
        if tag == _DICT:
            pairs = [(decode(k), decode(v)) for k, v in body]
            spread([k for k, _ in pairs])
            return dict(pairs)
        if tag == _BYTES:
            return bytes.fromhex(body)
        if tag == _COMPLEX:
            return complex(body[0], body[1])
        if tag == _BIGINT:
            return int(body, 16)
    raise ValueError(f"malformed wire value: {str(wire)[:80]}")


#: JSON string literal of a str, as ``_dump`` writes it (``ensure_ascii=False``).
_quote = json.encoder.encode_basestring


def _dump(wire: Wire) -> str:
    return json.dumps(wire, separators=(",", ":"), ensure_ascii=False)


def _canonical_wire(wire: Wire) -> Wire:
    """Sort dict entries so that equal dicts give equal text (sets are sorted on encode)."""
    if isinstance(wire, list):
        return [_canonical_wire(v) for v in wire]
    if isinstance(wire, dict):
        ((tag, body),) = wire.items()
        if tag == _DICT:
            pairs = [[_canonical_wire(k), _canonical_wire(v)] for k, v in body]
            return {tag: sorted(pairs, key=lambda p: _dump(p[0]))}
        if tag in (_TUPLE, _SET, _FROZENSET):
            return {tag: [_canonical_wire(v) for v in body]}
    if isinstance(wire, float) and math.isnan(wire):
        return {"nan": 1}  # every NaN is the same value for deduplication
    return wire


def canonical(value: object) -> str:
    """A stable text key: equal values (same types) give equal keys.

    The text is ``dumps`` of the value's wire tree with dict entries sorted and
    every NaN alike; lists, tuples and scalars (what most inputs are made of) are
    written directly, the rest through the wire tree (:func:`_canonical_slow`).
    """
    if type(value) is str:
        return _quote(value)
    if type(value) is int:
        return int.__repr__(value) if -_BIG < value < _BIG else _canonical_slow(value)
    if type(value) is list:
        return "[" + _items(value) + "]"
    if type(value) is tuple:
        return '{"t":[' + _items(value) + "]}"
    if type(value) is float:
        if value != value:
            return '{"nan":1}'
        return float.__repr__(value) if math.isfinite(value) else _dump(value)
    if type(value) is bool:
        return "true" if value else "false"
    if value is None:
        return "null"
    return _canonical_slow(value)


def _items(items: list[Any] | tuple[Any, ...]) -> str:
    """The comma-separated canonical texts of a sequence's items (all-int, all-str
    and all-float sequences in one pass of C code)."""
    kinds = set(map(type, items))
    if len(kinds) == 1:
        (kind,) = kinds
        if kind is int and min(items) > -_BIG and max(items) < _BIG:
            return ",".join(map(int.__repr__, items))
        if kind is str:
            return ",".join(map(_quote, items))
        if kind is float and all(map(math.isfinite, items)):
            return ",".join(map(float.__repr__, items))
    return ",".join([canonical(v) for v in items])


def _canonical_slow(value: object) -> str:
    """:func:`canonical` by way of the wire tree (its definition)."""
    return _dump(_canonical_wire(encode(value)))


def dumps(wire: Wire) -> str:
    """Compact JSON text of a wire tree (NaN and infinities allowed)."""
    return _dump(wire)


def loads(text: str | bytes) -> Wire:
    """Parse JSON text produced by :func:`dumps`."""
    return json.loads(text)


def nested(value: Any) -> Iterator[Any]:
    """``value`` and every value inside it, at any depth, depth first: the items of lists,
    tuples and sets, the keys and values of dicts."""
    yield value
    if isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            yield from nested(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from nested(key)
            yield from nested(item)


def plain_json(value: Any) -> Any:
    """``value`` as plain JSON, the way EvalPlus's files hold inputs: tuples and sets become
    lists, dict keys strings (JSON text for non-strings), complex numbers and other
    non-JSON scalars their ``str``; ints past the JSON range stay ints."""
    return _untag(encode(value))


def _untag(wire: Any) -> Any:
    if isinstance(wire, list):
        return [_untag(v) for v in wire]
    if isinstance(wire, dict):
        ((tag, body),) = wire.items()
        if tag == _DICT:
            return {_plain_key(decode(k)): _untag(v) for k, v in body}
        if tag in (_TUPLE, _SET, _FROZENSET):
            return [_untag(v) for v in body]
        return decode(wire) if tag == _BIGINT else str(decode(wire))
    return wire


def _plain_key(key: Any) -> str:
    return key if isinstance(key, str) else json.dumps(_untag(encode(key)))
