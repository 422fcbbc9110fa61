"""Type specs read from annotations: what a valid argument looks like, structurally.

A :class:`Spec` is a small tree built from an annotation's source (never by
evaluating it). :func:`matches` is strict in the way the benchmark needs:
``bool`` is not an ``int``, an ``int`` is not a ``float`` unless the annotation
says ``float | int``, and a ``list`` annotation does not accept a tuple.
"""

from __future__ import annotations

import ast
import enum
import functools
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any


class Kind(enum.StrEnum):
    """What a spec node is. Each value is the name a spec prints with (``list[int]``); a
    new kind needs an entry in every table keyed by kind (``tests/test_kinds.py``)."""

    ANY = "any"
    NONE = "none"
    BOOL = "bool"
    INT = "int"
    FLOAT = "float"
    COMPLEX = "complex"
    STR = "str"
    LIST = "list"
    TUPLE = "tuple"
    SET = "set"
    DICT = "dict"
    UNION = "union"


ANY, NONE, BOOL, INT, FLOAT, COMPLEX, STR = (
    Kind.ANY, Kind.NONE, Kind.BOOL, Kind.INT, Kind.FLOAT, Kind.COMPLEX, Kind.STR)
LIST, TUPLE, SET, DICT, UNION = Kind.LIST, Kind.TUPLE, Kind.SET, Kind.DICT, Kind.UNION

_SCALARS = {"Any": ANY, "None": NONE, "bool": BOOL, "int": INT, "float": FLOAT,
            "complex": COMPLEX, "str": STR, "object": ANY}
_CONTAINERS = {"list": LIST, "List": LIST, "Sequence": LIST, "tuple": TUPLE, "Tuple": TUPLE,
               "set": SET, "Set": SET, "dict": DICT, "Dict": DICT}
#: The one builtin type a value of each scalar kind has.
_EXACT: dict[Kind, type] = {NONE: type(None), BOOL: bool, INT: int, FLOAT: float,
                            COMPLEX: complex, STR: str}
#: The builtin type of each kind whose values hold items of one spec (a tuple's: when
#: variadic).
_COLLECTION_TYPES: dict[Kind, type[Collection[Any]]] = {LIST: list, TUPLE: tuple, SET: set}


@dataclass(frozen=True)
class Spec:
    """One node: ``kind`` plus ``args`` (element specs); ``variadic`` for ``Tuple[X, ...]``."""

    kind: Kind
    args: tuple[Spec, ...] = ()
    variadic: bool = False

    def __str__(self) -> str:
        if not self.args:
            return str(self.kind)
        inner = ", ".join(str(a) for a in self.args) + (", ..." if self.variadic else "")
        return f"{self.kind}[{inner}]"


ANY_SPEC = Spec(ANY)
#: What a bare container name means: any elements (a bare ``tuple``, a sequence of them).
_BARE = {LIST: Spec(LIST, (ANY_SPEC,)), TUPLE: Spec(TUPLE, (ANY_SPEC,), variadic=True),
         SET: Spec(SET, (ANY_SPEC,)), DICT: Spec(DICT, (ANY_SPEC, ANY_SPEC))}


class SpecError(ValueError):
    """An annotation this module cannot read."""


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):  # typing.List
        return node.attr
    if isinstance(node, ast.Constant) and node.value is None:
        return "None"
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    raise SpecError(f"unsupported annotation {ast.unparse(node)!r}")


def _union(specs: Sequence[Spec]) -> Spec:
    flat: list[Spec] = []
    for spec in specs:
        for member in spec.args if spec.kind == UNION else (spec,):
            if member not in flat:
                flat.append(member)
    return flat[0] if len(flat) == 1 else Spec(UNION, tuple(flat))


def union(specs: Sequence[Spec]) -> Spec:
    """The union of ``specs`` (nested unions flattened, duplicates dropped; one spec: itself)."""
    return _union(specs)


def from_annotation(node: ast.expr | None) -> Spec:
    """The spec of an annotation's AST (``None``: no annotation, anything goes)."""
    if node is None:
        return ANY_SPEC
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return from_annotation(ast.parse(node.value, mode="eval").body)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _union([from_annotation(node.left), from_annotation(node.right)])
    if isinstance(node, ast.Subscript):
        outer = _name(node.value)
        items = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
        if outer in ("Optional",):
            return _union([from_annotation(items[0]), Spec(NONE)])
        if outer == "Union":
            return _union([from_annotation(item) for item in items])
        kind = _CONTAINERS.get(outer)
        if kind is None:
            raise SpecError(f"unsupported annotation {ast.unparse(node)!r}")
        if kind == TUPLE and len(items) == 2 and isinstance(items[1], ast.Constant) \
                and items[1].value is Ellipsis:
            return Spec(TUPLE, (from_annotation(items[0]),), variadic=True)
        args = tuple(from_annotation(item) for item in items)
        if kind in (LIST, SET) and len(args) != 1:
            raise SpecError(f"{outer} takes one type: {ast.unparse(node)!r}")
        if kind == DICT and len(args) != 2:
            raise SpecError(f"{outer} takes two types: {ast.unparse(node)!r}")
        return Spec(kind, args)
    name = _name(node)
    if name in _SCALARS:
        return Spec(_SCALARS[name])
    if name in _CONTAINERS:
        return _BARE[_CONTAINERS[name]]
    raise SpecError(f"unsupported annotation {name!r}")


def parse(text: str) -> Spec:
    """The spec of an annotation written as source text, e.g. ``"List[int]"``."""
    return from_annotation(ast.parse(text, mode="eval").body)


Match = Callable[[Any, Spec], bool]


def _match_exact(value: Any, spec: Spec) -> bool:
    return type(value) is _EXACT[spec.kind]


def _match_union(value: Any, spec: Spec) -> bool:
    return any(matches(value, member) for member in spec.args)


def _match_collection(value: Any, spec: Spec) -> bool:
    """A list, a set or a variadic tuple: the container's type, every item the element's."""
    return type(value) is _COLLECTION_TYPES[spec.kind] \
        and all(matches(v, spec.args[0]) for v in value)


def _match_dict(value: Any, spec: Spec) -> bool:
    return type(value) is dict and all(
        matches(k, spec.args[0]) and matches(v, spec.args[1]) for k, v in value.items()
    )


def _match_tuple(value: Any, spec: Spec) -> bool:
    if spec.variadic:
        return _match_collection(value, spec)
    return type(value) is tuple and len(value) == len(spec.args) and all(
        matches(v, s) for v, s in zip(value, spec.args, strict=True)
    )


#: :func:`matches` of each kind.
MATCHERS: dict[Kind, Match] = {
    ANY: lambda value, spec: True,
    **dict.fromkeys(_EXACT, _match_exact),
    UNION: _match_union,
    LIST: _match_collection,
    SET: _match_collection,
    DICT: _match_dict,
    TUPLE: _match_tuple,
}


def matches(value: Any, spec: Spec) -> bool:
    """Does ``value`` have the shape ``spec`` describes (exact builtin types)?"""
    match = MATCHERS.get(spec.kind)
    if match is None:
        raise SpecError(f"unknown spec kind {spec.kind!r}")
    return match(value, spec)


Check = Callable[[Any], bool]


def _exact_types(spec: Spec) -> frozenset[type] | None:
    """The exact types a scalar spec (or a union of scalar specs) admits; None otherwise."""
    if spec.kind in _EXACT:
        return frozenset({_EXACT[spec.kind]})
    if spec.kind == UNION:
        found: frozenset[type] = frozenset()
        for member in spec.args:
            types = _exact_types(member)
            if types is None:
                return None
            found |= types
        return found
    return None


def _all_of(spec: Spec) -> Callable[[Any], bool]:
    """A check that every item of an iterable matches ``spec`` (C code for scalar items)."""
    if spec.kind == ANY:
        return lambda items: True
    types = _exact_types(spec)
    if types is not None:
        return lambda items: types.issuperset(map(type, items))
    each = predicate(spec)
    return lambda items: all(map(each, items))


def _check_any(spec: Spec) -> Check:
    return lambda value: True


def _check_types(types: frozenset[type]) -> Check:
    if len(types) == 1:
        (exact,) = types
        return lambda value: type(value) is exact
    return lambda value: type(value) in types


def _check_exact(spec: Spec) -> Check:
    return _check_types(frozenset({_EXACT[spec.kind]}))


def _check_union(spec: Spec) -> Check:
    types = _exact_types(spec)
    if types is not None:  # scalar members: one test of the value's type
        return _check_types(types)
    members = tuple(predicate(member) for member in spec.args)
    return lambda value: any(check(value) for check in members)


def _check_collection(spec: Spec) -> Check:
    """A list, a set or a variadic tuple: the container's type, every item the element's."""
    container = _COLLECTION_TYPES[spec.kind]
    items = _all_of(spec.args[0])
    return lambda value: type(value) is container and items(value)


def _check_dict(spec: Spec) -> Check:
    keys, values = _all_of(spec.args[0]), _all_of(spec.args[1])
    return lambda value: type(value) is dict and keys(value) and values(value.values())


def _check_tuple(spec: Spec) -> Check:
    if spec.variadic:
        return _check_collection(spec)
    parts = tuple(predicate(member) for member in spec.args)
    size = len(parts)
    return lambda value: type(value) is tuple and len(value) == size and all(
        check(item) for check, item in zip(parts, value, strict=True))


#: What builds :func:`predicate`'s function for each kind.
PREDICATES: dict[Kind, Callable[[Spec], Check]] = {
    ANY: _check_any,
    **dict.fromkeys(_EXACT, _check_exact),
    UNION: _check_union,
    LIST: _check_collection,
    SET: _check_collection,
    DICT: _check_dict,
    TUPLE: _check_tuple,
}


@functools.cache
def predicate(spec: Spec) -> Check:
    """``matches(value, spec)`` as a function of ``value`` alone, built once per spec: the
    type test of a scalar list is one ``set.issuperset(map(type, value))``."""
    build = PREDICATES.get(spec.kind)
    if build is None:
        raise SpecError(f"unknown spec kind {spec.kind!r}")
    return build(spec)


#: A tuple of this many members or more, all of one spec, is inferred as a sequence
#: (``tuple[int, ...]``): MBPP passes lists as tuples (``(3, 4, 5, 6)``), and a fixed
#: length would keep every generated input at the example's length.
SEQUENCE_TUPLE = 3


def infer(values: Sequence[Any]) -> Spec:
    """The narrowest spec (of the kinds above) that every one of ``values`` matches;
    homogeneous tuples of :data:`SEQUENCE_TUPLE` members or more, or of several
    lengths, are sequences (``tuple[X, ...]``)."""
    if not values:
        return ANY_SPEC
    specs = [_infer_one(v) for v in values]
    return _merge(specs)


def _infer_one(value: Any) -> Spec:
    kind = type(value)
    for name, exact in _EXACT.items():
        if kind is exact:
            return Spec(name)
    if kind is list:
        return Spec(LIST, (infer(value),))
    if kind is set:
        # In a canonical order: a set's own order follows the string hash, which
        # PYTHONHASHSEED varies, and a union lists its kinds in the order first seen.
        return Spec(SET, (infer(sorted(value, key=_canonical)),))
    if kind is tuple:
        members = tuple(_infer_one(v) for v in value)
        if len(members) >= SEQUENCE_TUPLE and len(set(members)) == 1:
            return Spec(TUPLE, members[:1], variadic=True)  # a sequence, not a record
        return Spec(TUPLE, members)
    if kind is dict:
        return Spec(DICT, (infer(list(value)), infer(list(value.values()))))
    return ANY_SPEC


def _canonical(value: Any) -> tuple[str, str]:
    """A set member's place in a canonical order: its type's name, then its text."""
    return type(value).__name__, repr(value)


def _merge(specs: Sequence[Spec]) -> Spec:
    """Join specs: same container kinds merge element-wise, different kinds form a union."""
    groups: dict[Kind, list[Spec]] = {}
    for spec in specs:
        for member in spec.args if spec.kind == UNION else (spec,):
            groups.setdefault(member.kind, []).append(member)
    merged: list[Spec] = []
    for kind, group in groups.items():
        join = _JOINS.get(kind)
        merged.append(join(group) if join is not None else group[0])  # scalars: all equal
    if any(s.kind == ANY for s in merged):
        return ANY_SPEC
    return merged[0] if len(merged) == 1 else Spec(UNION, tuple(merged))


def _merge_any(specs: Sequence[Spec]) -> Spec:
    """:func:`_merge` of ``specs``, any when there are none."""
    return _merge(specs) if specs else ANY_SPEC


def _join_collections(group: Sequence[Spec]) -> Spec:
    """Lists (or sets) of their elements' join."""
    elements = [s.args[0] for s in group if s.args and s.args[0].kind != ANY]
    return Spec(group[0].kind, (_merge_any(elements),))


def _join_dicts(group: Sequence[Spec]) -> Spec:
    keys = [s.args[0] for s in group if s.args[0].kind != ANY]
    vals = [s.args[1] for s in group if s.args[1].kind != ANY]
    return Spec(DICT, (_merge_any(keys), _merge_any(vals)))


def _join_tuples(group: Sequence[Spec]) -> Spec:
    """Fixed tuples of one length merge member-wise; others are a sequence of all members."""
    lengths = {len(s.args) for s in group if not s.variadic}
    if len(lengths) == 1 and not any(s.variadic for s in group):
        (length,) = lengths
        return Spec(TUPLE, tuple(_merge([s.args[i] for s in group]) for i in range(length)))
    return Spec(TUPLE, (_merge_any([a for s in group for a in s.args]),), variadic=True)


#: How specs of one container kind join in :func:`_merge` (other kinds' specs are equal).
_JOINS: dict[Kind, Callable[[Sequence[Spec]], Spec]] = {
    LIST: _join_collections, SET: _join_collections, DICT: _join_dicts, TUPLE: _join_tuples}


#: Larger ints do not convert to float exactly.
_EXACT_FLOAT_INT = 2**53


def conform(value: Any, spec: Spec) -> Any:
    """``value`` with ints written where ``spec`` wants floats made floats (``1`` -> ``1.0``).

    People and models write ``[1, 2]`` for a ``List[float]``; the conversion is
    exact or not made, and a value that already matches is returned unchanged.
    """
    if matches(value, spec):
        return value
    convert = _CONVERSIONS.get(spec.kind)
    return convert(value, spec) if convert is not None else value


def _conform_float(value: Any, spec: Spec) -> Any:
    return float(value) if type(value) is int and abs(value) <= _EXACT_FLOAT_INT else value


def _conform_complex(value: Any, spec: Spec) -> Any:
    if type(value) in (int, float) and abs(value) <= _EXACT_FLOAT_INT:
        return complex(value)
    return value


def _conform_union(value: Any, spec: Spec) -> Any:
    """As the first member that ``value`` matches once conformed to it."""
    for member in spec.args:
        converted = conform(value, member)
        if matches(converted, member):
            return converted
    return value


def _conform_list(value: Any, spec: Spec) -> Any:
    return [conform(item, spec.args[0]) for item in value] if type(value) is list else value


def _conform_set(value: Any, spec: Spec) -> Any:
    return {conform(item, spec.args[0]) for item in value} if type(value) is set else value


def _conform_dict(value: Any, spec: Spec) -> Any:
    if type(value) is not dict:
        return value
    return {conform(k, spec.args[0]): conform(v, spec.args[1]) for k, v in value.items()}


def _conform_tuple(value: Any, spec: Spec) -> Any:
    if type(value) is not tuple:
        return value
    if spec.variadic:
        return tuple(conform(item, spec.args[0]) for item in value)
    if len(value) == len(spec.args):
        return tuple(conform(item, s) for item, s in zip(value, spec.args, strict=True))
    return value


#: How :func:`conform` converts a value of each kind that converts (the others stay as
#: they are).
_CONVERSIONS: dict[Kind, Callable[[Any, Spec], Any]] = {
    FLOAT: _conform_float, COMPLEX: _conform_complex, UNION: _conform_union,
    LIST: _conform_list, SET: _conform_set, DICT: _conform_dict, TUPLE: _conform_tuple,
}
