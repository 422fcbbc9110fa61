"""The timings file of a program ``augment`` (``OUT/reference-seconds.json``): what the
reference's time decided, per task, written by every run and replayed by ``augment
--timings FILE`` (:class:`~evalplus_ng.oracle.programs.answers.Timings` says why).

Per task, by :func:`~evalplus_ng.oracle.programs.answers.input_key`: each new test's input and
the reference's seconds on it (the run that kept it), the inputs dropped for time (over
the budget, or not run), the seconds of inputs it answered that are no test (its plan was
refuted: none is kept), and where limits were set, each test's slowest run (measured or
estimated) with the counts of how they were timed. A replay takes a task's drops and
seconds as they are, and its slowest runs where its tests are still the same inputs with
the same seconds; the limits then follow from the rule, as on the first run.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, TypeGuard

from evalplus_ng.errors import InputError
from evalplus_ng.files import write_json
from evalplus_ng.oracle.programs.answers import TIMED_DROP_VALUES, NewTest, Timings, input_key
from evalplus_ng.oracle.programs.timelimits import LimitRule, Timed
from evalplus_ng.pipeline.programs.calibrate import TaskLimits

#: The file's ``format``: 2 names each input (the first format listed seconds only).
FORMAT = 2
#: The counts of a task's calibration kept with its slowest runs.
_COUNTS = ("repeated", "timeouts", "unstable", "estimated", "slowdown")


@dataclass(frozen=True)
class TaskTimings:
    """One task's part of a timings file: its new tests' inputs (keys) and first seconds,
    in the artifact's order, its inputs dropped for time, the seconds of the inputs
    answered but kept as no test (a refuted plan), and its limits' slowest runs (None: no
    limits were set)."""

    task_id: str
    inputs: tuple[str, ...] = ()
    seconds: tuple[float, ...] = ()
    dropped: Mapping[str, str] = field(default_factory=dict)
    limits: TaskLimits | None = None
    answered: Mapping[str, float] = field(default_factory=dict)

    def timings(self) -> Timings:
        """What the reference's time decided for the task's inputs."""
        return Timings({**self.answered, **dict(zip(self.inputs, self.seconds, strict=True))},
                       dict(self.dropped))

    def limits_for(self, tests: Sequence[NewTest], rule: LimitRule) -> TaskLimits | None:
        """The task's limits by ``rule`` from the recorded slowest runs, where ``tests``
        are the recorded ones (the same inputs, in order, with the same seconds); None
        where they are not (or no limits were recorded): they must be timed."""
        if self.limits is None or tuple(input_key(new.test.input) for new in tests) \
                != self.inputs or tuple(new.seconds for new in tests) != self.seconds:
            return None
        return replace(self.limits, limits=self.limits.timed.limits(rule))

    def document(self) -> dict[str, Any]:
        """The task's entry in the file."""
        entry: dict[str, Any] = {"inputs": list(self.inputs), "seconds": list(self.seconds),
                                 "dropped": dict(self.dropped)}
        if self.answered:
            entry["answered"] = dict(self.answered)
        if self.limits is not None:
            entry["slowest"] = list(self.limits.timed.slowest)
            entry["calibration"] = {name: getattr(self.limits.timed, name) for name in _COUNTS}
        return entry


def task_timings(task_id: str, tests: Sequence[NewTest], dropped: Mapping[str, str],
                 answered: Mapping[str, float], limits: TaskLimits | None) -> TaskTimings:
    """A task's entry from what a run kept (``tests``), dropped for time, answered without
    keeping (a refuted plan) and timed."""
    return TaskTimings(task_id, tuple(input_key(new.test.input) for new in tests),
                       tuple(new.seconds for new in tests), dict(dropped), limits,
                       dict(answered))


def write_timings(path: Path, time_limit: float, rule: LimitRule | None,
                  tasks: Sequence[TaskTimings]) -> None:
    """The timings file: the budget, the limits' rule (if any) and each task's entry (the
    tasks with a new test or a drop for time, in the order given)."""
    write_json(path, {
        "format": FORMAT, "time_limit": time_limit,
        **({} if rule is None else {"limits": {**asdict(rule), "rule": rule.words()}}),
        "tasks": {task.task_id: task.document() for task in tasks
                  if task.inputs or task.dropped or task.answered}})


@dataclass(frozen=True)
class TimingsFile:
    """A timings file read: the budget its run gave the reference (``--time-limit``, which
    decided its drops) and each task's entry, by task id."""

    time_limit: float
    tasks: Mapping[str, TaskTimings]


def read_timings(path: Path) -> TimingsFile:
    """The timings file at ``path``; an :class:`~evalplus_ng.errors.InputError` naming the
    file and the problem where it is not one (unreadable, not JSON, of the first format,
    or a task's entry malformed)."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(str(path), None, f"cannot read the timings file: {exc}") from exc
    except json.JSONDecodeError as exc:
        raise InputError(str(path), exc.lineno, f"not JSON: {exc.msg}") from exc
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise InputError(str(path), None, "not a timings file of this version (format "
                         f"{FORMAT}: written by `augment` into OUT/reference-seconds.json)")
    tasks = document.get("tasks")
    if not isinstance(tasks, dict):
        raise InputError(str(path), None, "no 'tasks' object")
    time_limit = document.get("time_limit")
    if not _is_seconds(time_limit) or time_limit == 0:
        raise InputError(str(path), None, "no positive 'time_limit'")
    found: dict[str, TaskTimings] = {}
    for task_id, entry in tasks.items():
        try:
            found[task_id] = _entry(task_id, entry)
        except (TypeError, ValueError, KeyError) as exc:
            raise InputError(str(path), None, f"task {task_id!r}: {exc}") from exc
    return TimingsFile(float(time_limit), found)


def _is_seconds(value: Any) -> TypeGuard[int | float]:
    """Whether a JSON value is a number of seconds: finite, not negative, not a bool."""
    return isinstance(value, int | float) and not isinstance(value, bool) \
        and math.isfinite(value) and value >= 0


def _seconds(values: Any, name: str) -> tuple[float, ...]:
    if not isinstance(values, list) or not all(_is_seconds(value) for value in values):
        raise ValueError(f"'{name}' is not a list of seconds")
    return tuple(float(value) for value in values)


def _entry(task_id: str, entry: Any) -> TaskTimings:
    if not isinstance(entry, dict):
        raise TypeError("not an object")
    inputs = entry.get("inputs", [])
    if not isinstance(inputs, list) or not all(isinstance(key, str) for key in inputs):
        raise ValueError("'inputs' is not a list of keys")
    seconds = _seconds(entry.get("seconds", []), "seconds")
    if len(seconds) != len(inputs):
        raise ValueError(f"{len(inputs)} inputs but {len(seconds)} seconds")
    dropped = entry.get("dropped", {})
    if not isinstance(dropped, dict) or not all(
            isinstance(key, str) and reason in TIMED_DROP_VALUES
            for key, reason in dropped.items()):
        raise ValueError("'dropped' is not an object of keys to one of "
                         f"{sorted(TIMED_DROP_VALUES)}")
    limits = None
    if "slowest" in entry:
        slowest = _seconds(entry["slowest"], "slowest")
        if len(slowest) != len(inputs):
            raise ValueError(f"{len(inputs)} inputs but {len(slowest)} slowest runs")
        counts = entry.get("calibration", {})
        limits = TaskLimits(task_id, (), Timed(slowest, int(counts.get("repeated", 0)),
                                               int(counts.get("timeouts", 0)),
                                               int(counts.get("unstable", 0)),
                                               int(counts.get("estimated", 0)),
                                               float(counts.get("slowdown", 1.0))))
    answered = entry.get("answered", {})
    if not isinstance(answered, dict) or not all(
            isinstance(key, str) and _is_seconds(value) for key, value in answered.items()):
        raise ValueError("'answered' is not an object of keys to seconds")
    return TaskTimings(task_id, tuple(inputs), seconds, dict(dropped), limits,
                       {key: float(value) for key, value in answered.items()})
