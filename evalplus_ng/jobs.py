"""Sandbox jobs made from a task: the one place a :class:`~evalplus_ng.records.Job` takes
a task's entry point, id, special oracle, equality and tolerance, so that no caller can
forget one (a job judged with the wrong equality passes what it should fail); a program
task's job too (:func:`program_job`), and its checker's (:func:`checker_job`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from evalplus_ng.checker import CHECKER_OUTPUT_BYTES, checker_stdin
from evalplus_ng.records import CHECKER_VERDICT, Job, ProgramTask, ProgramTest, Task
from evalplus_ng.serialize import encode
from evalplus_ng.textjudge import ACCEPT
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


def program_job(task: ProgramTask, code: str, tests: Sequence[ProgramTest],
                seconds: float | Sequence[float], *, judged: bool = True,
                **options: Any) -> Job:
    """A job running the program ``code`` (a sample's, or the task's reference) on
    ``tests`` of ``task`` (each input on its stdin, in a fresh process), each within
    ``seconds``, its stdout judged against the tests' outputs with the task's equality and
    tolerance unless ``judged`` is false. ``options`` are :class:`~evalplus_ng.records.Job`'s
    other fields; a program takes no line budget, second call or batching."""
    if options.keys() & {"max_lines", "twice", "batch", "oracle"}:
        raise ValueError("a program job takes no max_lines, twice, batch or oracle")
    limits = ([float(seconds)] * len(tests) if isinstance(seconds, int | float)
              else [float(limit) for limit in seconds])
    return Job(code=code, entry_point="", inputs=[test.input for test in tests],
               time_limits=limits,
               expected=[test.output for test in tests] if judged else None,
               task_id=task.task_id, atol=task.atol, equality=task.equality, program=True,
               **options)


def checker_job(task: ProgramTask, checked: Sequence[tuple[ProgramTest, str]],
                seconds: float, *, fail_fast: bool = True) -> Job:
    """A job running ``task``'s checker (:mod:`evalplus_ng.checker`) once for each
    ``(test, output)`` of ``checked``, within ``seconds`` a run, each run passing when the
    checker accepts the output (the judge reads its stdout: the job's equality is
    :data:`~evalplus_ng.records.CHECKER_VERDICT`); ``fail_fast``: the first run that does
    not accept ends the job."""
    if not task.checker:
        raise ValueError(f"task {task.task_id!r} has no checker")
    # Expected "ok": a stdout of that very text passes unread (it accepts); any other is
    # read by the judge (a stdout of the expected text must never pass unread otherwise).
    return Job(code=task.checker, entry_point="",
               inputs=[checker_stdin(test.input, test.output, output)
                       for test, output in checked],
               time_limits=[float(seconds)] * len(checked), expected=[ACCEPT] * len(checked),
               task_id=task.task_id, equality=CHECKER_VERDICT, program=True,
               fail_fast=fail_fast, max_output_bytes=CHECKER_OUTPUT_BYTES)


def one_input(template: Job, code: str, position: int) -> Job:
    """``template`` reduced to its input at ``position``, for ``code``: a second run of an
    input that timed out, with no early stop (a kill is confirmed only when it fails
    again)."""
    expected = template.expected
    return replace(template, code=code, inputs=[template.inputs[position]],
                   time_limits=[template.time_limits[position]],
                   expected=None if expected is None else [expected[position]],
                   max_timeouts=None, max_failures=None)
