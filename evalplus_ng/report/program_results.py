"""Results files of program tasks (stdin/stdout), as ``evaluate --dataset-file TASKS``
writes them (:mod:`evalplus_ng.pipeline.programs.evaluate`), read into the report's records.

A file judged one suite (``base``: the public tests; ``original``, ``plus``, ``stress``,
``full``: the public tests and then hidden ones): its ``base`` column is the public tests'
verdict and its ``plus`` column the suite's, so that a program task's file fills the same
:class:`~evalplus_ng.report.summary.JudgedFile` as a function's, its kind the suite. A
**kill** passes the public tests and fails the suite, counted by what failed it
(correctness apart from timeouts, :func:`~evalplus_ng.evaluation.program_verdicts.failure_status`)
and by the tier of its first failing test (``original``, ``plus`` or ``stress``: what
each tier finds that the tests before it did not; ``full`` runs the dataset's tests
before ``augment``'s). Each file's failing samples are counted the same way, the public
tests' failures among them.

Pure: documents in, records out. Errors are
:class:`~evalplus_ng.report.summary.ResultsFormatError`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from evalplus_ng.evaluation.program_verdicts import (
    BASE,
    FULL,
    ORIGINAL,
    PROGRAM_SUITES,
    PUBLIC,
    REFUSED,
    RESULTS_KIND,
    TIERS,
    RunStatus,
    failure_status,
)
from evalplus_ng.evaluation.verdicts import completeness
from evalplus_ng.report.matrix import CODE_CHARS, DIFF_CHARS, Failure, clip
from evalplus_ng.report.summary import (
    PROGRAM_FAILURES,
    UNRECORDED,
    JudgedFile,
    ResultsFormatError,
    TaskCounts,
)
from evalplus_ng.types import TaskId

#: The dataset of program tasks whose ids share no prefix (``codecontests/...``).
PROGRAMS = "programs"


def is_program_results(document: Any) -> bool:
    """Whether ``document`` is a results file of program tasks (its ``evalplus_ng``
    record names the kind)."""
    ours = document.get("evalplus_ng") if isinstance(document, dict) else None
    return isinstance(ours, dict) and ours.get("kind") == RESULTS_KIND


def program_dataset(task_ids: Iterable[str]) -> str:
    """The dataset program tasks are of: their ids' shared prefix (``codecontests`` for
    ``codecontests/1a``), else :data:`PROGRAMS`."""
    prefixes = {task_id.partition("/")[0] for task_id in task_ids if "/" in task_id}
    return prefixes.pop() if len(prefixes) == 1 else PROGRAMS


def _statuses(entry: Mapping[str, Any], public_only: bool) -> list[RunStatus]:
    """The statuses of a sample's runs (those of public tests alone with ``public_only``),
    in the order run; a status this version does not know is left out."""
    known = {status.value: status for status in RunStatus}
    runs = entry.get("tests")
    return [known[run["status"]] for run in runs if isinstance(run, dict)
            and run.get("status") in known and (run.get("public") or not public_only)
            ] if isinstance(runs, list) else []


def failure_of(entry: Mapping[str, Any], public_only: bool = False) -> str:
    """What failed a failing sample (:data:`~evalplus_ng.report.summary.PROGRAM_FAILURES`):
    ``refused`` where it never ran, else the status it is counted under."""
    if entry.get("refused"):
        return REFUSED
    return failure_status(_statuses(entry, public_only)).value


def tier_of(entry: Mapping[str, Any], suite: str) -> str:
    """The tier of a sample's first failing test: as its results entry records it, else
    the one tier of hidden tests ``suite`` runs, else
    :data:`~evalplus_ng.report.summary.UNRECORDED` (``full`` before tiers were
    recorded)."""
    first = entry.get("first_failure")
    tier = first.get("tier") if isinstance(first, dict) else None
    if tier in TIERS:
        return str(tier)
    hidden = PROGRAM_SUITES.get(suite, frozenset())
    return (next(iter(hidden)) or ORIGINAL) if len(hidden) == 1 else UNRECORDED


def _verdicts(task_id: str, entries: Any, suite: str) -> list[tuple[bool, bool]]:
    """(passes base, passes the suite) of each entry of a task."""
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise ResultsFormatError(f"{task_id}: not a list of sample verdicts")
    column = "base_status" if suite == BASE else f"{suite}_status"
    try:
        return [(e["base_status"] == "pass", e["base_status"] == "pass" and e[column] == "pass")
                for e in entries]
    except KeyError as exc:
        raise ResultsFormatError(f"{task_id}: a verdict without {exc.args[0]}") from None


def judged_programs(document: Mapping[str, Any], label: str, path: str) -> JudgedFile:
    """The counts of one results file of program tasks (:func:`is_program_results`)."""
    ours = document["evalplus_ng"]
    suite = str(ours.get("suite", FULL))
    if suite not in PROGRAM_SUITES:
        raise ResultsFormatError(f"unknown suite of program tasks {suite!r}")
    if not isinstance(document.get("eval"), dict):
        raise ResultsFormatError("not a results file: no \"eval\" object of tasks")
    tasks: dict[TaskId, TaskCounts] = {}
    failures: Counter[str] = Counter()
    samples = 0
    for task_id, entries in document["eval"].items():
        verdicts = _verdicts(str(task_id), entries, suite)
        killed = [e for (base, passed), e in zip(verdicts, entries, strict=True)
                  if base and not passed]
        failures.update(failure_of(e, suite == BASE)
                        for (_base, passed), e in zip(verdicts, entries, strict=True)
                        if not passed)
        samples += len(entries)
        if entries:
            tasks[str(task_id)] = TaskCounts(
                len(entries), sum(base for base, _ in verdicts),
                sum(passed for _, passed in verdicts),
                dict(Counter(failure_of(e) for e in killed)),
                dict(Counter(tier_of(e, suite) for e in killed)))
    counts = {"samples": samples, **{kind: failures[kind] for kind in PROGRAM_FAILURES}}
    return JudgedFile(label, path, suite, str(ours.get("hash", "")),
                      program_dataset(tasks), tasks, completeness(document), True, counts)


def program_first_failures(document: Mapping[str, Any]) -> dict[TaskId, Failure]:
    """Task -> its first sample that failed the public tests, or passed them and failed
    the suite: which tier and test failed it and how (results files keep no input)."""
    suite = str(document["evalplus_ng"].get("suite", FULL))
    found: dict[TaskId, Failure] = {}
    for task_id, entries in document["eval"].items():
        for position, ((base, passed), entry) in enumerate(zip(
                _verdicts(str(task_id), entries, suite), entries, strict=True)):
            if passed:
                continue
            first = entry.get("first_failure")
            index = first.get("index") if isinstance(first, dict) else None
            tier = PUBLIC if not base else tier_of(entry, suite)
            how = failure_of(entry, not base)
            if isinstance(first, dict) and first.get("status"):
                how = f"{first['status']} on test {index} ({tier})"
            found[str(task_id)] = Failure(position, "base" if not base else suite, how, how,
                                          None, None,
                                          clip(str(entry.get("solution", "")), CODE_CHARS),
                                          clip(str(entry.get("diff") or ""), DIFF_CHARS))
            break
    return found
