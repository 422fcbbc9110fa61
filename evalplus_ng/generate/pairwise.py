"""Boundary classes that meet: every pair of arguments' boundary classes in one input.

A wrong sample often mishandles two boundaries at once (``modp(0, 1)``: n = 0 and
p = 1, each shown alone). :func:`boundary_probes` puts each argument of a seed at its
boundaries (zero, one, negative; empty, one item) one at a time, and :func:`meet`
combines, for each pair of arguments, every two classes that appear separately in
the inputs into one input. Pure and deterministic; ``valid`` (the contract) decides
what is kept, so nothing the contract rejects is made.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

from evalplus_ng.generate.classes import boundary_class
from evalplus_ng.serialize import canonical
from evalplus_ng.types import Args

Valid = Callable[[Args], bool]


def _one_item(value: Any) -> Any:
    if isinstance(value, dict):
        return dict(list(value.items())[:1])
    if isinstance(value, (set, frozenset)):
        return type(value)(sorted(value, key=canonical)[:1])
    return value[:1]


def boundaries(value: Any) -> list[Any]:
    """Values of ``value``'s own type at each boundary (none for other types)."""
    kind = type(value)
    if kind is int:
        return [0, 1, -1]
    if kind is float:
        return [0.0, 1.0, -1.0]
    if kind in (str, list, tuple, set, frozenset, dict):
        return [kind(), _one_item(value)] if value else [kind()]
    return []


def _add(found: list[Args], seen: set[str], args: Args, valid: Valid) -> None:
    key = canonical(args)
    if key not in seen and valid(args):
        seen.add(key)
        found.append(args)


def boundary_probes(inputs: Sequence[Args], valid: Valid) -> list[Args]:
    """The first input with each argument, in turn, at each of its boundaries (the
    first variant the contract accepts for each argument and class)."""
    if not inputs:
        return []
    seen = {canonical(args) for args in inputs}
    found: list[Args] = []
    for position in range(len(inputs[0])):
        classes = {boundary_class(args[position]) for args in inputs}
        for args in inputs:
            for value in boundaries(args[position]):
                cls = boundary_class(value)
                if cls in classes:
                    continue
                probe = list(args)
                probe[position] = value
                before = len(found)
                _add(found, seen, probe, valid)
                if len(found) > before:
                    classes.add(cls)
    return found


def meet(inputs: Sequence[Args], valid: Valid) -> list[Args]:
    """New inputs in which, for every pair of argument positions (i, j), each class a
    seen at i and each class b seen at j (both boundary classes) appear together: the
    first input with a at i takes the first value with b at j, or the other way round,
    whichever the contract accepts first."""
    if not inputs:
        return []
    arity = len(inputs[0])
    seen = {canonical(args) for args in inputs}
    # The first input holding each (position, class); which pairs of classes already met.
    first: dict[tuple[int, str], Args] = {}
    met: set[tuple[int, str, int, str]] = set()
    for args in inputs:
        classes = [boundary_class(value) for value in args]
        for position, cls in enumerate(classes):
            if cls is not None:
                first.setdefault((position, cls), args)
        for i, j in itertools.combinations(range(arity), 2):
            a, b = classes[i], classes[j]
            if a is not None and b is not None:
                met.add((i, a, j, b))
    found: list[Args] = []
    for i, j in itertools.combinations(range(arity), 2):
        at_i = [cls for (position, cls) in first if position == i]
        at_j = [cls for (position, cls) in first if position == j]
        for a, b in itertools.product(at_i, at_j):
            if (i, a, j, b) in met:
                continue
            with_a, with_b = first[(i, a)], first[(j, b)]
            for base, position, value in ((with_a, j, with_b[j]), (with_b, i, with_a[i])):
                candidate = list(base)
                candidate[position] = value
                before = len(found)
                _add(found, seen, candidate, valid)
                if len(found) > before:
                    met.add((i, a, j, b))
                    break
    return found
