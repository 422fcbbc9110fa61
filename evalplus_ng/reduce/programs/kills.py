"""Mutant-kill requirement of a program task: which of its tests make a slip of the
reference (:func:`~evalplus_ng.reduce.slips.slip_sources`, every kind, module-level code
included) fail.

Each task gets a capped, seeded sample of its reference's slips: the slips of each kind
shuffled by a random stream of the seed and the task id, then taken in turn from each
kind (so no kind crowds out the others), and only those that pass the task's public tests
kept, up to :data:`MUTANTS`: a slip the public tests already kill is killed by every suite
(they run first in each), so it chooses no test. Each kept slip then runs, in the
sandbox, on a tier's tests (plus, or stress) and is judged against their expected outputs
as ``evaluate`` judges a program; a test kills it when it fails there: a wrong answer, an
error, or a timeout past a generous limit (:data:`FLOOR_SECONDS`, or :data:`FACTOR` times
what the reference took on that test), confirmed by a second run, so that a slip slowed
only by a loaded machine is no kill.

Mutants are untrusted code: they only run in the sandbox.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from evalplus_ng.jobs import one_input, program_job
from evalplus_ng.protocols import Executor
from evalplus_ng.records import Job, JobResult, ProgramTask, Status
from evalplus_ng.reduce.kills import KillRow
from evalplus_ng.reduce.mutants import Mutant
from evalplus_ng.reduce.slips import KINDS, slip_sources

#: Slips kept per task (those passing the public tests), and slips screened at most to
#: find them (the first in the seeded order).
MUTANTS = 40
SCREENED = 200
#: A mutant's limit on a test: ``max(FLOOR_SECONDS, FACTOR * reference seconds)``.
FLOOR_SECONDS = 1.0
FACTOR = 10.0
#: Seconds the reference may take on a test when timed (a test it does not pass within
#: them is no test of the requirements), and its timeouts before a job stops.
REFERENCE_SECONDS = 10.0
REFERENCE_TIMEOUTS = 2
#: A mutant's job on a tier stops after this many failing tests (enough killers to choose
#: from; the rest are ``unknown``) or one timeout (each costs a whole limit).
MAX_FAILURES = 32


@dataclass(frozen=True)
class Slip:
    """One slip of the reference: its kind and the mutant."""

    kind: str
    mutant: Mutant


def slip_order(source: str, task_id: str, seed: int) -> list[Slip]:
    """Every distinct slip of ``source`` (a whole program), in the task's seeded order:
    each kind's slips shuffled, then taken one from each kind in turn (kind order of
    :data:`~evalplus_ng.reduce.slips.KINDS`)."""
    rng = random.Random(f"program-slips:{seed}:{task_id}")
    seen: set[str] = set()
    by_kind: list[list[Slip]] = []
    for kind in KINDS:
        found = []
        for mutant in slip_sources(source, (kind,), module=True):
            if mutant.code not in seen:
                seen.add(mutant.code)
                found.append(Slip(kind, mutant))
        rng.shuffle(found)
        by_kind.append(found)
    order: list[Slip] = []
    for turn in range(max(map(len, by_kind), default=0)):
        order.extend(found[turn] for found in by_kind if turn < len(found))
    return order


def mutant_limit(reference_seconds: float) -> float:
    """A mutant's time limit on a test the reference took ``reference_seconds`` on."""
    return max(FLOOR_SECONDS, FACTOR * reference_seconds)


def reference_seconds(task: ProgramTask, indices: Sequence[int],
                      executor: Executor) -> dict[int, float]:
    """The seconds the reference took on each of the tests ``indices`` (places in
    ``task.tests``) that it passes within :data:`REFERENCE_SECONDS` (the others absent)."""
    if not indices:
        return {}
    job = program_job(task, task.solution, [task.tests[i] for i in indices], REFERENCE_SECONDS,
                      fail_fast=False, max_timeouts=REFERENCE_TIMEOUTS)
    [result] = list(executor.map([job]))
    if result.load.status is not Status.OK:
        return {}
    return {indices[k]: outcome.seconds
            for k, (outcome, passed) in enumerate(zip(result.outcomes, result.passed,
                                                      strict=True)) if passed}


def _template(task: ProgramTask, indices: Sequence[int], seconds: Mapping[int, float],
              **options: Any) -> Job:
    """A job of the reference on ``indices``, each within a mutant's limit; its code is
    replaced per mutant (one inputs list for every job: the sandbox prepares it once)."""
    return program_job(task, task.solution, [task.tests[i] for i in indices],
                       [mutant_limit(seconds[i]) for i in indices], **options)


def screen(task: ProgramTask, slips: Sequence[Slip], public: Sequence[int],
           seconds: Mapping[int, float], executor: Executor,
           wanted: int) -> tuple[list[Slip], int]:
    """The first ``wanted`` of ``slips`` (in order) that pass the ``public`` tests, run a
    batch of ``wanted`` at a time until there are enough; and how many ran."""
    if not public:
        return list(slips[:wanted]), 0
    template = _template(task, public, seconds)
    kept: list[Slip] = []
    ran = 0
    while len(kept) < wanted and ran < len(slips):
        batch = slips[ran:ran + max(wanted, 1)]
        results = executor.map(replace(template, code=slip.mutant.code) for slip in batch)
        kept.extend(slip for slip, result in zip(batch, results, strict=True)
                    if result.all_passed)
        ran += len(batch)
    return kept[:wanted], ran


def kill_rows(task: ProgramTask, codes: Sequence[str], tiers: Sequence[Sequence[int]],
              seconds: Mapping[int, float], executor: Executor) -> list[KillRow]:
    """One row per program of ``codes``: the tests of ``tiers`` (each a list of places in
    ``task.tests``, run as one job) that kill it, and those its jobs never ran."""
    tiers = [list(tier) for tier in tiers if tier]
    templates = [_template(task, tier, seconds, fail_fast=False, max_timeouts=1,
                           max_failures=MAX_FAILURES) for tier in tiers]
    results = iter(executor.map(replace(template, code=code)
                                for code in codes for template in templates))
    killers: list[set[int]] = [set() for _ in codes]
    unknown: list[set[int]] = [set() for _ in codes]
    timeouts: list[tuple[int, int, int]] = []  # (row, tier, position)
    for row in range(len(codes)):
        for number, tier in enumerate(tiers):
            result: JobResult = next(results)
            if result.load.status is not Status.OK:
                killers[row].update(tier)
                continue
            for position, (outcome, ok) in enumerate(zip(result.outcomes, result.passed,
                                                         strict=True)):
                if ok:
                    continue
                if outcome.status is Status.TIMEOUT:
                    timeouts.append((row, number, position))
                else:
                    killers[row].add(tier[position])
            unknown[row].update(tier[len(result.outcomes):])
    # A timeout kills only when a second run on that test fails too.
    confirm = [one_input(templates[number], codes[row], position)
               for row, number, position in timeouts]
    for (row, number, position), result in zip(timeouts, executor.map(confirm), strict=True):
        if not result.all_passed:
            killers[row].add(tiers[number][position])
    return [KillRow(frozenset(k), frozenset(u - k)) for k, u in zip(killers, unknown,
                                                                       strict=True)]
