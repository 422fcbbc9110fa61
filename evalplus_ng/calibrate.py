"""Calibrate per-test time limits in machine-independent units.

The limit of a test is ``max(floor, factor x t_gt)`` (EvalPlus's rule, floor
0.2 s and factor 4 by default), where ``t_gt`` is the ground truth's time on
that input: the median of several warm calls, each timed in the sandbox child
with ``time.perf_counter``. A suite stores ``t_gt`` divided by ``t_ref``, the
time of a short fixed pure-Python workload measured in the same child during
the same job, so the stored numbers are *reference units*. Whoever evaluates
measures ``t_ref`` again on their machine and converts back: a suite calibrated
on a fast machine does not time out correct code on a slow (or busy) one.

Timings are the one part of a suite that is not reproducible byte for byte;
units are rounded to :data:`DIGITS` significant digits to limit churn.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

from evalplus_ng.errors import EvalplusError
from evalplus_ng.groundtruth import GROUND_TRUTH_SECONDS
from evalplus_ng.records import Calibration, Status, Task
from evalplus_ng.sandbox import Job, JobResult
from evalplus_ng.serialize import encode
from evalplus_ng.types import Executor

#: EvalPlus's defaults: a test may take 4 times the ground truth, and at least 0.2 s.
DEFAULT_FLOOR_SECONDS = 0.2
DEFAULT_FACTOR = 4.0
#: Timed passes over a task's inputs, after one untimed warm-up pass.
PASSES = 5
#: Calls of the reference workload when it is measured alone (at evaluation time).
REFERENCE_CALLS = 11
#: Significant digits kept of each unit value.
DIGITS = 2

#: Name of the reference workload; change it whenever its code changes.
REFERENCE_NAME = "mixed-loop-v1"
_REFERENCE = "__evalplus_ng_reference__"
_TIMED = "__evalplus_ng_timed__"
# About 20-40 ms of plain interpreter work on a current machine: arithmetic,
# a dict, a list and strings, the staples of benchmark ground truths.
REFERENCE_SOURCE = f'''
def {_REFERENCE}():
    counts = {{}}
    words = []
    acc = 0
    for i in range(80000):
        key = i % 251
        counts[key] = counts.get(key, 0) + 1
        acc = (acc * 31 + i) % 1000003
        if i % 8 == 0:
            words.append(str(acc))
    words.sort()
    return acc + len(counts) + len(",".join(words))
'''
_HARNESS = REFERENCE_SOURCE + f'''

def {_TIMED}(which, *args):
    if which:
        return __ENTRY__(*args)
    return {_REFERENCE}()
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
    """How long one unit lasts here: ``t_ref`` measured now, else at calibration time."""
    if calibration.reference_seconds is None:
        return 1.0  # legacy suites store seconds
    return reference_seconds if reference_seconds else calibration.reference_seconds


def timing_job(task: Task, passes: int = PASSES) -> Job:
    """One job timing the ground truth on every input ``passes + 1`` times, with the reference.

    Each pass calls the reference workload, then every input (base then plus);
    the first pass warms caches and is not used.
    """
    if not task.entry_point.isidentifier():
        raise EvalplusError(f"{task.task_id}: entry point {task.entry_point!r} is not a name")
    one_pass = [encode([0])] + [encode([1, *args]) for args in task.base_inputs + task.plus_inputs]
    calls = one_pass * (passes + 1)
    return Job(
        code=task.solution + "\n\n" + _HARNESS.replace("__ENTRY__", task.entry_point),
        entry_point=_TIMED,
        inputs=calls,
        time_limits=[GROUND_TRUTH_SECONDS] * len(calls),
        task_id=task.task_id,
        fail_fast=False,
    )


def _seconds(result: JobResult, index: int) -> float | None:
    if index >= len(result.outcomes):
        return None
    return result.outcomes[index].seconds


def medians(result: JobResult, inputs: int, passes: int = PASSES) -> tuple[float, list[float]]:
    """Median reference time and per-input median ground-truth times of a :func:`timing_job`.

    An input the ground truth never answered gets the longest time seen on it
    (a failing input is not judged, so only the order of magnitude matters).
    """
    if result.load.status is not Status.OK:
        raise EvalplusError(f"ground truth does not load: {result.load.error}")
    width = inputs + 1
    reference: list[float] = []
    per_input: list[list[float]] = [[] for _ in range(inputs)]
    for run in range(1, passes + 1):
        start = run * width
        outcome = result.outcomes[start] if start < len(result.outcomes) else None
        if outcome is not None and outcome.status is Status.OK:
            reference.append(outcome.seconds)
        for index in range(inputs):
            seconds = _seconds(result, start + 1 + index)
            if seconds is not None:
                per_input[index].append(seconds)
    if not reference:
        raise EvalplusError("the reference workload did not run")
    return statistics.median(reference), [
        statistics.median(times) if times else 0.0 for times in per_input
    ]


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
    """The tasks with a fresh :class:`Calibration` each (inputs and code unchanged)."""
    if floor <= 0 or factor < 1 or passes < 1:
        raise ValueError("need floor > 0, factor >= 1 and passes >= 1")
    results: Iterable[JobResult] = executor.map(timing_job(task, passes) for task in tasks)
    calibrated: list[Task] = []
    for done, (task, result) in enumerate(zip(tasks, results, strict=True), start=1):
        count = len(task.base_inputs) + len(task.plus_inputs)
        try:
            reference, times = medians(result, count, passes)
        except EvalplusError as exc:
            raise EvalplusError(f"{task.task_id}: {exc}") from None
        units = tuple(to_units(seconds, reference) for seconds in times)
        calibrated.append(replace(task, calibration=Calibration(
            units, floor, factor, REFERENCE_NAME, float(f"{reference:.3e}"))))
        if on_done is not None:
            on_done(done, len(tasks))
    return calibrated
