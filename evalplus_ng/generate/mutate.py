"""Type-aware mutation (EvalPlus's Table 1), one tiny mutator per type in a registry.

Every mutator takes ``(value, spec, ctx)`` and returns a new value that still
matches ``spec``; it never changes the number of arguments. Randomness comes only
from ``ctx.rng``. ``ctx.pool`` holds *ingredients*: fragments of valid inputs seen
so far (ints, floats, strings, elements), bounded in size, so that mutants reuse
pieces that are known to satisfy the task's hidden constraints. When
``ctx.made`` is a list, every scalar a mutation creates is appended to it, so that
a caller keeping the mutant can feed just those new pieces to the pool.

Random indices are ``int(rng.random() * n)`` (:func:`_below`): deterministic for a
seed like ``randrange``, at a fraction of its cost.
"""

from __future__ import annotations

import random
import string
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from evalplus_ng import typespec as ts
from evalplus_ng.serialize import canonical
from evalplus_ng.typespec import Spec

T = TypeVar("T")

#: Ingredients kept per kind; beyond this, a new one replaces a random old one.
POOL_SIZE = 200
#: At most this many items of one collection (or words of one string) are fed to the pool:
#: an evenly spaced sample of a longer one.
FEED_ITEMS = 64
#: Collections longer than this are only shrunk or kept, never grown.
MAX_LENGTH = 64
#: Boundaries include 2**53 + 1 (the first int a float cannot hold) and 2**1024 + 1 (too
#: large to convert to a float at all).
INT_BOUNDARIES = (0, 1, -1, 2, 10, 100, 2**31 - 1, -(2**31), 2**53 + 1, 2**63, -(2**63),
                  2**1024 + 1)
FLOAT_BOUNDARIES = (0.0, -0.0, 1.0, -1.0, 0.5, 1e-9, -1e-9, 1e9, 1e18, 3.14159)
#: Share of collection and string mutations that reshape the whole value (a corner case).
RESHAPE_RATE = 0.15
#: Characters for new text: printable ASCII, and a few non-ASCII ones with case (accented
#: letters, and circled letters and Roman numerals, which have case but are not letters).
_PRINTABLE = string.ascii_letters + string.digits + string.punctuation + " " + "éÉñÑⒶⓐⅠⅰ"


def _below(rng: random.Random, n: int) -> int:
    """A random index in ``range(n)`` (``n >= 1``); ``random() < 1`` keeps it below ``n``."""
    return int(rng.random() * n)


def _choice(rng: random.Random, items: Sequence[T]) -> T:
    return items[int(rng.random() * len(items))]


def _randint(rng: random.Random, low: int, high: int) -> int:
    return low + int(rng.random() * (high - low + 1))


def ordered(values: Iterable[Any]) -> list[Any]:
    """The items of a set (or a dict's keys) in an order that does not depend on hashing:
    natural order when all are ints or all are strings, else by canonical text."""
    items = list(values)
    kinds = set(map(type, items))
    if len(kinds) == 1 and (int in kinds or str in kinds):
        return sorted(items)
    return sorted(items, key=canonical)


def _pool_key(value: Any) -> Any:
    """What makes two ingredients of one kind the same: the value itself, except that a
    float's text tells 0.0 from -0.0 and makes every NaN one ingredient (as ``canonical``
    does, at a fraction of its cost; a kind only ever holds one exact type)."""
    return repr(value) if type(value) is float else value


@dataclass
class Pool:
    """Bounded, deterministic pools of fragments from valid inputs, keyed by kind."""

    rng: random.Random
    items: dict[str, list[Any]] = field(default_factory=dict)
    keys: dict[str, set[Any]] = field(default_factory=dict)

    def add(self, kind: str, value: Any) -> None:
        key = repr(value) if type(value) is float else value  # _pool_key, inlined
        seen = self.keys.get(kind)
        if seen is None:
            seen = self.keys[kind] = set()
            self.items[kind] = []
        elif key in seen:
            return
        bucket = self.items[kind]
        if len(bucket) < POOL_SIZE:
            bucket.append(value)
        else:
            victim = _below(self.rng, POOL_SIZE)
            seen.discard(_pool_key(bucket[victim]))
            bucket[victim] = value
        seen.add(key)

    def pick(self, kind: str) -> Any | None:
        bucket = self.items.get(kind)
        return _choice(self.rng, bucket) if bucket else None

    def feed(self, value: Any) -> None:
        """Add a valid value and what is inside it (of a long collection, a sample)."""
        kind = type(value)
        if kind is int:
            self.add("int", value)
        elif kind is float:
            self.add("float", value)
        elif kind is str:
            self.add("str", value)
            for piece in _sample(value.split()):
                self.add("word", piece)
            self.add("chars", "".join(sorted(set(value))))
        elif kind in (list, tuple):
            for item in _sample(value):
                self.feed(item)
        elif kind in (set, frozenset):
            for item in _sample(ordered(value)):  # string hashing is salted per process
                self.feed(item)
        elif kind is dict:
            for k, v in _sample(list(value.items())):
                self.feed(k)
                self.feed(v)


def _sample(items: Sequence[T]) -> Sequence[T]:
    """At most :data:`FEED_ITEMS` of ``items``, evenly spaced."""
    if len(items) <= FEED_ITEMS:
        return items
    return items[:: -(-len(items) // FEED_ITEMS)]


@dataclass
class Context:
    """What a mutator may use: the generator and the ingredient pool (and where to note
    the scalars it makes, when ``made`` is a list)."""

    rng: random.Random
    pool: Pool
    made: list[Any] | None = None

    def note(self, value: T) -> T:
        """``value``, noted in ``made`` when that is a list."""
        if self.made is not None:
            self.made.append(value)
        return value


Mutator = Callable[[Any, Spec, Context], Any]
MUTATORS: dict[ts.Kind, Mutator] = {}


def mutator(kind: ts.Kind) -> Callable[[Mutator], Mutator]:
    """Register ``function`` as the mutator for spec kind ``kind``."""

    def register(function: Mutator) -> Mutator:
        MUTATORS[kind] = function
        return function

    return register


# --------------------------------------------------------------------------- fresh values


def fresh(spec: Spec, ctx: Context, depth: int = 0) -> Any:
    """A new small value of ``spec``, preferring ingredients."""
    make = MAKERS.get(spec.kind)
    if make is None:
        raise ts.SpecError(f"cannot make a value of {spec}")
    return make(spec, ctx, depth)


def _fresh_none(spec: Spec, ctx: Context, depth: int) -> None:
    return None


def _fresh_bool(spec: Spec, ctx: Context, depth: int) -> bool:
    return ctx.rng.random() < 0.5


def _fresh_int(spec: Spec, ctx: Context, depth: int) -> int:
    rng = ctx.rng
    seen = ctx.pool.pick("int")
    return seen if seen is not None and rng.random() < 0.7 \
        else ctx.note(_randint(rng, -10, 100))


def _fresh_float(spec: Spec, ctx: Context, depth: int) -> float:
    rng = ctx.rng
    seen = ctx.pool.pick("float")
    return seen if seen is not None and rng.random() < 0.7 \
        else ctx.note(round(rng.uniform(-10, 100), 2))


def _fresh_complex(spec: Spec, ctx: Context, depth: int) -> complex:
    return complex(_fresh_float(spec, ctx, depth), _fresh_float(spec, ctx, depth))


def _fresh_str(spec: Spec, ctx: Context, depth: int) -> Any:
    rng = ctx.rng
    seen = ctx.pool.pick("word") if rng.random() < 0.5 else ctx.pool.pick("str")
    if seen is not None and rng.random() < 0.8:
        return seen
    return ctx.note(_text(ctx, _randint(rng, 0, 6)))


def _fresh_any(spec: Spec, ctx: Context, depth: int) -> Any:
    return fresh(_ANY_SPECS[_below(ctx.rng, 3)], ctx, depth)


def _fresh_union(spec: Spec, ctx: Context, depth: int) -> Any:
    return fresh(_choice(ctx.rng, spec.args), ctx, depth)


def _size(ctx: Context, depth: int) -> int:
    """The length of a new collection: none when nested deeper than two."""
    return 0 if depth > 2 else _randint(ctx.rng, 0, 3)


def _fresh_list(spec: Spec, ctx: Context, depth: int) -> list[Any]:
    return [fresh(spec.args[0], ctx, depth + 1) for _ in range(_size(ctx, depth))]


def _fresh_set(spec: Spec, ctx: Context, depth: int) -> set[Any]:
    return _as_set(_fresh_list(spec, ctx, depth))


def _fresh_tuple(spec: Spec, ctx: Context, depth: int) -> tuple[Any, ...]:
    size = _size(ctx, depth)  # drawn for a fixed tuple too, to keep every seed's values
    if spec.variadic:
        return tuple(fresh(spec.args[0], ctx, depth + 1) for _ in range(size))
    return tuple(fresh(member, ctx, depth + 1) for member in spec.args)


def _fresh_dict(spec: Spec, ctx: Context, depth: int) -> dict[Any, Any]:
    return {_hashable(fresh(spec.args[0], ctx, depth + 1)): fresh(spec.args[1], ctx, depth + 1)
            for _ in range(_size(ctx, depth))}


Maker = Callable[[Spec, Context, int], Any]
#: :func:`fresh` of each kind: ``(spec, ctx, depth)`` to a new value.
MAKERS: dict[ts.Kind, Maker] = {
    ts.ANY: _fresh_any, ts.NONE: _fresh_none, ts.BOOL: _fresh_bool, ts.INT: _fresh_int,
    ts.FLOAT: _fresh_float, ts.COMPLEX: _fresh_complex, ts.STR: _fresh_str,
    ts.UNION: _fresh_union, ts.LIST: _fresh_list, ts.SET: _fresh_set, ts.TUPLE: _fresh_tuple,
    ts.DICT: _fresh_dict,
}
_ANY_SPECS = (Spec(ts.INT), Spec(ts.STR), Spec(ts.FLOAT))


def _alphabet(ctx: Context) -> str:
    chars = ctx.pool.pick("chars")
    return chars if chars and ctx.rng.random() < 0.9 else _PRINTABLE


def _text(ctx: Context, size: int) -> str:
    """``size`` random characters of one alphabet (:func:`_alphabet`)."""
    alphabet = _alphabet(ctx)
    return "".join(_choice(ctx.rng, alphabet) for _ in range(size))


def _hashable(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_hashable(v) for v in value)
    if isinstance(value, (set, dict)):
        return None
    return value


def _as_set(items: list[Any]) -> set[Any]:
    result = set()
    for item in items:
        try:
            result.add(item)
        except TypeError:
            continue
    return result


# --------------------------------------------------------------------------- scalars


def _mutate_number(value: Any, ctx: Context, kind: str, one: Any, boundaries: tuple[Any, ...],
                   factors: tuple[Any, ...], jitter: Callable[[Any, random.Random], Any]) -> Any:
    """Table 1 for numbers: +-1, a boundary value, an ingredient, a scaling or a jitter."""
    rng = ctx.rng
    choice = _below(rng, 6)
    if choice == 0:
        return value + one
    if choice == 1:
        return value - one
    if choice == 2:
        return _choice(rng, boundaries)
    if choice == 3:
        seen = ctx.pool.pick(kind)
        return seen if seen is not None else -value
    if choice == 4:
        return value * _choice(rng, factors)
    return jitter(value, rng)


def _jitter_int(value: int, rng: random.Random) -> int:
    return value + _randint(rng, -100, 100)


def _jitter_float(value: float, rng: random.Random) -> float:
    return round(value + rng.uniform(-10.0, 10.0), _choice(rng, (1, 2, 6)))


@mutator(ts.INT)
def mutate_int(value: int, spec: Spec, ctx: Context) -> int:
    return ctx.note(int(_mutate_number(value, ctx, "int", 1, INT_BOUNDARIES, (2, -1, 10),
                                       _jitter_int)))


@mutator(ts.FLOAT)
def mutate_float(value: float, spec: Spec, ctx: Context) -> float:
    return ctx.note(float(_mutate_number(value, ctx, "float", 1.0, FLOAT_BOUNDARIES,
                                         (0.5, 2.0, -1.0), _jitter_float)))


#: Complex boundary values: zero, the units, a point on the diagonal.
COMPLEX_BOUNDARIES = (0j, 1 + 0j, -1 + 0j, 1j, -1j, 1 + 1j, -1 - 1j)


@mutator(ts.COMPLEX)
def mutate_complex(value: complex, spec: Spec, ctx: Context) -> complex:
    """A float mutation of one part, the conjugate, the parts swapped, or a boundary."""
    choice = _below(ctx.rng, 5)
    if choice == 0:
        return complex(mutate_float(value.real, Spec(ts.FLOAT), ctx), value.imag)
    if choice == 1:
        return complex(value.real, mutate_float(value.imag, Spec(ts.FLOAT), ctx))
    if choice == 2:
        return value.conjugate()
    if choice == 3:
        return complex(value.imag, value.real)
    return _choice(ctx.rng, COMPLEX_BOUNDARIES)


@mutator(ts.BOOL)
def mutate_bool(value: bool, spec: Spec, ctx: Context) -> bool:
    return not value


@mutator(ts.NONE)
def mutate_none(value: None, spec: Spec, ctx: Context) -> None:
    return None


_STRING_RESHAPES: tuple[Callable[[str], str], ...] = (
    lambda text: "", lambda text: text[:1], lambda text: text[::-1], str.upper, str.lower,
    str.swapcase, str.strip, lambda text: f" {text} ", lambda text: text.replace(" ", "  "),
    lambda text: (text + text)[: 4 * MAX_LENGTH],
)


@mutator(ts.STR)
def mutate_str(value: str, spec: Spec, ctx: Context) -> str:
    return ctx.note(_mutate_str(value, spec, ctx))


def _mutate_str(value: str, spec: Spec, ctx: Context) -> str:
    rng = ctx.rng
    if not value:
        return fresh(spec, ctx) or _choice(rng, _alphabet(ctx))
    if rng.random() < RESHAPE_RATE:  # a corner case of the whole string
        return _choice(rng, _STRING_RESHAPES)(value)
    start = _below(rng, len(value))
    end = _randint(rng, start + 1, min(len(value), start + 4))
    piece = value[start:end]
    choice = _below(rng, 4)
    if choice == 0:  # remove a substring
        return value[:start] + value[end:]
    if choice == 1 and len(value) < 4 * MAX_LENGTH:  # repeat a substring
        return value[:end] + piece + value[end:]
    if choice == 2:  # replace a substring with a mutated piece
        replacement = (ctx.pool.pick("word") if rng.random() < 0.5 else None) \
            or _text(ctx, len(piece))
        return value[:start] + replacement + value[end:]
    # Insert a character the input alphabet uses (or any printable one).
    return value[:start] + _choice(rng, _alphabet(ctx)) + value[start:]


# --------------------------------------------------------------------------- containers


def _sortable(items: list[Any]) -> bool:
    try:
        sorted(items)
    except TypeError:
        return False
    return True


def _reshape_sequence(items: list[Any], rng: random.Random) -> list[Any]:
    """A corner case of the whole collection: empty, one element, sorted, reversed,
    every element the same, or the collection twice."""
    choice = _below(rng, 6)
    if choice == 0:
        return []
    if choice == 1:
        return [_choice(rng, items)]
    if choice == 2 and _sortable(items):
        return sorted(items, reverse=rng.random() < 0.5)
    if choice == 3:
        return items[::-1]
    if choice == 4:
        return [_choice(rng, items)] * len(items)
    return (items + items)[:MAX_LENGTH]


def _mutate_sequence(items: list[Any], element: Spec, ctx: Context) -> list[Any]:
    rng = ctx.rng
    items = list(items)
    if items and rng.random() < RESHAPE_RATE:
        return _reshape_sequence(items, rng)
    choices = 4 if len(items) < MAX_LENGTH else 1
    choice = _below(rng, choices) if items else 2
    if choice == 0 or (items and len(items) >= MAX_LENGTH):  # remove an element
        del items[_below(rng, len(items))]
    elif choice == 1:  # repeat an element
        index = _below(rng, len(items))
        items.insert(_below(rng, len(items) + 1), items[index])
    elif choice == 2:  # insert a new element (a mutant of one, or a fresh one)
        new = mutate(_choice(rng, items), element, ctx) if items and rng.random() < 0.7 \
            else fresh(element, ctx)
        items.insert(_below(rng, len(items) + 1), new)
    else:  # replace an element with a mutant of an element
        index = _below(rng, len(items))
        items[index] = mutate(items[_below(rng, len(items))], element, ctx)
    return items


@mutator(ts.LIST)
def mutate_list(value: list[Any], spec: Spec, ctx: Context) -> list[Any]:
    return _mutate_sequence(value, spec.args[0], ctx)


@mutator(ts.SET)
def mutate_set(value: set[Any], spec: Spec, ctx: Context) -> set[Any]:
    # The iteration order of a set of strings changes with the process's hash seed.
    return _as_set(_mutate_sequence(ordered(value), spec.args[0], ctx))


@mutator(ts.TUPLE)
def mutate_tuple(value: tuple[Any, ...], spec: Spec, ctx: Context) -> tuple[Any, ...]:
    if spec.variadic:
        return tuple(_mutate_sequence(list(value), spec.args[0], ctx))
    if not value:
        return value
    index = _below(ctx.rng, len(value))
    items = list(value)
    items[index] = mutate(items[index], spec.args[index], ctx)
    return tuple(items)


@mutator(ts.DICT)
def mutate_dict(value: dict[Any, Any], spec: Spec, ctx: Context) -> dict[Any, Any]:
    rng = ctx.rng
    result = dict(value)
    keys = ordered(result)
    if keys and rng.random() < RESHAPE_RATE:  # corner cases: no pair, or a single one
        return {} if rng.random() < 0.5 else {(key := _choice(rng, keys)): result[key]}
    choice = _below(rng, 3) if keys else 2
    if choice == 0:  # remove a pair
        del result[_choice(rng, keys)]
    elif choice == 1:  # update a value
        key = _choice(rng, keys)
        result[key] = mutate(result[key], spec.args[1], ctx)
    else:  # insert a pair
        source = _choice(rng, keys) if keys and rng.random() < 0.5 else None
        key = mutate(source, spec.args[0], ctx) if source is not None else fresh(spec.args[0], ctx)
        key = _hashable(key)
        if key is not None or spec.args[0].kind in (ts.NONE, ts.ANY):
            result[key] = fresh(spec.args[1], ctx)
    return result


@mutator(ts.UNION)
def mutate_union(value: Any, spec: Spec, ctx: Context) -> Any:
    members = [member for member in spec.args if ts.predicate(member)(value)]
    if members and ctx.rng.random() < 0.85:
        return mutate(value, members[0], ctx)
    return fresh(_choice(ctx.rng, spec.args), ctx)


@mutator(ts.ANY)
def mutate_any(value: Any, spec: Spec, ctx: Context) -> Any:
    inferred = ts.infer([value])
    return mutate(value, inferred, ctx) if inferred.kind != ts.ANY else value


def mutate(value: Any, spec: Spec, ctx: Context) -> Any:
    """One mutation of ``value`` that keeps it within ``spec``."""
    return MUTATORS[spec.kind](value, spec, ctx)


def mutate_positions(args: Sequence[Any], specs: Sequence[Spec],
                     ctx: Context) -> tuple[list[Any], list[int]]:
    """Mutate one argument (sometimes two); the mutant and the positions mutated (perhaps
    one twice; the others hold the very same objects as ``args``). Arity never changes."""
    result = list(args)
    if not result:
        return result, []
    rng = ctx.rng
    positions = [_below(rng, len(result))]
    if len(result) > 1 and rng.random() < 0.25:
        positions.append(_below(rng, len(result)))  # perhaps the same one again
    for position in positions:
        result[position] = mutate(result[position], specs[position], ctx)
    return result, positions


def mutate_args(args: list[Any], specs: tuple[Spec, ...], ctx: Context) -> list[Any]:
    """Mutate one argument (sometimes two), position by position; arity never changes."""
    return mutate_positions(args, specs, ctx)[0]
