"""``evaluate`` for program tasks: judge a samples file of programs against a tasks file of
stdin/stdout tasks (:mod:`evalplus_ng.tasks.programfile`) and write the results beside it."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from evalplus_ng.backend.executors import LOCAL, Backend
from evalplus_ng.errors import InputError
from evalplus_ng.evaluation.program_verdicts import (
    BASE,
    FULL,
    ORIGINAL,
    RESULTS_KIND,
    ProgramConfig,
    ProgramResult,
    RunStatus,
    failure_counts,
    judge_programs,
    program_pass_at_k,
)
from evalplus_ng.files import write_json
from evalplus_ng.pipeline.context import Progress
from evalplus_ng.pipeline.evaluate import Judged, results_path
from evalplus_ng.records import PLUS_ORIGIN, STRESS_ORIGIN, ProgramTask, Verdict
from evalplus_ng.sandbox import Limits
from evalplus_ng.tasks.programfile import load_program_tasks, read_program_samples

#: What each suite judges on, for the line that says so.
SUITE_WORDS = {
    BASE: "the public tests",
    ORIGINAL: "the public and hidden tests",
    PLUS_ORIGIN: "the public tests and augment's plus tests",
    STRESS_ORIGIN: "the public tests and augment's stress tests",
    FULL: "every test (the dataset's and augment's)",
}


def suite_missing(tasks: Iterable[ProgramTask], suite: str) -> str:
    """Why ``suite`` cannot judge ``tasks`` (a tier ``augment`` made that no task has: a
    tasks file that is not augment's), or "" when it can."""
    if suite not in (PLUS_ORIGIN, STRESS_ORIGIN):
        return ""
    if any(test.origin == suite for task in tasks for test in task.tests):
        return ""
    return (f"no {suite} tests here: `evalplus-ng augment --dataset-file FILE` writes them "
            "(ProgramsPlus.jsonl.gz in its --out folder)")


@dataclass(frozen=True)
class ProgramRequest:
    """Everything ``evaluate`` of program tasks needs."""

    tasks: Path
    samples: Path
    config: ProgramConfig = field(default_factory=ProgramConfig)
    limits: Limits = field(default_factory=Limits)
    backend: Backend = LOCAL
    #: Where the results go; None: beside the samples, named after the suite
    #: (``S.evalplus-ng.full.json``, ``S.evalplus-ng.plus.json``, ...).
    results: Path | None = None


@dataclass(frozen=True)
class ProgramSummary(Judged[ProgramResult]):
    """What ``evaluate`` of program tasks did."""

    suite: str = FULL

    def count(self, column: str, verdict: Verdict) -> int:
        """How many samples have ``verdict`` in ``column`` ("base", or the suite's)."""
        return sum((r.base if column == BASE else r.full) is verdict for r in self.results)

    def failures(self, column: str) -> dict[str, Any]:
        """The samples failing ``column`` ("base", or the suite's), correctness apart from
        timeouts (:func:`~evalplus_ng.evaluation.program_verdicts.failure_counts`)."""
        return failure_counts(self.results, column)

    def checker_errors(self) -> dict[str, int]:
        """Per task, the samples that failed on its checker breaking
        (:attr:`~evalplus_ng.evaluation.program_verdicts.RunStatus.CHECKER_ERROR`: the checker's
        fault, not theirs), by task id in file order; empty where no checker broke."""
        counts = Counter(result.task_id for result in self.results
                         if any(run.status is RunStatus.CHECKER_ERROR for run in result.tests))
        return dict(counts)


def result_entry(result: ProgramResult, suite: str = FULL) -> dict[str, Any]:
    """One sample's entry in the results file: ``base_status``, and the suite's verdict
    named after it (``full_status``, ``plus_status``, ...) unless the suite is base;
    ``first_failure``, the first run that did not pass (its test's place, its status and
    the tier of its test, :data:`~evalplus_ng.evaluation.program_verdicts.TIERS`: what ``report``
    counts a failure under), and every run."""
    failure = result.first_failure
    return {
        "task_id": result.task_id,
        "solution": result.code,
        "base_status": result.base.value,
        **({} if suite == BASE else {
            f"{suite}_status": None if result.full is None else result.full.value}),
        "first_failure": None if failure is None else {"index": failure.index,
                                                       "status": failure.status.value,
                                                       "tier": failure.tier},
        **({"refused": result.refused} if result.refused else {}),
        "tests": [{"index": run.index, "public": run.public, "status": run.status.value,
                   "seconds": round(run.seconds, 4), "time_limit": run.time_limit,
                   **({"error": run.error} if run.error else {})}
                  for run in result.tests],
    }


def results_document(results: tuple[ProgramResult, ...], identity: dict[str, Any],
                     suite: str = FULL) -> dict[str, Any]:
    """The results file: what judged them (``evalplus_ng``), each sample's entry by task,
    in samples-file order (EvalPlus's layout, the suite's verdict named after it), and
    ``failures``: per column (``base``, the suite's) the samples failing it, correctness
    apart from timeouts (:func:`~evalplus_ng.evaluation.program_verdicts.failure_counts`)."""
    by_task: dict[str, list[dict[str, Any]]] = {}
    for result in results:
        by_task.setdefault(result.task_id, []).append(result_entry(result, suite))
    columns = [BASE] if suite == BASE else [BASE, suite]
    return {"evalplus_ng": identity, "eval": by_task,
            "failures": {column: failure_counts(results, column) for column in columns}}


def suite_name(suite: str, digest: str) -> str:
    """The suite's part of a program results file's name: ``base`` or ``original`` (the
    dataset's own tests), else the suite and the first 12 hex digits of the tasks file's
    SHA-256 (``plus-1a2b3c4d5e6f``): ``augment``'s suite and its MINI are both judged with
    ``--suite plus``, and their results must not overwrite each other."""
    return suite if suite in (BASE, ORIGINAL) else f"{suite}-{digest[:12]}"


def run_evaluate_programs(request: ProgramRequest, progress: Progress | None = None,
                          status: Callable[[str], None] | None = None) -> ProgramSummary:
    """Judge a samples file of programs; write the results beside it (or to
    ``request.results``)."""
    say = status or (lambda _message: None)
    hidden = [request.tasks, request.samples]
    with request.backend.executor(request.limits, hidden) as sandbox:
        sandbox.start()  # the supervisors boot while the tasks and the samples load
        tasks = {task.task_id: task for task in load_program_tasks(request.tasks)}
        suite = request.config.suite
        missing = suite_missing(tasks.values(), suite)
        if missing:
            raise InputError(str(request.tasks), None, missing)
        samples = read_program_samples(request.samples, tasks)
        say(f"judging {len(samples)} program(s) on {SUITE_WORDS[suite]} of {request.tasks}")
        results = tuple(judge_programs(tasks, samples, sandbox, request.config, progress))
        nodes = dict(getattr(sandbox, "nodes", {}))
    digest = hashlib.sha256(request.tasks.read_bytes()).hexdigest()
    out = request.results or results_path(request.samples, suite_name(suite, digest))
    out.parent.mkdir(parents=True, exist_ok=True)
    identity = {"kind": RESULTS_KIND, "suite": suite, "tasks": str(request.tasks),
                "hash": digest,
                "config": asdict(request.config),
                "memory_bytes": request.limits.memory_bytes}
    write_json(out, results_document(results, identity, suite))
    return ProgramSummary(out, results, program_pass_at_k(results, suite=suite), suite,
                          suite_tasks=len(tasks), nodes=nodes)
