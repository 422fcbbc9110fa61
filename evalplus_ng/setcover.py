"""Greedy set cover on plain data: pick few tests that keep every requirement the suite meets.

Pure and deterministic: no I/O, no randomness; ties go to the test that comes
first in the caller's preference order (cheaper, smaller inputs first).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence, Set
from typing import TypeVar

T = TypeVar("T", bound=Hashable)
G = TypeVar("G", bound=Hashable)


def satisfied(requirements: Mapping[T, Set[G]], tests: Iterable[T]) -> set[G]:
    """Every goal at least one of ``tests`` meets."""
    met: set[G] = set()
    for test in tests:
        met |= requirements.get(test, frozenset())
    return met


def greedy_cover(
    requirements: Mapping[T, Set[G]],
    order: Sequence[T],
    keep: Sequence[T] = (),
) -> list[T]:
    """Tests from ``order`` that together meet every goal any test of ``order`` meets.

    ``requirements`` maps a test to the goals it meets (a missing test meets
    none). ``keep`` tests are always in the answer, first and in their order.
    Each step picks the test meeting the most goals still unmet, the earliest in
    ``order`` on a tie; a final pass drops any picked test whose every goal is
    also met by the others (a later pick can make an earlier one redundant).

    Invariant: ``satisfied(requirements, result) == satisfied(requirements, order)``
    (plus whatever ``keep`` meets).
    """
    rank = {test: position for position, test in enumerate(order)}
    if len(rank) != len(order):
        raise ValueError("order lists a test twice")
    chosen: list[T] = list(dict.fromkeys(keep))
    unmet = satisfied(requirements, order) - satisfied(requirements, chosen)
    taken = set(chosen)
    # Candidates with goals, best-first; gains only shrink, so a lazy re-check is exact.
    candidates = [t for t in order if t not in taken and requirements.get(t)]
    picked: list[T] = []
    while unmet:
        best: T | None = None
        best_gain = 0
        for test in candidates:
            gain = len(requirements[test] & unmet)
            if gain > best_gain:  # strict: the earlier test wins ties
                best, best_gain = test, gain
        if best is None:  # cannot happen: every unmet goal is met by some candidate
            raise AssertionError("unmet goals without a test meeting them")
        picked.append(best)
        unmet -= requirements[best]
        candidates = [t for t in candidates if t != best and requirements[t] & unmet]
    return chosen + _drop_redundant(requirements, picked, chosen)


def _drop_redundant(requirements: Mapping[T, Set[G]], picked: list[T], fixed: list[T]) -> list[T]:
    """``picked`` minus tests whose goals the others (and ``fixed``) meet; earliest go first."""
    counts: dict[G, int] = {}
    for test in [*fixed, *picked]:
        for goal in requirements.get(test, frozenset()):
            counts[goal] = counts.get(goal, 0) + 1
    kept: list[T] = []
    for test in picked:
        goals = requirements.get(test, frozenset())
        if all(counts[goal] > 1 for goal in goals):
            for goal in goals:
                counts[goal] -= 1
        else:
            kept.append(test)
    return kept
