"""Kill matrices: which tests of a task make a candidate (mutant or LLM sample) fail.

Candidates are untrusted: they run only as sandbox jobs, built and judged the
way :mod:`evalplus_ng.evaluation.verdicts` builds and judges them, but with every input run
(no fail-fast) so that each test's verdict is known.

Tests are numbered across the task's suite: base input ``i`` is test ``i``,
plus input ``j`` is test ``len(base_inputs) + j``. Only inputs the ground truth
answers are tests at all.

Two rules keep loops affordable and timeouts honest:

* a job stops after ``max_timeouts`` timeouts (each costs a whole time limit)
  or ``max_failures`` failures; the tests it never ran are recorded as
  ``unknown``, so a row's ``killers`` are always real kills, possibly not all;
* a timeout counts as a kill only when a second run on that input fails too
  (a timeout near a tight limit may be jitter).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from evalplus_ng.evaluation.verdicts import EvalConfig, _parts
from evalplus_ng.jobs import one_input
from evalplus_ng.oracle.groundtruth import GroundTruth
from evalplus_ng.protocols import Executor
from evalplus_ng.records import Job, JobResult, Status, Task


@dataclass(frozen=True)
class KillConfig:
    """Time limits (as in ``evaluate``) and the timeout budget of one candidate's job."""

    floor_seconds: float = 1.0
    factor: float = 4.0
    max_timeouts: int = 1
    #: Stop a candidate after this many failing tests (None: run them all). Enough killers
    #: to choose from; the rest are ``unknown``.
    max_failures: int | None = None


@dataclass(frozen=True)
class KillRow:
    """One candidate: the tests that kill it and the tests it never ran."""

    killers: frozenset[int]
    unknown: frozenset[int] = frozenset()

    @property
    def killed(self) -> bool:
        """True when some test of the suite kills the candidate."""
        return bool(self.killers)


def suite_tests(task: Task, truth: GroundTruth) -> list[int]:
    """The task's tests: usable base inputs, then usable plus inputs, as suite-wide numbers."""
    n_base = len(task.base_inputs)
    return [*truth.base.usable, *(n_base + j for j in truth.plus.usable)]


def _part_ids(task: Task, truth: GroundTruth) -> list[list[int]]:
    n_base = len(task.base_inputs)
    ids = [list(truth.base.usable)]
    if task.plus_inputs:
        ids.append([n_base + j for j in truth.plus.usable])
    return ids


@dataclass
class _Pending:
    killers: set[int]
    unknown: set[int]
    timeouts: list[tuple[int, int]]  # (part, position in the part)


def _read(result: JobResult, ids: Sequence[int], row: _Pending, part: int) -> None:
    if result.load.status is not Status.OK:
        row.killers.update(ids)  # a candidate that does not load fails every test
        return
    for position, (outcome, ok) in enumerate(zip(result.outcomes, result.passed, strict=True)):
        if ok:
            continue
        if outcome.status is Status.TIMEOUT:
            row.timeouts.append((part, position))
        else:
            row.killers.add(ids[position])
    row.unknown.update(ids[len(result.outcomes):])


def kill_rows(task: Task, truth: GroundTruth, codes: Sequence[str], executor: Executor,
              config: KillConfig = KillConfig()) -> list[KillRow]:
    """One row per candidate in ``codes``: which tests kill it."""
    templates = [part.job for part in
                 _parts(task, truth, EvalConfig(config.floor_seconds, config.factor, True))]
    ids = _part_ids(task, truth)
    jobs = (replace(template, code=code, max_timeouts=config.max_timeouts,
                    max_failures=config.max_failures)
            for code in codes for template in templates)
    results = iter(executor.map(jobs))
    rows = [_Pending(set(), set(), []) for _ in codes]
    for row in rows:
        for part in range(len(templates)):
            _read(next(results), ids[part], row, part)
    # Second run of every timed-out input, the same way; only repeat failures count.
    confirm: list[tuple[_Pending, int, int]] = []
    confirm_jobs: list[Job] = []
    for row, code in zip(rows, codes, strict=True):
        for part, position in row.timeouts:
            confirm.append((row, part, position))
            confirm_jobs.append(one_input(templates[part], code, position))
    for (row, part, position), result in zip(confirm, executor.map(confirm_jobs), strict=True):
        if not result.all_passed:
            row.killers.add(ids[part][position])
    return [KillRow(frozenset(row.killers), frozenset(row.unknown - row.killers))
            for row in rows]


def fails_any(task: Task, truth: GroundTruth, code: str, tests: Sequence[int],
                  executor: Executor, config: KillConfig = KillConfig()) -> bool:
    """True when ``code`` fails any of ``tests`` (fail-fast; for rows with unknown tests)."""
    templates = [part.job for part in
                 _parts(task, truth, EvalConfig(config.floor_seconds, config.factor, False))]
    wanted = set(tests)
    jobs: list[Job] = []
    for template, ids in zip(templates, _part_ids(task, truth), strict=True):
        positions = [p for p, test in enumerate(ids) if test in wanted]
        if not positions:
            continue
        expected = template.expected or []
        jobs.append(replace(template, code=code,
                            inputs=[template.inputs[p] for p in positions],
                            time_limits=[template.time_limits[p] for p in positions],
                            expected=[expected[p] for p in positions]))
    return any(not result.all_passed for result in executor.map(jobs))
