"""What a kill rests on: an input like the base tests, or an edge class the prompt omits.

A kill (a sample passing the base tests and failing the plus tests) is not always a
bug: it may rest on an input the task never asked about (an empty list, an integer
past 2**53, a non-ASCII letter). A class of :data:`~evalplus_ng.generate.classes.KINDS` is an
**edge** of a task when none of its base inputs has it and its prompt does not mention
it (:data:`~evalplus_ng.generate.classes.MENTIONS`: a few keyword rules per class). A kill is
**like base** when the sample fails some plus test whose input has no edge class, else
it rests on edge classes, named by its first failing plus test.

With fail-fast judging only the first failing plus test is known. When that one has an
edge class, :func:`split_kills` judges the sample again, fail-fast, on the task's
plus inputs after it that have none (those before it passed): one more sandbox job per
such kill, and the ground truth of those inputs once per task.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from evalplus_ng.evaluation.verdicts import (
    EvalConfig,
    KillBasis,
    SampleResult,
    _ground_truth,
    _part,
)
from evalplus_ng.generate.classes import edges_of, input_kinds, unshown_kinds
from evalplus_ng.protocols import Executor
from evalplus_ng.records import Job, JobResult, Task
from evalplus_ng.serialize import plain_json
from evalplus_ng.types import Args, TaskId


def edge_kinds(task: Task) -> frozenset[str]:
    """The task's edge classes: no base input has them, its prompt does not mention them."""
    return unshown_kinds(task.prompt, task.base_inputs)


def _key(plain: Any) -> str:
    return json.dumps(plain, sort_keys=True, allow_nan=True)


@dataclass(frozen=True)
class _TaskView:
    """One task's plus inputs as the split needs them: edge classes, position by content."""

    task: Task
    edges: frozenset[str]
    position: Mapping[str, int]
    #: Positions of the plus inputs without an edge class.
    plain: tuple[int, ...]

    @classmethod
    def of(cls, task: Task) -> _TaskView:
        edges = edge_kinds(task)
        position: dict[str, int] = {}
        for index, args in enumerate(task.plus_inputs):
            position.setdefault(_key(plain_json(list(args))), index)
        plain = tuple(i for i, args in enumerate(task.plus_inputs) if not edges_of(args, edges))
        return cls(task, edges, position, plain)

    def index(self, failing: Any) -> int | None:
        """Where a failing test (its arguments, or their plain JSON from a results file)
        stands among the plus inputs; None when it is not one of them."""
        return self.position.get(_key(plain_json(list(failing))))


@dataclass(frozen=True)
class _Pending:
    """A kill whose first failing plus test has an edge class: to judge further."""

    classes: tuple[str, ...]
    edges: tuple[str, ...]
    after: int  # judge the edge-free plus inputs after this position (-1: all of them)


def _basis(view: _TaskView, result: SampleResult, details: bool) -> KillBasis | _Pending:
    """A kill's basis from its recorded failing tests, or what is left to judge."""
    known = [i for i in map(view.index, result.plus_fail_tests) if i is not None]
    if not known:  # no failing input recorded (a crash cut the run short): judge them all
        return _Pending((), (), -1)
    index = known[0]
    classes = input_kinds(view.task.plus_inputs[index])
    edges = tuple(kind for kind in classes if kind in view.edges)
    if not edges:
        return KillBasis(classes, edges, True)
    for other in known[1:]:  # with --details, every failing test is recorded
        if not edges_of(view.task.plus_inputs[other], view.edges):
            return KillBasis(classes, edges, True, view.task.plus_inputs[other])
    if details or not any(i > index for i in view.plain):
        return KillBasis(classes, edges, False)
    return _Pending(classes, edges, index)


def _sub_task(task: Task, positions: Sequence[int]) -> Task:
    """``task`` with only the plus inputs at ``positions`` (and their calibrated units)."""
    calibration = task.calibration
    offset = len(task.base_inputs)
    return replace(task, base_inputs=(), plus_inputs=tuple(task.plus_inputs[i] for i in positions),
                   calibration=calibration and replace(
                       calibration, units=tuple(calibration.units[offset + i] for i in positions)))


def split_kills(
    tasks: Mapping[TaskId, Task],
    results: Mapping[int, SampleResult],
    executor: Executor,
    config: EvalConfig,
) -> dict[int, SampleResult]:
    """``results`` with each kill's :class:`KillBasis` filled in (kills that have one,
    and other samples, as they are). Identical code of a task is judged once."""
    views: dict[TaskId, _TaskView] = {}
    decided: dict[tuple[TaskId, str], KillBasis | _Pending] = {}
    for result in results.values():
        key = (result.task_id, result.solution)
        if not result.killed or result.kill is not None or key in decided:
            continue
        if result.task_id not in views:
            views[result.task_id] = _TaskView.of(tasks[result.task_id])
        decided[key] = _basis(views[result.task_id], result, config.details)
    pending = {key: basis for key, basis in decided.items() if isinstance(basis, _Pending)}
    decided.update(_judge_further(views, pending, executor, config))
    split: dict[int, SampleResult] = {}
    for position, result in results.items():
        basis = decided.get((result.task_id, result.solution))
        if result.kill is None and isinstance(basis, KillBasis) and result.killed:
            result = replace(result, kill=basis)
        split[position] = result
    return split


def _judge_further(views: Mapping[TaskId, _TaskView],
                   pending: Mapping[tuple[TaskId, str], _Pending],
                   executor: Executor, config: EvalConfig,
                   ) -> dict[tuple[TaskId, str], KillBasis]:
    """Judge each pending kill, fail-fast, on the edge-free plus inputs after its first
    failing one: like base when it fails one of them."""
    start: dict[TaskId, int] = {}
    for (task_id, _code), basis in pending.items():
        start[task_id] = min(start.get(task_id, basis.after), basis.after)
    wanted = {task_id: [i for i in views[task_id].plain if i > after]
              for task_id, after in start.items()}
    subs = {task_id: _sub_task(views[task_id].task, positions)
            for task_id, positions in wanted.items()}
    truths = _ground_truth(list(subs.values()), executor, config.truth_batch)
    parts = {task_id: _part(sub, sub.plus_inputs, truths[task_id].plus, config, 0)
             for task_id, sub in subs.items()}
    jobs: list[Job] = []
    chosen: list[list[Args]] = []
    for (task_id, code), basis in pending.items():
        part, positions = parts[task_id], wanted[task_id]
        usable = truths[task_id].plus.usable
        keep = [n for n, i in enumerate(usable) if positions[i] > basis.after]
        job = replace(part.job, code=code, fail_fast=True,
                      inputs=[part.job.inputs[n] for n in keep],
                      time_limits=[part.job.time_limits[n] for n in keep],
                      expected=[(part.job.expected or [])[n] for n in keep])
        jobs.append(job)
        chosen.append([part.inputs[n] for n in keep])
    found: dict[tuple[TaskId, str], KillBasis] = {}
    outcomes = _map_nonempty(executor, jobs)
    for (key, basis), inputs, outcome in zip(pending.items(), chosen, outcomes, strict=True):
        if outcome is None or (outcome.all_passed and len(outcome.passed) == len(inputs)):
            found[key] = KillBasis(basis.classes, basis.edges, False)
            continue
        failing = [n for n, ok in enumerate(outcome.passed) if not ok]
        witness = inputs[failing[0]] if failing else None  # else no load, or a crash
        found[key] = KillBasis(basis.classes, basis.edges, True, witness)
    return found


def _map_nonempty(executor: Executor, jobs: Sequence[Job]) -> Iterator[JobResult | None]:
    """Each job's result in order; None for a job without inputs (not run)."""
    results = executor.map(job for job in jobs if job.inputs)
    for job in jobs:
        yield next(results) if job.inputs else None
