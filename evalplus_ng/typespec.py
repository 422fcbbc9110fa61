"""Type specs read from annotations: what a valid argument looks like, structurally.

A :class:`Spec` is a small tree built from an annotation's source (never by
evaluating it). :func:`matches` is strict in the way the benchmark needs:
``bool`` is not an ``int``, an ``int`` is not a ``float`` unless the annotation
says ``float | int``, and a ``list`` annotation does not accept a tuple.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

# Spec kinds.
ANY, NONE, BOOL, INT, FLOAT, COMPLEX, STR = (
    "any", "none", "bool", "int", "float", "complex", "str")
LIST, TUPLE, SET, DICT, UNION = "list", "tuple", "set", "dict", "union"

_SCALARS = {"Any": ANY, "None": NONE, "bool": BOOL, "int": INT, "float": FLOAT,
            "complex": COMPLEX, "str": STR, "object": ANY}
_CONTAINERS = {"list": LIST, "List": LIST, "Sequence": LIST, "tuple": TUPLE, "Tuple": TUPLE,
               "set": SET, "Set": SET, "dict": DICT, "Dict": DICT}
_EXACT = {BOOL: bool, INT: int, FLOAT: float, COMPLEX: complex, STR: str}


@dataclass(frozen=True)
class Spec:
    """One node: ``kind`` plus ``args`` (element specs); ``variadic`` for ``Tuple[X, ...]``."""

    kind: str
    args: tuple[Spec, ...] = ()
    variadic: bool = False

    def __str__(self) -> str:
        if not self.args:
            return self.kind
        inner = ", ".join(str(a) for a in self.args) + (", ..." if self.variadic else "")
        return f"{self.kind}[{inner}]"


ANY_SPEC = Spec(ANY)


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
        kind = _CONTAINERS[name]
        if kind == TUPLE:
            return Spec(TUPLE, (ANY_SPEC,), variadic=True)
        return Spec(kind, (ANY_SPEC,) * (2 if kind == DICT else 1))
    raise SpecError(f"unsupported annotation {name!r}")


def parse(text: str) -> Spec:
    """The spec of an annotation written as source text, e.g. ``"List[int]"``."""
    return from_annotation(ast.parse(text, mode="eval").body)


def matches(value: Any, spec: Spec) -> bool:
    """Does ``value`` have the shape ``spec`` describes (exact builtin types)?"""
    kind = spec.kind
    if kind == ANY:
        return True
    if kind == NONE:
        return value is None
    if kind in _EXACT:
        return type(value) is _EXACT[kind]
    if kind == UNION:
        return any(matches(value, member) for member in spec.args)
    if kind == LIST:
        return type(value) is list and all(matches(v, spec.args[0]) for v in value)
    if kind == SET:
        return type(value) is set and all(matches(v, spec.args[0]) for v in value)
    if kind == DICT:
        return type(value) is dict and all(
            matches(k, spec.args[0]) and matches(v, spec.args[1]) for k, v in value.items()
        )
    if kind == TUPLE:
        if type(value) is not tuple:
            return False
        if spec.variadic:
            return all(matches(v, spec.args[0]) for v in value)
        return len(value) == len(spec.args) and all(
            matches(v, s) for v, s in zip(value, spec.args, strict=True)
        )
    raise SpecError(f"unknown spec kind {kind!r}")


Check = Callable[[Any], bool]


def _exact_types(spec: Spec) -> frozenset[type] | None:
    """The exact types a scalar spec (or a union of scalar specs) admits; None otherwise."""
    if spec.kind == NONE:
        return frozenset({type(None)})
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
    each = checker(spec)
    return lambda items: all(map(each, items))


@functools.cache
def checker(spec: Spec) -> Check:
    """``matches(value, spec)`` as a function of ``value`` alone, built once per spec: the
    type test of a scalar list is one ``set.issuperset(map(type, value))``."""
    kind = spec.kind
    if kind == ANY:
        return lambda value: True
    types = _exact_types(spec)
    if types is not None:
        if len(types) == 1:
            (exact,) = types
            return lambda value: type(value) is exact
        return lambda value: type(value) in types
    if kind == UNION:
        members = tuple(checker(member) for member in spec.args)
        return lambda value: any(check(value) for check in members)
    if kind in (LIST, SET) or (kind == TUPLE and spec.variadic):
        container = {LIST: list, SET: set, TUPLE: tuple}[kind]
        items = _all_of(spec.args[0])
        return lambda value: type(value) is container and items(value)
    if kind == DICT:
        keys, values = _all_of(spec.args[0]), _all_of(spec.args[1])
        return lambda value: type(value) is dict and keys(value) and values(value.values())
    if kind == TUPLE:
        parts = tuple(checker(member) for member in spec.args)
        size = len(parts)
        return lambda value: type(value) is tuple and len(value) == size and all(
            check(item) for check, item in zip(parts, value, strict=True))
    raise SpecError(f"unknown spec kind {kind!r}")


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
    if value is None:
        return Spec(NONE)
    for name, exact in _EXACT.items():
        if kind is exact:
            return Spec(name)
    if kind is list:
        return Spec(LIST, (infer(value),))
    if kind is set:
        return Spec(SET, (infer(list(value)),))
    if kind is tuple:
        members = tuple(_infer_one(v) for v in value)
        if len(members) >= SEQUENCE_TUPLE and len(set(members)) == 1:
            return Spec(TUPLE, members[:1], variadic=True)  # a sequence, not a record
        return Spec(TUPLE, members)
    if kind is dict:
        return Spec(DICT, (infer(list(value)), infer(list(value.values()))))
    return ANY_SPEC


def _merge(specs: Sequence[Spec]) -> Spec:
    """Join specs: same container kinds merge element-wise, different kinds form a union."""
    groups: dict[str, list[Spec]] = {}
    for spec in specs:
        for member in spec.args if spec.kind == UNION else (spec,):
            groups.setdefault(member.kind, []).append(member)
    merged: list[Spec] = []
    for kind, group in groups.items():
        if kind in (LIST, SET):
            elements = [s.args[0] for s in group if s.args and s.args[0].kind != ANY]
            merged.append(Spec(kind, (_merge(elements) if elements else ANY_SPEC,)))
        elif kind == DICT:
            keys = [s.args[0] for s in group if s.args[0].kind != ANY]
            vals = [s.args[1] for s in group if s.args[1].kind != ANY]
            merged.append(Spec(DICT, (_merge(keys) if keys else ANY_SPEC,
                                      _merge(vals) if vals else ANY_SPEC)))
        elif kind == TUPLE:
            lengths = {len(s.args) for s in group if not s.variadic}
            if len(lengths) == 1 and not any(s.variadic for s in group):
                (length,) = lengths
                merged.append(Spec(TUPLE, tuple(
                    _merge([s.args[i] for s in group]) for i in range(length))))
            else:
                members = [a for s in group for a in s.args]
                merged.append(Spec(TUPLE, (_merge(members) if members else ANY_SPEC,),
                                   variadic=True))
        else:
            merged.append(group[0])
    if any(s.kind == ANY for s in merged):
        return ANY_SPEC
    return merged[0] if len(merged) == 1 else Spec(UNION, tuple(merged))


#: Larger ints do not convert to float exactly.
_EXACT_FLOAT_INT = 2**53


def conform(value: Any, spec: Spec) -> Any:
    """``value`` with ints written where ``spec`` wants floats made floats (``1`` -> ``1.0``).

    People and models write ``[1, 2]`` for a ``List[float]``; the conversion is
    exact or not made, and a value that already matches is returned unchanged.
    """
    if matches(value, spec):
        return value
    kind = spec.kind
    if kind == FLOAT and type(value) is int and abs(value) <= _EXACT_FLOAT_INT:
        return float(value)
    if kind == COMPLEX and type(value) in (int, float) and abs(value) <= _EXACT_FLOAT_INT:
        return complex(value)
    if kind == UNION:
        for member in spec.args:
            converted = conform(value, member)
            if matches(converted, member):
                return converted
        return value
    if kind == LIST and type(value) is list:
        return [conform(item, spec.args[0]) for item in value]
    if kind == SET and type(value) is set:
        return {conform(item, spec.args[0]) for item in value}
    if kind == DICT and type(value) is dict:
        return {conform(k, spec.args[0]): conform(v, spec.args[1]) for k, v in value.items()}
    if kind == TUPLE and type(value) is tuple:
        if spec.variadic:
            return tuple(conform(item, spec.args[0]) for item in value)
        if len(value) == len(spec.args):
            return tuple(conform(item, s) for item, s in zip(value, spec.args, strict=True))
    return value
