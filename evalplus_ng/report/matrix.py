"""The per-model x per-task view: each model's samples of a task, and the first of them
that failed (which test tier, what it did, on which input, and its code).

Pure functions on a results document as ``evaluate`` (or EvalPlus) writes it; texts are
cut to a length a page can hold, never escaped here (the page escapes what it shows).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from evalplus_ng.report.summary import TaskCounts
from evalplus_ng.types import TaskId

#: Longest failing input and sample code shown, in characters (inputs of the plus and
#: stress tiers run to megabytes).
INPUT_CHARS = 400
CODE_CHARS = 6000
#: Characters of a failure's assert diff shown (the results file bounds it already).
DIFF_CHARS = 6000


@dataclass(frozen=True)
class Failure:
    """The first failing sample of a task in one results file: its place among the
    task's samples (from 0), the tier it failed (``base`` or ``plus``), the status and
    failure kind the file records ("" where it records none), its first failing input
    as call arguments (None where the file lists none: the code did not load, or the
    file keeps no inputs), the like-base input a kill also fails (None where there is
    none) and its code."""

    sample: int
    tier: str
    status: str
    kind: str
    test: str | None
    also: str | None
    code: str
    #: Its wrong output against the expected one, as pytest shows a failing assert ("" where
    #: the file records none: the failure was not a wrong output, or an older file).
    diff: str = ""


@dataclass(frozen=True)
class Cell:
    """One model's samples of one task: how many, how many pass base, how many pass base
    and plus, and the first that failed (None when all passed)."""

    samples: int
    base: int
    plus: int
    failure: Failure | None

    @property
    def share(self) -> float:
        """The share of samples passing every test the file judged (0 to 1)."""
        return self.plus / self.samples


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, saying how long it was."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]} ... ({len(text):,} characters in all)"


def call_text(args: Any) -> str:
    """A test input (a list of arguments, as results files keep them) as call arguments:
    ``([1, 2], 'a')``."""
    if isinstance(args, list):
        return clip("(" + ", ".join(map(repr, args)) + ")", INPUT_CHARS)
    return clip(repr(args), INPUT_CHARS)


def _first_test(tests: Any) -> str | None:
    return call_text(tests[0]) if isinstance(tests, list) and tests else None


def _failure(position: int, entry: Mapping[str, Any]) -> Failure:
    tier = "base" if entry.get("base_status") != "pass" else "plus"
    witness = entry.get("kill_test")
    return Failure(position, tier, str(entry.get(f"{tier}_status", "")),
                   str(entry.get(f"{tier}_failure", "")),
                   _first_test(entry.get(f"{tier}_fail_tests")),
                   call_text(witness) if isinstance(witness, list) else None,
                   clip(str(entry.get("solution", "")), CODE_CHARS),
                   clip(str(entry.get(f"{tier}_diff") or ""), DIFF_CHARS))


def first_failures(document: Mapping[str, Any]) -> dict[TaskId, Failure]:
    """Task -> the first sample that failed base, or passed base and failed plus, in a
    results document :func:`~evalplus_ng.report.summary.judged_file` accepted."""
    failures: dict[TaskId, Failure] = {}
    for task_id, entries in document["eval"].items():
        for position, entry in enumerate(entries):
            if entry.get("base_status") != "pass" or entry.get("plus_status") != "pass":
                failures[str(task_id)] = _failure(position, entry)
                break
    return failures


def cells(tasks: Mapping[TaskId, TaskCounts],
          failures: Mapping[TaskId, Failure]) -> dict[TaskId, Cell]:
    """The matrix column of one results file: its counts with its first failures."""
    return {task_id: Cell(counts.samples, counts.base, counts.plus, failures.get(task_id))
            for task_id, counts in tasks.items()}
