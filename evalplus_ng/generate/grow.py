"""Scaled-up inputs: a few large variants of valid inputs, for the bugs small inputs hide.

The mutation loop keeps collections short (:data:`evalplus_ng.generate.mutate.MAX_LENGTH`),
so it never meets the failures that only size or magnitude shows: quadratic or
exponential code that times out, recursion once per element that runs out of
stack, and arithmetic through floats that loses exactness past 2**53 or
overflows past 1e308. This module makes such inputs on purpose: one argument
of a valid input grown to thousands of elements (the same element repeated,
the collection tiled, or new elements from mutation), or a number replaced by
a large one (a big prime, a power of two and its neighbours, a float-range
breaker). A grown collection keeps the shape of the one it came from where
that is cheap to see (sorted stays sorted, distinct stays distinct), so that
contracts asking for that shape still accept it.

Pure: values in, values out; randomness only from the ``Context``'s generator.
Which grown inputs survive is the caller's business (the contract, then the
ground truth's line budget, which drops the ones too expensive to check).
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Callable, Sequence
from typing import Any

from evalplus_ng import typespec as ts
from evalplus_ng.generate.mutate import Context, _below, _choice, fresh, mutate, ordered
from evalplus_ng.serialize import canonical
from evalplus_ng.typespec import Spec

#: Lengths a grown collection or string gets.
SIZES = (1_000, 3_000, 10_000)
#: Large integers: primes that make trial division slow, the edges of exact float
#: arithmetic (2**53), of 64-bit machine integers, and numbers past the float range.
BIG_INTS = (
    999_999_937, 1_000_000_007, 2**31 - 1, 2**53 - 1, 2**53, 2**53 + 1, 10**16 + 1,
    2**63 - 1, 2**64 + 1, 10**18 + 9, 10**100 + 1, 2**1024 + 1,
)
BIG_FLOATS = (1e15 + 0.5, 2.0**53 + 2.0, 1e300, -1e300, 1e-300, 5e-324)
#: A grown collection gets at most this many new elements by mutation (the rest are
#: drawn from them), or this many distinct ones where its elements were distinct.
NEW_ITEMS, MAX_DISTINCT = 1_000, 10_000
#: A grown collection holds at most about this much (:func:`weight`): a list of numbers
#: grows to any of :data:`SIZES`, a list of 20-character strings to at most 1,500 of them.
MAX_WEIGHT = 30_000


def grow_value(value: Any, spec: Spec, ctx: Context, size: int | None = None) -> Any:
    """A large variant of ``value`` (of ``spec``), or ``value`` itself when there is none;
    a grown collection or string gets ``size`` elements (default: one of :data:`SIZES`)."""
    size = size or _choice(ctx.rng, SIZES)  # drawn even for a value that is not grown
    grow = _GROWERS.get(spec.kind)
    return grow(value, spec, ctx, size) if grow is not None else value


def _grow_int(value: Any, spec: Spec, ctx: Context, size: int) -> Any:
    if type(value) is not int:
        return value
    rng = ctx.rng
    if rng.random() < 0.5:
        return _choice(rng, BIG_INTS) * (-1 if value < 0 else 1)
    return value * 10 ** _choice(rng, (6, 9, 12)) + _below(rng, 10)


def _grow_float(value: Any, spec: Spec, ctx: Context, size: int) -> Any:
    return _choice(ctx.rng, BIG_FLOATS) if type(value) is float else value


def _grow_text(value: Any, spec: Spec, ctx: Context, size: int) -> Any:
    return _grow_str(value, size, ctx) if type(value) is str and value else value


def _grow_collection(value: Any, spec: Spec, ctx: Context, size: int) -> Any:
    """A list or a set (either value) with its items grown, a list or a set as the spec
    says."""
    if type(value) not in (list, set) or not value:
        return value
    items = value if type(value) is list else ordered(value)
    grown = _grow_items(items, spec.args[0], size, ctx)
    return grown if spec.kind == ts.LIST else set(grown)


def _grow_tuple(value: Any, spec: Spec, ctx: Context, size: int) -> Any:
    """A variadic tuple grown as a list; a fixed one with one member grown."""
    if type(value) is not tuple or not value:
        return value
    if spec.variadic:
        return tuple(_grow_items(list(value), spec.args[0], size, ctx))
    index = _below(ctx.rng, len(value))
    items = list(value)
    items[index] = grow_value(items[index], spec.args[index], ctx, size)
    return tuple(items)


def _grow_union(value: Any, spec: Spec, ctx: Context, size: int) -> Any:
    """As the first member the value matches."""
    members = [m for m in spec.args if ts.predicate(m)(value)]
    return grow_value(value, members[0], ctx, size) if members else value


Grower = Callable[[Any, Spec, Context, int], Any]
#: How :func:`grow_value` grows a value of each kind that grows (the others stay as they
#: are): ``(value, spec, ctx, size)`` to a large variant, or ``value`` when not of the spec.
_GROWERS: dict[ts.Kind, Grower] = {
    ts.INT: _grow_int, ts.FLOAT: _grow_float, ts.STR: _grow_text, ts.LIST: _grow_collection,
    ts.SET: _grow_collection, ts.TUPLE: _grow_tuple, ts.UNION: _grow_union,
}


def weight(value: Any, limit: int = MAX_WEIGHT) -> int:
    """About how large ``value`` is: 1 per scalar and per element, a string's length;
    stops counting past ``limit``."""
    kind = type(value)
    if kind is str:
        return len(value)
    if kind in (list, tuple) and value and type(value[0]) in (int, float, bool):
        return 2 * len(value)  # numbers (a number's weight is 1, so is each element's)
    if kind in (list, tuple, set, frozenset, dict):
        total = len(value)
        for item in (value.items() if kind is dict else value):
            total += weight(item, limit - total)
            if total > limit:
                break
        return total
    return 1


def _grow_str(text: str, size: int, ctx: Context) -> str:
    rng = ctx.rng
    choice = _below(rng, 3)
    if choice == 0:  # the string tiled
        return (text * (size // len(text) + 1))[:size]
    if choice == 1:  # one of its characters, repeated
        return _choice(rng, text) * size
    alphabet = "".join(sorted(set(text)))  # random characters of its alphabet
    return "".join(alphabet[_below(rng, len(alphabet))] for _ in range(size))


def _sorted_ascending(items: Sequence[Any]) -> bool:
    try:
        return all(a <= b for a, b in itertools.pairwise(items))
    except TypeError:
        return False


def _distinct(items: Sequence[Any]) -> bool:
    return len(_keys(items)) == len(items)


def _largest(items: Sequence[Any]) -> Any:
    try:
        return max(items)
    except TypeError:
        return items[0]


def _keys(items: Sequence[Any]) -> set[str]:
    return {canonical(item) for item in items}


def _admits_int(element: Spec) -> bool:
    """Does ``element`` admit ints (itself, or a member of its union: a prompt that admits
    lists among the elements widens ``int`` to ``int | list[int]``)?"""
    return element.kind == ts.INT or (element.kind == ts.UNION
                                      and any(m.kind == ts.INT for m in element.args))


def _grow_items(items: list[Any], element: Spec, size: int, ctx: Context) -> list[Any]:
    """``items`` grown to about ``size`` elements, keeping sortedness and distinctness."""
    rng = ctx.rng
    each = max(1, sum(weight(item) for item in items) // len(items))
    size = max(len(items), min(size, MAX_WEIGHT // each))
    was_sorted = len(items) > 1 and _sorted_ascending(items)
    was_distinct = len(items) > 1 and _distinct(items)
    choice = _below(rng, 3)
    if choice == 0 and not was_distinct:  # one element (perhaps grown itself), repeated:
        # often the largest, the one that costs most where cost grows with the value
        item = _largest(items) if rng.random() < 0.5 else _choice(rng, items)
        if element.kind in (ts.INT, ts.FLOAT) and rng.random() < 0.5:
            item = grow_value(item, element, ctx, size)
        grown = [item] * size
    elif choice == 1 and not was_distinct:  # the collection tiled
        grown = (items * (size // len(items) + 1))[:size]
    elif was_distinct and _admits_int(element) and all(type(x) is int for x in items):
        # distinct ints: drawn at once from a range around the collection's own
        low, high = min(items), max(items)
        spread = max(high - low, 10 * size)
        grown = list(dict.fromkeys([*items, *(rng.randrange(low - spread, high + spread + 1)
                                               for _ in range(size - len(items)))]))
    else:  # new elements: mutants of elements so far (a random walk), or fresh ones
        grown = list(items)
        seen = _keys(grown) if was_distinct else None
        # Distinct elements are made one by one; others, NEW_ITEMS at most, then drawn.
        # Where lists may be among the elements (a union with a list: a prompt admitting
        # any elements), each distinct one costs a union mutation and a key: NEW_ITEMS.
        mixed = element.kind == ts.UNION and any(m.kind == ts.LIST for m in element.args)
        made = min(size, NEW_ITEMS if mixed else MAX_DISTINCT) if was_distinct \
            else min(size, NEW_ITEMS)
        for _ in range(3 * made):
            if len(grown) >= made:
                break
            item = mutate(_choice(rng, grown), element, ctx) if rng.random() < 0.9 \
                else fresh(element, ctx)
            if seen is not None:
                key = canonical(item)
                if key in seen:
                    continue
                seen.add(key)
            grown.append(item)
        if was_distinct:
            rng.shuffle(grown)  # the walk's order, undone
        else:  # random draws from the elements made
            grown.extend(_choice(rng, grown) for _ in range(size - len(grown)))
    if was_sorted:
        with contextlib.suppress(TypeError):
            grown.sort()
    return grown


def grow_args(args: Sequence[Any], specs: Sequence[Spec], ctx: Context) -> list[Any]:
    """``args`` with one argument grown (sometimes every one), arity unchanged."""
    result = list(args)
    if not result:
        return result
    rng = ctx.rng
    positions = range(len(result)) if rng.random() < 0.25 else [_below(rng, len(result))]
    size = _choice(rng, SIZES)  # one size for all, so equal lengths stay equal
    for position in positions:
        result[position] = grow_value(result[position], specs[position], ctx, size)
    return result if weight(result, 2 * MAX_WEIGHT) <= 2 * MAX_WEIGHT else list(args)
