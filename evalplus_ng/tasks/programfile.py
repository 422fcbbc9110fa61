"""Program tasks: a JSON Lines file of tasks whose solutions read stdin and write stdout
(CodeContests' schema, as in ``../shared/datasets/stdio/tasks.jsonl.gz``; a user's own
file of the same schema too), and samples of programs for them.

Each line is one task: ``task_id`` (a non-empty string), ``prompt`` (the statement),
``canonical_solution`` (the reference program) and ``tests``, a non-empty list of
``{"input", "output", "public"}`` (two strings and a boolean, false when absent; the public
tests are the base tests), each with an optional ``origin`` (``plus`` or ``stress``: a
hidden test that ``augment`` made; absent for the dataset's own) and an optional
``time_limit`` (seconds a program may take on that test, above 0: what ``augment``
calibrates from the reference's runs; absent or null: the task's). Optional: ``name``;
``equality`` (``lines``, the default, or ``tokens``: :mod:`evalplus_ng.textjudge`);
``atol`` (numbers within this absolute or relative error; needs ``tokens``);
``time_limit`` (seconds a test may take, or null); ``contract`` (what ``augment`` wrote:
the input plan its new tests passed; not read); the flags ``multiple_answers_suspected``
and ``float_output_suspected`` (booleans, kept on the task as data: they change no
comparison); ``checker`` (the Python 3 source of a program that judges an output other
than the expected one, for "print any valid answer" tasks; it must compile; the protocol:
:mod:`evalplus_ng.checker`). Other fields (``source``, ``license``, ``difficulty``,
``tags``, ``memory_limit``) are not read. A malformed line is one
:class:`~evalplus_ng.errors.InputError` naming the file, the line and the problem.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from evalplus_ng.errors import InputError
from evalplus_ng.records import (
    DATASET_ORIGIN,
    LINES,
    PLUS_ORIGIN,
    PROGRAM_EQUALITIES,
    STRESS_ORIGIN,
    TOKENS,
    TOO_LARGE,
    ProgramTask,
    ProgramTest,
    Sample,
)
from evalplus_ng.tasks.artifact import write_jsonl
from evalplus_ng.tasks.samples import MAX_SOURCE_BYTES, sample_records
from evalplus_ng.tasks.sources import distinct_tasks, read_jsonl
from evalplus_ng.types import TaskId

#: Fields every program task has.
REQUIRED = ("task_id", "prompt", "canonical_solution", "tests")
#: Boolean hints a task may carry (:attr:`~evalplus_ng.records.ProgramTask.flags`).
FLAGS = ("multiple_answers_suspected", "float_output_suspected")
#: The origins a test ``augment`` made may name (the dataset's own tests name none).
MADE_ORIGINS = (PLUS_ORIGIN, STRESS_ORIGIN)
#: The text kept as the code of a sample too large to read (its first characters).
_HEAD_CHARS = 1000


def is_program_file(path: Path) -> bool:
    """Whether ``path`` is a tasks file of programs: its first task's ``tests`` are
    ``{"input", "output"}`` objects (a tasks file of functions has assert lines there).
    Reads the first line only; a file that cannot be read is not one."""
    try:
        for _number, record in read_jsonl(path):
            tests = record.get("tests")
            return (isinstance(tests, list) and bool(tests) and isinstance(tests[0], dict)
                    and "input" in tests[0])
    except InputError:
        return False
    return False


def _test(path: Path, line: int, position: int, value: Any) -> ProgramTest:
    where = f"test {position}"
    if not isinstance(value, dict):
        raise InputError(str(path), line, f"{where}: expected an object with 'input' and "
                                          "'output'")
    for name in ("input", "output"):
        if not isinstance(value.get(name), str):
            raise InputError(str(path), line, f"{where}: '{name}' must be a string")
    public = value.get("public", False)
    if not isinstance(public, bool):
        raise InputError(str(path), line, f"{where}: 'public' must be true or false")
    origin = value.get("origin", DATASET_ORIGIN)
    if "origin" in value and origin not in MADE_ORIGINS:
        raise InputError(str(path), line, f"{where}: unknown origin {origin!r}; known: "
                                          f"{', '.join(MADE_ORIGINS)} (absent: the dataset's)")
    if origin and public:
        raise InputError(str(path), line, f"{where}: a test of origin {origin!r} is never "
                                          "public")
    time_limit = _number(path, line, value, "time_limit", f"{where}: ")
    if time_limit == 0:
        raise InputError(str(path), line, f"{where}: 'time_limit' must be above 0")
    return ProgramTest(value["input"], value["output"], public, origin, time_limit)


def _number(path: Path, line: int, record: dict[str, Any], name: str,
            where: str = "") -> float | None:
    """A non-negative finite number field, None when absent or null."""
    value = record.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not (
            math.isfinite(value) and value >= 0):
        raise InputError(str(path), line, f"{where}'{name}' must be a non-negative number")
    return float(value)


def _checker(path: Path, line: int, record: dict[str, Any]) -> str:
    """The task's checker program, "" when absent or null; it must compile (it is not run
    here: compiling runs nothing of it)."""
    source = record.get("checker")
    if source is None:
        return ""
    if not isinstance(source, str) or not source.strip():
        raise InputError(str(path), line, "'checker' must be a non-empty string (the source "
                                          "of a Python program)")
    try:
        compile(source, "checker.py", "exec", dont_inherit=True)
    except SyntaxError as exc:
        raise InputError(str(path), line, f"'checker' does not compile: {exc.msg} (its line "
                                          f"{exc.lineno})") from None
    except (ValueError, RecursionError, MemoryError) as exc:  # a NUL byte, too deep
        raise InputError(str(path), line, f"'checker' does not compile: "
                                          f"{type(exc).__name__}: {exc}") from None
    return source


def program_task(path: Path, line: int, record: dict[str, Any]) -> ProgramTask:
    """One line of a tasks file of programs, checked."""
    missing = [name for name in REQUIRED if name not in record]
    if missing:
        raise InputError(str(path), line, f"missing field(s): {', '.join(missing)}")
    for name in ("task_id", "canonical_solution"):
        if not isinstance(record[name], str) or not record[name].strip():
            raise InputError(str(path), line, f"'{name}' must be a non-empty string")
    if not isinstance(record["prompt"], str):
        raise InputError(str(path), line, "'prompt' must be a string")
    tests = record["tests"]
    if not isinstance(tests, list) or not tests:
        raise InputError(str(path), line, "'tests' must be a non-empty list of "
                                          "{input, output, public} objects")
    equality = record.get("equality", LINES)
    if equality not in PROGRAM_EQUALITIES:
        raise InputError(str(path), line, f"unknown equality {equality!r}; known: "
                                          f"{', '.join(PROGRAM_EQUALITIES)}")
    atol = _number(path, line, record, "atol") or 0.0
    if atol and equality != TOKENS:
        raise InputError(str(path), line, "'atol' compares numbers token by token: it needs "
                                          f"\"equality\": \"{TOKENS}\"")
    time_limit = _number(path, line, record, "time_limit")
    if time_limit == 0:
        raise InputError(str(path), line, "'time_limit' must be above 0")
    flags = []
    for flag in FLAGS:
        value = record.get(flag, False)
        if not isinstance(value, bool):
            raise InputError(str(path), line, f"'{flag}' must be true or false")
        if value:
            flags.append(flag)
    name = record.get("name", "")
    if not isinstance(name, str):
        raise InputError(str(path), line, "'name' must be a string")
    return ProgramTask(
        task_id=record["task_id"], prompt=record["prompt"],
        solution=record["canonical_solution"],
        tests=tuple(_test(path, line, position, test)
                    for position, test in enumerate(tests)),
        equality=str(equality), atol=atol, time_limit=time_limit, flags=frozenset(flags),
        name=name, checker=_checker(path, line, record))


def load_program_tasks(path: Path) -> list[ProgramTask]:
    """The program tasks of the file ``path`` (``.jsonl`` or ``.jsonl.gz``), in file order."""
    return [task for task, _record in load_program_records(path)]


def load_program_records(path: Path) -> list[tuple[ProgramTask, dict[str, Any]]]:
    """Each program task of the file ``path`` with its line as read (every field, those
    not read too), in file order."""
    records = list(read_jsonl(path))
    tasks = distinct_tasks(path, ((line, program_task(path, line, record))
                                  for line, record in records))
    return list(zip(tasks, (record for _line, record in records), strict=True))


def record_of_test(test: ProgramTest) -> dict[str, Any]:
    """One test as a tasks file holds it (``origin`` only where ``augment`` made it,
    ``time_limit`` only where the test has its own)."""
    return {"input": test.input, "output": test.output, "public": test.public,
            **({"origin": test.origin} if test.origin else {}),
            **({"time_limit": test.time_limit} if test.time_limit is not None else {})}


def augmented_record(record: dict[str, Any], tests: Sequence[ProgramTest],
                     contract: dict[str, Any] | None) -> dict[str, Any]:
    """A task's line of a tasks file (``record``, as read) with ``tests`` after its own
    (those of an earlier ``augment`` left out) and ``contract`` (the plan new inputs
    passed, null where there is none): every other field as it was."""
    own = [test for test in record["tests"] if not test.get("origin")]
    kept = {name: value for name, value in record.items() if name != "contract"}
    return {**kept, "tests": own + [record_of_test(test) for test in tests],
            "contract": contract}


def write_program_file(records: Sequence[dict[str, Any]], path: Path) -> None:
    """A tasks file of programs (gzip where ``path`` ends in .gz), the same bytes for the
    same records."""
    write_jsonl(path, records)


def read_program_samples(path: Path, tasks: Mapping[TaskId, ProgramTask]) -> list[Sample]:
    """Samples of programs in file order: ``task_id`` and ``solution`` (or ``completion``),
    the whole program, run as written (nothing sanitized yet). An answer over
    :data:`~evalplus_ng.tasks.samples.MAX_SOURCE_BYTES` fails unread
    (:data:`~evalplus_ng.records.TOO_LARGE`). A samples folder in EvalPlus's layout reads
    as for functions. A sample of a task not in ``tasks`` is an error."""
    samples, _skipped = read_program_samples_of(path, tasks, partial=False)
    return samples


def read_program_samples_of(path: Path, tasks: Mapping[TaskId, ProgramTask], partial: bool,
                            ) -> tuple[list[Sample], Counter[TaskId]]:
    """:func:`read_program_samples`; with ``partial`` (``tasks`` may be a part of their
    dataset: a suite ``augment`` made of some of its tasks), samples of other tasks are
    checked and left out, counted per task, as EvalPlus warns and skips them. The samples
    may then be none: the caller decides whether that is an error."""
    samples: list[Sample] = []
    skipped: Counter[TaskId] = Counter()
    for record in sample_records(path):
        where, line, fields = record.where, record.line, record.fields
        task_id = fields.get("task_id")
        if not isinstance(task_id, str):
            raise InputError(where, line, "missing or non-string 'task_id'")
        if task_id not in tasks and not partial:
            raise InputError(where, line, f"unknown task_id {task_id!r}")
        answer = fields.get("solution", fields.get("completion"))
        if not isinstance(answer, str):
            raise InputError(where, line, "missing or non-string 'solution'")
        if task_id not in tasks:
            skipped[task_id] += 1
        elif len(answer.encode("utf-8", "surrogatepass")) > MAX_SOURCE_BYTES:
            samples.append(Sample(task_id, answer[:_HEAD_CHARS], record.index, TOO_LARGE))
        else:
            samples.append(Sample(task_id, answer, record.index))
    if not samples and not skipped:
        raise InputError(str(path), None, "no samples in file")
    return samples, skipped
