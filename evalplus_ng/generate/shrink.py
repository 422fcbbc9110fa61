"""Shrink an input that shows a defect to a simpler one that still shows it.

Pure and deterministic: the caller supplies ``holds``, a batch predicate saying
which candidate argument lists still show the defect (the audit evaluates it in
the sandbox), and ``valid``, the task's contract. Simpler means, in this order
of importance: shorter collections and strings, smaller numbers (toward 0),
simpler characters ('a', '0', 'A', ' ' before anything else), non-negative.
:func:`cost` makes that order a tuple; a candidate is tried only when it costs
strictly less than the current input, so shrinking always terminates.

One tiny generator of simpler values per type lives in :data:`SHRINKERS`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from evalplus_ng.serialize import Unserializable, canonical
from evalplus_ng.types import Args

#: Which candidates (given in order) still show the defect.
Holds = Callable[[Sequence[Args]], Sequence[bool]]
#: Characters in order of simplicity; any other character comes after them.
SIMPLE_CHARS = "a0A "


def _char_rank(char: str) -> int:
    index = SIMPLE_CHARS.find(char)
    return index if index >= 0 else len(SIMPLE_CHARS) + ord(char)


def _text_rank(text: str) -> int:
    """The sum of :func:`_char_rank` over ``text``, at C speed: every character counted
    as ``len(SIMPLE_CHARS) + ord(c)``, then the simple ones corrected (the shrinker
    prices every candidate of a 10,000-character string: a loop in Python took minutes)."""
    if text.isascii():
        total = sum(text.encode("ascii"))
    else:
        total = sum(memoryview(text.encode("utf-32-le", "surrogatepass")).cast("I"))
    total += len(SIMPLE_CHARS) * len(text)
    for index, char in enumerate(SIMPLE_CHARS):
        total -= text.count(char) * (len(SIMPLE_CHARS) + ord(char) - index)
    return total


def cost(value: Any) -> tuple[int, int, float, int, int]:
    """(total length, integer magnitude, float magnitude, character rank, negatives)."""
    length, magnitude, real, chars, negatives = 0, 0, 0.0, 0, 0
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is bool:
            magnitude += int(item)
        elif kind is int:
            magnitude += abs(item)
            negatives += item < 0
        elif kind is float:
            real += abs(item) if math.isfinite(item) else 1e308
            negatives += item < 0
        elif kind is str:
            length += len(item)
            chars += _text_rank(item)
        elif kind is dict:
            length += len(item)
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple, set, frozenset)):
            length += len(item)
            stack.extend(item)
    return length, magnitude, real, chars, negatives


def _steps_toward_zero(value: int) -> Iterator[int]:
    """0, then value minus halves of it (|value|/2, /4, ... 1): a binary search's ladder."""
    yield 0
    if value < 0:
        yield -value
    sign = 1 if value > 0 else -1
    distance = abs(value) >> 1
    while distance:
        yield value - sign * distance
        distance >>= 1
    yield value - sign


def _int(value: int) -> Iterator[int]:
    yield from _steps_toward_zero(value)


def _bool(value: bool) -> Iterator[bool]:
    if value:
        yield False


def _float(value: float) -> Iterator[float]:
    yield 0.0
    if not math.isfinite(value):
        return
    if value < 0:
        yield -value
    whole = float(math.trunc(value))
    if whole != value:
        yield whole
        for digits in range(1, 4):
            yield round(value, digits)
    else:
        for step in _steps_toward_zero(int(whole)):
            yield float(step)


def _deletions(length: int) -> Iterator[tuple[int, int]]:
    """(start, stop) slices to remove, largest chunks first."""
    size = length
    while size:
        for start in range(0, length - size + 1, size):
            yield start, start + size
        size >>= 1


def _str(value: str) -> Iterator[str]:
    if value:
        yield ""
    for start, stop in _deletions(len(value)):
        yield value[:start] + value[stop:]
    for index, char in enumerate(value):
        rank = _char_rank(char)
        for simple in SIMPLE_CHARS[:rank] if rank < len(SIMPLE_CHARS) else SIMPLE_CHARS:
            yield value[:index] + simple + value[index + 1:]


def _sequence(value: list[Any]) -> Iterator[list[Any]]:
    if value:
        yield []
    for start, stop in _deletions(len(value)):
        yield value[:start] + value[stop:]
    for index, item in enumerate(value):
        for simple in simpler(item):
            yield [*value[:index], simple, *value[index + 1:]]


def _list(value: list[Any]) -> Iterator[list[Any]]:
    yield from _sequence(value)


def _tuple(value: tuple[Any, ...]) -> Iterator[tuple[Any, ...]]:
    for items in _sequence(list(value)):
        yield tuple(items)


def _ordered(items: Any) -> list[Any]:
    """A set's or dict's items in an order that does not depend on hashing."""
    try:
        return sorted(items, key=canonical)
    except Unserializable:
        return list(items)


def _set(value: set[Any] | frozenset[Any]) -> Iterator[set[Any] | frozenset[Any]]:
    kind = type(value)
    for items in _sequence(_ordered(value)):
        yield kind(items)


def _dict(value: dict[Any, Any]) -> Iterator[dict[Any, Any]]:
    keys = _ordered(value.keys())
    if keys:
        yield {}
    for start, stop in _deletions(len(keys)):
        dropped = set(range(start, stop))
        yield {k: value[k] for i, k in enumerate(keys) if i not in dropped}
    for key in keys:
        for simple in simpler(value[key]):
            yield {**value, key: simple}
    for key in keys:
        for simple in simpler(key):
            if simple not in value:
                yield {(simple if k == key else k): v for k, v in value.items()}


SHRINKERS: dict[type, Callable[[Any], Iterator[Any]]] = {
    bool: _bool, int: _int, float: _float, str: _str, list: _list, tuple: _tuple,
    set: _set, frozenset: _set, dict: _dict,
}


def simpler(value: Any) -> Iterator[Any]:
    """Candidate replacements of ``value`` (not all of them cheaper); none for unknown types."""
    shrinker = SHRINKERS.get(type(value))
    return shrinker(value) if shrinker is not None else iter(())


def _coupled(args: Args) -> Iterator[Args]:
    """Deletions from one argument with every integer argument lowered by as many.

    Arguments are often tied (``k <= len(arr)``): deleting an element alone
    would break the contract, deleting it and lowering ``k`` keeps it.
    """
    for position, value in enumerate(args):
        if not isinstance(value, (str, list, tuple)):
            continue
        for start, stop in _deletions(len(value)):
            removed = stop - start
            smaller: Any = value[:start] + value[stop:]  # type: ignore[operator]
            for other, number in enumerate(args):
                if other != position and type(number) is int and number >= removed:
                    candidate = list(args)
                    candidate[position], candidate[other] = smaller, number - removed
                    yield candidate


def candidates(args: Args) -> Iterator[Args]:
    """Simpler argument lists, cheaper than ``args``, without repeats.

    First one argument at a time, then deletions coupled with lowered integers.
    """
    bound = cost(args)
    seen: set[str] = set()
    single = ([*args[:position], simple, *args[position + 1:]]
              for position, value in enumerate(args) for simple in simpler(value))
    for candidate in itertools.chain(single, _coupled(args)):
        if cost(candidate) >= bound:
            continue
        try:
            key = canonical(candidate)
        except Unserializable:
            key = repr(candidate)
        if key not in seen:
            seen.add(key)
            yield candidate


def shrink(args: Args, holds: Holds, valid: Callable[[Args], bool] = lambda _args: True,
           batch: int = 64, max_checks: int = 3000) -> Args:
    """The simplest input reachable from ``args`` by steps that each keep ``holds`` true.

    Greedy: candidates of the current input are checked ``batch`` at a time, in
    order (deletions before simplifications, biggest steps first), and the first
    that holds becomes the current input. Stops when none holds or after
    ``max_checks`` candidates. ``args`` itself is assumed to hold.
    """
    current, checks = args, 0
    while checks < max_checks:
        pending: list[Args] = []
        found: Args | None = None
        for candidate in candidates(current):
            if not valid(candidate):
                continue
            pending.append(candidate)
            if len(pending) >= min(batch, max_checks - checks):
                found = _first_holding(pending, holds)
                checks += len(pending)
                pending = []
                if found is not None or checks >= max_checks:
                    break
        if found is None and pending:
            found = _first_holding(pending, holds)
            checks += len(pending)
        if found is None:
            return current
        current = found
    return current


def _first_holding(pending: list[Args], holds: Holds) -> Args | None:
    verdicts = holds(pending)
    return next((c for c, ok in zip(pending, verdicts, strict=True) if ok), None)
