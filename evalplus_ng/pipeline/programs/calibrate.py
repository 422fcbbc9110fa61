"""Time limits for the tests ``augment`` made for program tasks: the reference runs again
on a sample of the tests whose time could decide their limit (each task's slowest), the
others' slowest runs are estimated from the slowdown seen there, and each test gets
:func:`~evalplus_ng.oracle.programs.timelimits.limit_of` its slowest run (the rule and why:
:mod:`evalplus_ng.oracle.programs.timelimits`).

Each task's limits are checkpointed in ``OUT/checkpoints/program-limits/`` under a key of
the rule, the reference, the tests and their first times, so an interrupted run resumes
where it stopped and a finished one times nothing again (its file is then the same bytes).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from evalplus_ng.files import write_atomically
from evalplus_ng.oracle.programs.answers import NewTest
from evalplus_ng.oracle.programs.timelimits import (
    LimitRule,
    Timed,
    repeat_chunks,
    repeat_job,
    timed,
)
from evalplus_ng.pipeline.augment import digest
from evalplus_ng.pipeline.checkpoints import resume
from evalplus_ng.pipeline.context import Progress
from evalplus_ng.protocols import Executor
from evalplus_ng.records import Job, JobResult, ProgramTask
from evalplus_ng.tasks.spec import file_stem

#: Part of every limits checkpoint's key: bumped whenever what a checkpoint holds changes.
FORMAT_VERSION = 2


@dataclass(frozen=True)
class TaskLimits:
    """One task's new tests timed: each one's limit (seconds), and the reference's runs
    they follow from (:class:`~evalplus_ng.oracle.programs.timelimits.Timed`)."""

    task_id: str
    limits: tuple[float, ...]
    timed: Timed

    def record(self) -> dict[str, Any]:
        """Its fields as a checkpoint holds them (the runs' fields beside the limits)."""
        return {"task_id": self.task_id, "limits": self.limits, **asdict(self.timed)}


def limits_path(out: Path, task_id: str) -> Path:
    """Where a task's limits are kept."""
    return out / "checkpoints" / "program-limits" / f"{file_stem(task_id)}.json"


def limits_key(task: ProgramTask, tests: Sequence[NewTest], rule: LimitRule) -> str:
    """Changes whenever anything that decides the task's limits changes: the rule, the
    reference and how outputs compare, and each test's input, output and first time."""
    return digest(str(FORMAT_VERSION), json.dumps(asdict(rule), sort_keys=True), task.task_id,
                  task.solution, task.equality, repr(task.atol),
                  *(part for new in tests
                    for part in (new.test.input, new.test.output, repr(new.seconds))))


def load_limits(path: Path, key: str) -> TaskLimits | None:
    """A task's limits when kept under ``key`` (None: absent, stale, unreadable)."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
        if document.get("key") != key:
            return None
        fields = document["limits"]
        return TaskLimits(str(fields["task_id"]), tuple(map(float, fields["limits"])),
                          Timed(tuple(map(float, fields["slowest"])), int(fields["repeated"]),
                                int(fields["timeouts"]), int(fields["unstable"]),
                                int(fields["estimated"]), float(fields["slowdown"])))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def save_limits(path: Path, key: str, limits: TaskLimits) -> None:
    """A task's limits, written atomically."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, json.dumps({"key": key, "limits": limits.record()}) + "\n")


@dataclass(frozen=True)
class _Todo:
    """A task whose limits are not kept yet: its tests' first times and the positions to
    time again (its sample), one list per job."""

    task: ProgramTask
    tests: tuple[NewTest, ...]
    key: str
    firsts: tuple[float, ...]
    chunks: tuple[tuple[int, ...], ...]

    def jobs(self, rule: LimitRule) -> Iterator[Job]:
        plain = [new.test for new in self.tests]
        for positions in self.chunks:
            yield repeat_job(self.task, plain, self.firsts, positions, rule)


def calibrate_program_tests(
        items: Sequence[tuple[ProgramTask, Sequence[NewTest]]], rule: LimitRule, out: Path,
        executor: Callable[[], Executor], progress: Progress | None = None,
        known: Mapping[str, TaskLimits] | None = None) -> dict[str, TaskLimits]:
    """Each task's limits (by task id) for its new tests (``items``: a task and its tests
    as ``augment`` kept them, their first times with them), from its checkpoint where
    kept, else from ``known`` (limits a timings file gives: checkpointed, nothing timed),
    else timed now on ``executor()`` (asked for only when some test needs timing again)
    and checkpointed. Tasks without tests get none. ``progress(done, total)`` counts the
    tasks."""
    keyed = [(task, tuple(tests), limits_key(task, tests, rule)) for task, tests in items
             if tests]
    found, missing = resume(keyed, lambda item: item[0].task_id,
                            lambda item: load_limits(limits_path(out, item[0].task_id), item[2]))
    todo: list[_Todo] = []
    for task, tests, key in missing:
        given = (known or {}).get(task.task_id)
        if given is not None:
            save_limits(limits_path(out, task.task_id), key, given)
            found[task.task_id] = given
            continue
        firsts = tuple(new.seconds for new in tests)
        chunks = tuple(map(tuple, repeat_chunks(firsts, rule)))
        todo.append(_Todo(task, tests, key, firsts, chunks))
    total = len(found) + len(todo)

    def finish(item: _Todo, results: Sequence[JobResult]) -> None:
        got = timed(item.firsts, item.chunks, results, rule)
        limits = TaskLimits(item.task.task_id, got.limits(rule), got)
        save_limits(limits_path(out, item.task.task_id), item.key, limits)
        found[item.task.task_id] = limits
        if progress is not None:
            progress(len(found), total)

    if progress is not None and total:
        progress(len(found), total)
    waiting = [item for item in todo if item.chunks]
    for item in todo:
        if not item.chunks:
            finish(item, [])
    if waiting:
        jobs = (job for item in waiting for job in item.jobs(rule))
        results = iter(executor().map(jobs))
        for item in waiting:
            finish(item, [next(results) for _chunk in item.chunks])
    return found
