"""Sandbox jobs made from a task: the one place a :class:`~evalplus_ng.records.Job` takes
a task's entry point, id, special oracle, equality and tolerance, so that no caller can
forget one (a job judged with the wrong equality passes what it should fail)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from evalplus_ng.records import Job, Task
from evalplus_ng.serialize import encode
from evalplus_ng.types import Args, Wire


def task_job(task: Task, code: str, inputs: Sequence[Args] | None = None,
             seconds: float | Sequence[float] = 0.0, *, wires: Sequence[Wire] | None = None,
             expected: Sequence[Wire] | None = None, **options: Any) -> Job:
    """A job running ``code`` (a sample's, or the task's ground truth) on ``inputs`` of
    ``task`` (or on ``wires``, inputs already encoded), each within ``seconds`` (one limit
    for all, or one per input), its outputs judged against ``expected`` when given.
    ``options`` are :class:`~evalplus_ng.records.Job`'s other fields."""
    if (inputs is None) == (wires is None):
        raise ValueError("give inputs or wires, not both")
    encoded = list(wires) if wires is not None else [encode(list(args)) for args in inputs or ()]
    limits = [seconds] * len(encoded) if isinstance(seconds, int | float) else list(seconds)
    return Job(code=code, entry_point=task.entry_point, inputs=encoded, time_limits=limits,
               expected=expected, task_id=task.task_id, atol=task.atol, oracle=task.oracle,
               equality=task.equality, **options)
