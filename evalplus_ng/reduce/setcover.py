"""Greedy set cover on plain data: pick few tests that keep every requirement the suite meets.

Pure and deterministic: no I/O, no randomness; ties go to the test that comes
first in the caller's preference order (cheaper, smaller inputs first).
"""

from __future__ import annotations

import heapq
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


#: One requirement kind of one task: test -> goals as the bits of an int, and bits used.
KindMasks = tuple[Mapping[int, int], int]


def masks_of(matrix: Mapping[int, Set[Hashable]]) -> KindMasks:
    """A ``test -> goals`` matrix as bit masks (goal bits in first-seen test order)."""
    bits: dict[Hashable, int] = {}
    masks: dict[int, int] = {}
    for test in sorted(matrix):
        mask = 0
        for goal in sorted(matrix[test], key=repr):
            mask |= 1 << bits.setdefault(goal, len(bits))
        masks[test] = mask
    return masks, len(bits)


def greedy_cover(
    requirements: Mapping[T, Set[G]],
    order: Sequence[T],
    keep: Sequence[T] = (),
) -> list[T]:
    """Tests from ``order`` that together meet every goal any test of ``order`` meets.

    ``requirements`` maps a test to the goals it meets (a missing test meets
    none). ``keep`` tests are always in the answer, first and in their order.
    See :func:`cover_masks`, which this runs with each goal as one bit.

    Invariant: ``satisfied(requirements, result) == satisfied(requirements, order)``
    (plus whatever ``keep`` meets).
    """
    bits: dict[G, int] = {}
    masks: dict[T, int] = {}
    for test, goals in requirements.items():
        mask = 0
        for goal in goals:
            mask |= 1 << bits.setdefault(goal, len(bits))
        masks[test] = mask
    return cover_masks(masks, order, keep)


def cover_masks(masks: Mapping[T, int], order: Sequence[T], keep: Sequence[T] = ()) -> list[T]:
    """Greedy set cover with each test's goals as the bits of an int (fast on big suites).

    Each step picks the test meeting the most goals still unmet; on a tie, the test
    meeting the most goals in all (met already or not), then the earliest in
    ``order``. A final pass drops any picked test whose every goal the other chosen
    tests also meet (a later pick can make an earlier one redundant), earliest first.

    The second key matters: the smallest input meeting a goal is often a degenerate
    one (``[0]`` is the smallest list whose first and last items sum to zero); a test
    that shows more at once (``[0, 31, 0]``: unordered, repeated items, the zero sum)
    is the likelier to catch a bug no goal names. Measured: with the value goals,
    cross-half kills kept by ``full`` 797 -> 802 of 810 over five family splits.
    """
    rank = {test: position for position, test in enumerate(order)}
    if len(rank) != len(order):
        raise ValueError("order lists a test twice")
    chosen: list[T] = list(dict.fromkeys(keep))
    taken = set(chosen)
    unmet = 0
    for test in order:
        unmet |= masks.get(test, 0)
    for test in chosen:
        unmet &= ~masks.get(test, 0)
    candidates = [t for t in order if t not in taken and masks.get(t, 0) & unmet]
    sizes = {test: masks[test].bit_count() for test in candidates}
    picked: list[T] = []
    while unmet:
        best = candidates[0]  # non-empty: every unmet goal is some candidate's
        best_gain = (0, 0)
        for test in candidates:
            gain = ((masks[test] & unmet).bit_count(), sizes[test])
            if gain > best_gain:  # strict: the earlier test wins ties
                best, best_gain = test, gain
        picked.append(best)
        unmet &= ~masks[best]
        candidates = [t for t in candidates if t != best and masks[t] & unmet]
    return chosen + _drop_redundant(masks, picked, chosen)


def _drop_redundant(masks: Mapping[T, int], picked: list[T], fixed: list[T]) -> list[T]:
    """``picked`` minus tests whose goals the others (and ``fixed``) meet; earliest go first."""
    kept = list(picked)
    for test in picked:
        others = 0
        for other in (*fixed, *kept):
            if other != test:
                others |= masks.get(other, 0)
        if not masks.get(test, 0) & ~others:
            kept.remove(test)
    return kept


def fill_masks(masks: Mapping[T, int], order: Sequence[T], chosen: Sequence[T],
               budget: int) -> list[T]:
    """``chosen`` plus tests from ``order``, up to ``budget`` tests in all, that meet the
    goals ``chosen`` meets fewest times: each step adds the test meeting the most goals
    at the lowest count so far (then at the next count, and so on; the earliest in
    ``order`` on a tie). Stops early when no test meets any goal.

    A minimal cover meets each goal once, so a bug that one test of it happens to miss
    goes unseen; meeting each goal a second (third...) time by another test keeps more
    of the bugs that did not choose the tests.
    """
    result = list(dict.fromkeys(chosen))
    taken = set(result)
    width = 0
    for test in order:
        width = max(width, masks.get(test, 0).bit_length())
    counts = [0] * width
    for test in result:
        _add(counts, masks.get(test, 0))
    candidates = [t for t in order if t not in taken and masks.get(t, 0)]
    while len(result) < budget and candidates:
        levels = _levels(counts)
        best, best_key = None, None
        for test in candidates:
            mask = masks[test]
            key = tuple((mask & level).bit_count() for level in levels)
            if best_key is None or key > best_key:  # strict: the earlier test wins ties
                best, best_key = test, key
        assert best is not None
        result.append(best)
        _add(counts, masks[best])
        candidates.remove(best)
    return result


def _add(counts: list[int], mask: int) -> None:
    while mask:
        low = mask & -mask
        counts[low.bit_length() - 1] += 1
        mask ^= low


def _levels(counts: Sequence[int]) -> list[int]:
    """Goal masks by how often they are met so far, fewest first (only goals some test meets)."""
    by_count: dict[int, int] = {}
    for bit, count in enumerate(counts):
        by_count[count] = by_count.get(count, 0) | 1 << bit
    return [by_count[count] for count in sorted(by_count)]



def fill_across(tasks: Sequence[tuple[Mapping[T, int], Sequence[T], Sequence[T]]],
                total: int) -> list[list[T]]:
    """Each task's ``chosen`` tests plus tests added across tasks until ``total`` tests in
    all (or no test meets a goal again): ``tasks`` holds, per task, its goal masks, its
    tests in preferred order and its chosen tests.

    Each step adds, over every task, the test meeting the most goals met once so far
    (then the most met twice), so the extra tests go where a second look at a goal is
    most wanted, not evenly: a task whose goals are all met twice gets none. Ties go to
    the earlier task, then to the earlier test in its order. Deterministic.
    """
    results = [list(dict.fromkeys(chosen)) for _masks, _order, chosen in tasks]
    counts: list[dict[int, int]] = []
    for (masks, _order, _chosen), result in zip(tasks, results, strict=True):
        met: dict[int, int] = {}
        for test in result:
            _count(met, masks.get(test, 0))
        counts.append(met)

    def best(index: int) -> tuple[tuple[int, int, int, int], T] | None:
        masks, order, _chosen = tasks[index]
        taken, met = set(results[index]), counts[index]
        found: tuple[tuple[int, int, int, int], T] | None = None
        for position, test in enumerate(order):
            mask = masks.get(test, 0)
            if not mask or test in taken:
                continue
            once = twice = 0
            while mask:
                low = mask & -mask
                seen = met.get(low.bit_length() - 1, 0)
                once += seen == 1
                twice += seen == 2
                mask ^= low
            key = (-once, -twice, index, position)
            if (once or twice) and (found is None or key < found[0]):
                found = (key, test)
        return found

    heap: list[tuple[tuple[int, int, int, int], int]] = []
    picks: dict[int, T] = {}
    for index in range(len(tasks)):
        found = best(index)
        if found is not None:
            picks[index] = found[1]
            heapq.heappush(heap, (found[0], index))
    used = sum(len(result) for result in results)
    while used < total and heap:
        _key, index = heapq.heappop(heap)
        test = picks.pop(index)
        results[index].append(test)
        _count(counts[index], tasks[index][0].get(test, 0))
        used += 1
        found = best(index)  # only this task's goals changed
        if found is not None:
            picks[index] = found[1]
            heapq.heappush(heap, (found[0], index))
    return results


def _count(met: dict[int, int], mask: int) -> None:
    while mask:
        low = mask & -mask
        bit = low.bit_length() - 1
        met[bit] = met.get(bit, 0) + 1
        mask ^= low
