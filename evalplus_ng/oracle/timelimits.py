"""Calibrate per-test time limits in machine-independent units.

The limit of a test is ``max(floor, factor x t_gt)`` (EvalPlus's rule, floor
0.2 s and factor 4 by default), where ``t_gt`` is the ground truth's time on
that input: the median of several warm calls, each timed in the sandbox child
with ``time.perf_counter``. A suite stores ``t_gt`` divided by ``t_ref``, the
median time of a short fixed pure-Python workload measured in a sandbox child
just before, so the stored numbers are *reference units*. Whoever evaluates
measures ``t_ref`` again, the same way, on their machine and converts back: a
suite calibrated on a fast machine does not time out correct code on a slow
(or busy) one.

The reference runs in a job of its own, never between ground-truth calls: a
child that has just sent many results competes for the CPU with the processes
relaying them, which made the reference twice as slow in such a position.

Timings are the one part of a suite that is not reproducible byte for byte;
units are rounded to :data:`DIGITS` significant digits to limit churn.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import replace

from evalplus_ng.errors import EvalplusError
from evalplus_ng.jobs import task_job
from evalplus_ng.oracle.groundtruth import GROUND_TRUTH_SECONDS
from evalplus_ng.protocols import Executor
from evalplus_ng.records import Calibration, Job, JobResult, Status, Task
from evalplus_ng.serialize import encode

#: EvalPlus's defaults: a test may take 4 times the ground truth, and at least 0.2 s.
DEFAULT_FLOOR_SECONDS = 0.2
DEFAULT_FACTOR = 4.0
#: Timed passes over a task's inputs, after one untimed warm-up pass.
PASSES = 5
#: Calls of the reference workload when it is measured alone (at evaluation time).
REFERENCE_CALLS = 11
#: Significant digits kept of each unit value.
DIGITS = 2

#: Tasks timed between two measurements of the reference workload.
CHUNK = 8

#: Name of the reference workload; change it whenever its code changes.
REFERENCE_NAME = "mixed-loop-v1"
_REFERENCE = "__evalplus_ng_reference__"
# About 20 ms of plain interpreter work on a current machine: arithmetic,
# a dict, a list and strings, the staples of benchmark ground truths.
REFERENCE_SOURCE = f'''
def {_REFERENCE}():
    counts = {{}}
    words = []
    acc = 0
    for i in range(160000):
        key = i % 251
        counts[key] = counts.get(key, 0) + 1
        acc = (acc * 31 + i) % 1000003
        if i % 8 == 0:
            words.append(str(acc))
    words.sort()
    return acc + len(counts) + len(",".join(words))
'''


def limit_seconds(units: float, seconds_per_unit: float, floor: float, factor: float) -> float:
    """The time limit of one test: ``max(floor, factor x units x seconds_per_unit)``."""
    return max(floor, factor * units * seconds_per_unit)


def to_units(seconds: float, reference_seconds: float) -> float:
    """``seconds`` in reference units, rounded to :data:`DIGITS` significant digits."""
    if reference_seconds <= 0:
        raise ValueError("the reference time must be positive")
    return float(f"{seconds / reference_seconds:.{DIGITS - 1}e}")


def seconds_per_unit(calibration: Calibration, reference_seconds: float | None) -> float:
    """How long one unit lasts here: ``t_ref`` measured now, else at calibration time.

    A suite calibrated with another reference workload (another version) cannot be
    converted with this one's time: its own recorded time is used.
    """
    if calibration.reference_seconds is None:
        return 1.0  # legacy suites store seconds
    if reference_seconds and calibration.reference == REFERENCE_NAME:
        return reference_seconds
    return calibration.reference_seconds


def timing_job(task: Task, passes: int = PASSES,
               only: Sequence[int] | None = None, warm_up: bool = True) -> Job:
    """One job calling the ground truth on every input (base then plus; ``only`` those
    positions) ``passes + 1`` times (``passes`` without the warm-up pass).

    Whole passes rather than repeats of one input, so that a burst of load
    spoils one pass rather than every call on an input; the first pass warms up.
    """
    everything = task.base_inputs + task.plus_inputs
    chosen = everything if only is None else [everything[i] for i in only]
    one_pass = [encode(list(args)) for args in chosen]
    calls = one_pass * (passes + warm_up)
    return task_job(task, task.solution, seconds=GROUND_TRUTH_SECONDS, wires=calls,
                    fail_fast=False)


def medians(result: JobResult, inputs: int, passes: int = PASSES,
            warm_up: bool = True) -> list[float]:
    """Per-input median time of the timed passes of a :func:`timing_job`, in seconds.

    An input whose calls did not all run (the job broke off) uses those that did;
    one that never ran gets 0 (the ground truth cannot judge it anyway).
    """
    if result.load.status is not Status.OK:
        raise EvalplusError(f"ground truth does not load: {result.load.error}")
    times: list[list[float]] = [[] for _ in range(inputs)]
    first = inputs if warm_up else 0
    for position in range(first, min(len(result.outcomes), inputs * (passes + warm_up))):
        times[position % inputs].append(result.outcomes[position].seconds)
    return [statistics.median(row) if row else 0.0 for row in times]


def reference_job(calls: int = REFERENCE_CALLS) -> Job:
    """A job calling the reference workload ``calls`` times (the first one warms up)."""
    return Job(REFERENCE_SOURCE, _REFERENCE, [[]] * calls, [GROUND_TRUTH_SECONDS] * calls,
               task_id="reference")


def measure_reference(executor: Executor, calls: int = REFERENCE_CALLS) -> float:
    """Median time of the reference workload in a sandbox child, in seconds."""
    result = executor.run(reference_job(calls))
    times = [o.seconds for o in result.outcomes[1:] if o.status is Status.OK]
    if result.load.status is not Status.OK or not times:
        raise EvalplusError("the reference workload did not run in the sandbox")
    return statistics.median(times)


def calibrate_tasks(
    tasks: Sequence[Task],
    executor: Executor,
    floor: float = DEFAULT_FLOOR_SECONDS,
    factor: float = DEFAULT_FACTOR,
    passes: int = PASSES,
    on_done: Callable[[int, int], None] | None = None,
) -> list[Task]:
    """The tasks with a fresh :class:`Calibration` each (inputs and code unchanged).

    The reference workload is measured alone (as ``evaluate`` measures it) before
    every :data:`CHUNK` tasks, so that a change of load during calibration moves
    both times of a task alike.
    """
    if floor <= 0 or factor < 1 or passes < 1:
        raise ValueError("need floor > 0, factor >= 1 and passes >= 1")
    calibrated: list[Task] = []
    for first in range(0, len(tasks), CHUNK):
        chunk = tasks[first:first + CHUNK]
        reference = measure_reference(executor)
        # One cold timed pass of every input (a cold call is no faster than a warm one);
        # warm passes only where the time could decide the limit (``factor x t`` within 4x
        # of the floor): a limit is the floor for the rest, whatever their time, and most
        # inputs take microseconds.
        results = list(executor.map(timing_job(task, 1, warm_up=False) for task in chunk))
        times_of: list[list[float]] = []
        for task, result in zip(chunk, results, strict=True):
            try:
                times_of.append(medians(result, len(task.base_inputs) + len(task.plus_inputs),
                                        1, warm_up=False))
            except EvalplusError as exc:
                raise EvalplusError(f"{task.task_id}: {exc}") from None
        close = [[i for i, t in enumerate(times) if factor * t >= floor / 4]
                 for times in times_of]
        again = [(n, only) for n, only in enumerate(close) if only]
        if passes > 1 and again:
            jobs = (timing_job(chunk[n], passes, only) for n, only in again)
            for (n, only), result in zip(again, executor.map(jobs), strict=True):
                task, times = chunk[n], times_of[n]
                try:
                    for position, seconds in zip(only, medians(result, len(only), passes),
                                                 strict=True):
                        times[position] = seconds
                except EvalplusError as exc:
                    raise EvalplusError(f"{task.task_id}: {exc}") from None
        for task, times in zip(chunk, times_of, strict=True):
            units = tuple(to_units(seconds, reference) for seconds in times)
            calibrated.append(replace(task, calibration=Calibration(
                units, floor, factor, REFERENCE_NAME, float(f"{reference:.3e}"))))
            if on_done is not None:
                on_done(len(calibrated), len(tasks))
    return calibrated
