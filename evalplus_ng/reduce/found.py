"""What one requirement kind found in one task's tests, in the two shapes the set cover reads.

A kind either names the goals each test meets (branch arcs, input classes, habits:
:class:`GoalSets`) or has one kill row per candidate (mutants, slips, samples:
:class:`KillRows`, row ``i`` being goal ``i``, so a held-out model's own rows are masked
out by their bits). Both give the set cover goal masks and a plain ``test -> goals``
matrix. Pure: plain data in, plain data out.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence, Set
from dataclasses import dataclass, field

from evalplus_ng.reduce.kills import KillRow
from evalplus_ng.reduce.setcover import KindMasks, masks_of


@dataclass(frozen=True)
class GoalSets:
    """Test -> the goals it meets (only tests meeting some)."""

    by_test: Mapping[int, frozenset[Hashable]] = field(default_factory=dict)

    def masks(self) -> KindMasks:
        """Test -> goals as bits (see :func:`~evalplus_ng.reduce.setcover.masks_of`)."""
        return masks_of(self.by_test)

    def matrix(self, excluded: int = 0) -> dict[int, set[Hashable]]:
        """Test -> goals. ``excluded`` is for kill rows' bits: goal sets have no owners."""
        return {test: set(goals) for test, goals in self.by_test.items()}


@dataclass(frozen=True)
class KillRows:
    """One row per candidate: the tests that kill it; for mutants, the ground truth's line each
    one changes."""

    rows: tuple[KillRow, ...] = ()
    lines: tuple[int, ...] = ()

    def masks(self) -> KindMasks:
        """Test -> the rows it kills, as bits (row ``i`` is bit ``i``)."""
        masks: dict[int, int] = {}
        for bit, row in enumerate(self.rows):
            for test in row.killers:
                masks[test] = masks.get(test, 0) | 1 << bit
        return masks, len(self.rows)

    def matrix(self, excluded: int = 0) -> dict[int, set[Hashable]]:
        """Test -> the rows it kills, leaving out the rows whose bits ``excluded`` sets."""
        matrix: dict[int, set[Hashable]] = {}
        for number, row in enumerate(self.rows):
            if excluded >> number & 1:
                continue
            for test in row.killers:
                matrix.setdefault(test, set()).add(number)
        return matrix

    def without(self, tests: Set[int]) -> KillRows:
        """The same rows with ``tests`` taken out of their killers (row numbers stay)."""
        return KillRows(tuple(KillRow(row.killers - tests, row.unknown) for row in self.rows),
                        self.lines)


#: What a requirement kind found in a task's tests.
Found = GoalSets | KillRows


def rows_to_wire(rows: Sequence[KillRow]) -> list[dict[str, list[int]]]:
    """Kill rows as plain JSON (sorted test numbers)."""
    return [{"k": sorted(row.killers), "u": sorted(row.unknown)} for row in rows]


def rows_from_wire(wire: Sequence[Mapping[str, Sequence[int]]]) -> tuple[KillRow, ...]:
    """Kill rows from :func:`rows_to_wire`'s JSON."""
    return tuple(KillRow(frozenset(row["k"]), frozenset(row["u"])) for row in wire)
