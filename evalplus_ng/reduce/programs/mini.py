"""A program task's MINI tiers by greedy set cover: the fewest tests of a tier (plus, or
stress) that meet every requirement the whole tier meets.

Each tier is reduced on its own, since each is judged on its own (``evaluate --suite
plus`` runs the public tests and the plus tier; ``--suite stress`` the public tests and
the stress tier). The public tests are kept too, but they earn the tier nothing: its
chosen tests alone run every line the whole tier runs (a tier that leaned on the
statement's few examples for its lines kept a single test, and missed held-out bugs
the whole tier finds). A test's requirements are its goals:

* ``("cover", goal)``: a line or branch arc of the reference the test runs
  (:mod:`.cover`);
* ``("mutant", i)``: the sampled slip ``i`` of the reference it kills
  (:mod:`.kills`);
* ``("largest",)``: in the stress tier only (the efficiency tier, whose point is its
  costly inputs), met by its test of the longest input, so that a MINI chosen for lines
  and slips keeps the tier's hardest input too.

Tests are preferred by smaller input (cheaper to run and to read), then by place in the
task: :func:`~evalplus_ng.reduce.setcover.greedy_cover` takes the test meeting the most
goals still unmet, on a tie the one meeting the most goals in all (as for functions: it
shows more at once), then the first in that order.
Pure and deterministic: plain data in, plain data out.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence, Set
from dataclasses import dataclass

from evalplus_ng.reduce.kills import KillRow
from evalplus_ng.reduce.setcover import greedy_cover, satisfied

#: Goal kinds, as the stats count them.
COVER, MUTANT, LARGEST = "cover", "mutant", "largest"
GOAL_KINDS = (COVER, MUTANT, LARGEST)


@dataclass(frozen=True)
class TierMini:
    """One tier's reduction: its tests (those the reference passes), the tests chosen, and
    per goal kind how many goals the whole tier meets (the chosen tests meet them all)."""

    tests: tuple[int, ...]
    chosen: tuple[int, ...]
    goals: Mapping[str, int]


def requirements(tests: Sequence[int], coverage: Mapping[int, Set[Hashable]],
                 rows: Sequence[KillRow], sizes: Mapping[int, int],
                 largest: bool = False) -> dict[int, set[Hashable]]:
    """Each of ``tests`` -> its goals (``coverage``: test -> lines and arcs; ``rows``: one
    kill row per sampled mutant; ``sizes``: test -> the length of its input; ``largest``:
    the longest inputs of ``tests`` meet the ``largest`` goal)."""
    goals: dict[int, set[Hashable]] = {test: {(COVER, goal) for goal in coverage.get(test, ())}
                                       for test in tests}
    for number, row in enumerate(rows):
        for test in row.killers:
            if test in goals:
                goals[test].add((MUTANT, number))
    if largest and tests:
        top = max(sizes[test] for test in tests)
        for test in tests:
            if sizes[test] == top:
                goals[test].add((LARGEST,))
    return goals


def preferred(tests: Sequence[int], sizes: Mapping[int, int]) -> list[int]:
    """``tests`` in the order the cover prefers them: smaller input, then earlier."""
    return sorted(tests, key=lambda test: (sizes[test], test))


def reduce_tier(tests: Sequence[int], goals: Mapping[int, Set[Hashable]],
                sizes: Mapping[int, int]) -> TierMini:
    """The fewest of ``tests`` that meet every goal ``tests`` meet (``goals``: test ->
    goals)."""
    chosen = tuple(sorted(greedy_cover(goals, preferred(tests, sizes))))
    wanted = satisfied(goals, tests)
    counts = {kind: sum(1 for goal in wanted if _kind(goal) == kind) for kind in GOAL_KINDS}
    return TierMini(tuple(tests), chosen, counts)


def _kind(goal: Hashable) -> str:
    assert isinstance(goal, tuple)
    return str(goal[0])
