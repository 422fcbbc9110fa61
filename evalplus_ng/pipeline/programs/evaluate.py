"""``evaluate`` for program tasks: judge a samples file of programs against a tasks file of
stdin/stdout tasks (:mod:`evalplus_ng.tasks.programfile`) and write the results beside it."""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from evalplus_ng.backend.executors import LOCAL, Backend, jail_of
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
    judge_programs_staged,
    program_pass_at_k,
    results_from_entries,
)
from evalplus_ng.evaluation.verdicts import Completeness
from evalplus_ng.files import write_json
from evalplus_ng.pipeline.context import Progress
from evalplus_ng.pipeline.evaluate import (
    CHECKPOINT_SECONDS,
    Judged,
    results_path,
    resumed,
    skipped_warning,
)
from evalplus_ng.records import PLUS_ORIGIN, STRESS_ORIGIN, ProgramTask, Verdict
from evalplus_ng.sandbox import Limits
from evalplus_ng.seal import sealed, user_secret
from evalplus_ng.tasks.programfile import load_program_tasks, read_program_samples_of
from evalplus_ng.tasks.sources import user_cache_dir

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
    #: Reuse the verdicts of the results file already there (same tasks, suite, settings).
    resume: bool = False
    #: Only these tasks (``--tasks``: ids, numbers or ranges; a task's number is its place
    #: in the tasks file); None: every task. Samples of the others are left out.
    task_spec: str | None = None


@dataclass(frozen=True)
class ProgramSummary(Judged[ProgramResult]):
    """What ``evaluate`` of program tasks did."""

    suite: str = FULL
    #: Samples whose verdicts ``--resume`` reused.
    reused: int = 0

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
        **({"diff": result.diff} if result.diff else {}),
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
    ``request.results``), checkpointing as it goes (an interrupted run keeps what it
    judged, and ``request.resume`` reuses it)."""
    say = status or (lambda _message: None)
    suite = request.config.suite
    # (a missing tasks file is named by its loading, below)
    digest = (hashlib.sha256(request.tasks.read_bytes()).hexdigest()
              if request.tasks.is_file() else "")
    out = request.results or results_path(request.samples, suite_name(suite, digest))
    # The results of an earlier run show expected outputs (a failure's diff): hidden too.
    hidden = [request.tasks, request.samples, out]
    # Made (on first use) before any sandbox starts, so that every jail hides it.
    secret = user_secret(user_cache_dir())
    with request.backend.executor(request.limits, hidden) as sandbox:
        sandbox.start()  # the supervisors boot while the tasks and the samples load
        listed = load_program_tasks(request.tasks)
        tasks = {task.task_id: task for task in listed}
        missing = suite_missing(tasks.values(), suite)
        if missing:
            raise InputError(str(request.tasks), None, missing)
        # A suite augment made may hold a part of its dataset: other samples are skipped.
        partial = any(test.origin for task in tasks.values() for test in task.tests)
        samples, skipped = read_program_samples_of(request.samples, tasks, partial)
        if request.task_spec is not None:
            from evalplus_ng.pipeline.augment import select_tasks

            tasks = {task.task_id: task for task in select_tasks(
                listed, request.task_spec, numbers=range(len(listed)))}
            left = len(samples)
            samples = [sample for sample in samples if sample.task_id in tasks]
            if left > len(samples):
                say(f"--tasks: left out {left - len(samples)} sample(s) of other tasks")
        if not samples:
            raise InputError(str(request.samples), None, "no samples of the suite's tasks "
                             "in file")
        if skipped:
            say(skipped_warning(skipped))
        out.parent.mkdir(parents=True, exist_ok=True)
        identity = {"kind": RESULTS_KIND, "suite": suite, "tasks": str(request.tasks),
                    "hash": digest,
                    "config": asdict(request.config),
                    "memory_bytes": request.limits.memory_bytes}
        done = (resumed(out, identity, secret, lambda document: results_from_entries(
            document.get("eval"), samples, tasks, suite), len(samples), say, "program")
                if request.resume else {})
        say(f"judging {len(samples) - len(done)} program(s) on {SUITE_WORDS[suite]} of "
            f"{request.tasks}")
        results: dict[int, ProgramResult] = {}
        answered = {sample.task_id for sample in samples}

        def save(complete: bool) -> None:
            """Write the results so far, without the failures' diffs (expected outputs)
            while programs may still run."""
            ordered = tuple(results[position] if complete else
                            replace(results[position], diff="") for position in sorted(results))
            mark = Completeness(complete, len(ordered), len(samples),
                                len({r.task_id for r in ordered}), len(answered), len(tasks))
            # "tasks" names the tasks file here: the mark's counts of tasks are left out.
            counts = {key: value for key, value in mark.record().items() if key != "tasks"}
            document = results_document(ordered, {**identity, **counts,
                                                  "jail": jail_of(sandbox)}, suite)
            write_json(out, sealed(document, secret))

        last = time.monotonic()
        finished = False
        try:
            for position, result in judge_programs_staged(tasks, samples, sandbox,
                                                          request.config, progress, done):
                results[position] = result
                if time.monotonic() - last > CHECKPOINT_SECONDS:
                    save(complete=False)
                    last = time.monotonic()
            finished = True
        finally:
            save(complete=finished)
        nodes = dict(getattr(sandbox, "nodes", {}))
    ordered = tuple(results[position] for position in sorted(results))
    return ProgramSummary(out, ordered, program_pass_at_k(ordered, suite=suite), suite,
                          len(done), suite_tasks=len(tasks), nodes=nodes, jail=jail_of(sandbox))
