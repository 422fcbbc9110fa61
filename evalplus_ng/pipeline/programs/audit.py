"""``audit`` of program tasks (stdin/stdout): the jury of samples on an augmented suite's
new tests, and ``augment``'s refuted plans; ``audit.json`` and ``audit.md``; with ``hold``
(``augment --samples``), the disputed tests held out of the suite.

Orchestration only (it reads files and runs the sandbox); the rules are
:mod:`evalplus_ng.oracle.programs.defects`. Two passes over the sandbox: each distinct sample
program runs its task's public tests (stopping at the first failure: a sample that fails
them does not vote), then each one that passed runs all of its task's new tests (plus and
stress) in one job, judged against the suite's outputs by the task's equality, the job
stopping only after ``max_timeouts`` timeouts. Every test runs within the limit
``evaluate`` would give it (the test's own, else the task's, else ``time_limit``).
"""

from __future__ import annotations

import contextlib
import json
import time
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from evalplus_ng.backend.executors import LOCAL, Backend
from evalplus_ng.evaluation.program_verdicts import ProgramConfig
from evalplus_ng.files import read_json_table, write_atomically, write_json
from evalplus_ng.jobs import program_job
from evalplus_ng.oracle.programs.defects import (
    ProgramAuditConfig,
    ProgramFinding,
    ProgramSample,
    audited_tests,
    disputes,
    finding_from_wire,
    finding_record,
    finding_wire,
    held_tests,
    lead,
    markdown,
    refutations,
    review,
    split_held,
)
from evalplus_ng.pipeline.audit import count_held
from evalplus_ng.pipeline.augment import digest
from evalplus_ng.pipeline.checkpoints import resume
from evalplus_ng.pipeline.context import Progress
from evalplus_ng.protocols import Executor
from evalplus_ng.records import Job, JobResult, Outcome, ProgramTask, ProgramTest, Status
from evalplus_ng.sandbox import Limits
from evalplus_ng.tasks.programfile import (
    load_program_records,
    load_program_tasks,
    read_program_samples,
    write_program_file,
)
from evalplus_ng.tasks.samples import Families, families_of, model_of, sample_files
from evalplus_ng.tasks.spec import file_stem
from evalplus_ng.types import TaskId

#: The review file (in the user's data folder): {task_id: {signal: why it is no defect}}.
AUDIT_REVIEW = "audit_review.json"
#: Why the jury judged no test of a task (``audit.md`` counts them).
NO_NEW_TESTS = "no new (plus or stress) test"
HAS_CHECKER = "a checker program (it accepts other answers than the reference's)"
NO_SAMPLES = "samples of fewer than two families"
FEW_PASSING = "samples of fewer than two families pass the public tests"


@dataclass(frozen=True)
class ProgramAuditSummary:
    """What the program audit found, ran and wrote."""

    findings: tuple[ProgramFinding, ...]
    json_path: Path
    markdown_path: Path
    #: Samples read, those passing their task's public tests, and the tasks judged.
    samples: int = 0
    passing: int = 0
    judged: int = 0
    #: Sandbox jobs (distinct programs) on the public tests and on the new tests, and the
    #: new tests run in those (every sample's runs).
    base_jobs: int = 0
    jury_jobs: int = 0
    runs: int = 0
    #: Wall seconds: the public tests' pass, the new tests' pass.
    seconds: tuple[float, float] = (0.0, 0.0)
    #: Tasks the jury did not judge, by reason.
    skipped: dict[str, int] = field(default_factory=dict)
    #: New tests held out (``hold``) or disputed (without it), per task.
    held: dict[TaskId, int] = field(default_factory=dict)
    #: Tasks whose jury's work came from their checkpoints (:data:`CHECKPOINTS`).
    resumed: int = 0


#: Each judged task's jury outcome, in ``out`` (made again only when the task's tests, its
#: samples or the configuration change): an interrupted audit resumes.
CHECKPOINTS = Path("checkpoints") / "program-audit"
#: Part of every checkpoint's fingerprint: bumped whenever what a task's jury decides changes.
FORMAT_VERSION = 2


@dataclass(frozen=True)
class _Done:
    """One task's jury: its lead (if any), why it was not judged ("" where it was), the
    samples that passed its public tests, and the jobs and runs it took."""

    finding: ProgramFinding | None
    skipped: str
    passing: int
    base_jobs: int
    jury_jobs: int = 0
    runs: int = 0


def fingerprint(task: ProgramTask, samples: Sequence[ProgramSample],
                config: ProgramAuditConfig) -> str:
    """What decides a task's jury: the task as judged (its tests, limits and comparison),
    its samples with their families, and the configuration."""
    return digest(str(FORMAT_VERSION), json.dumps(asdict(config), sort_keys=True),
                  json.dumps([task.equality, task.atol, task.time_limit,
                              [asdict(test) for test in task.tests]]),
                  json.dumps(sorted((s.family, s.code) for s in samples)))


def _checkpoint(store: Path, task_id: TaskId) -> Path:
    return store / f"{file_stem(task_id)}.json"


def _load(store: Path, task_id: TaskId, key: str) -> _Done | None:
    """A task's checkpoint when made with ``key`` (None: absent, stale, unreadable)."""
    try:
        document = json.loads(_checkpoint(store, task_id).read_text(encoding="utf-8"))
        if document.get("fingerprint") != key:
            return None
        found = document["finding"]
        return _Done(None if found is None else finding_from_wire(found),
                     str(document["skipped"]), int(document["passing"]),
                     int(document["base_jobs"]), int(document["jury_jobs"]),
                     int(document["runs"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _save(store: Path, task_id: TaskId, key: str, done: _Done) -> _Done:
    """Checkpoint a task's jury (atomically); returns ``done``."""
    store.mkdir(parents=True, exist_ok=True)
    write_atomically(_checkpoint(store, task_id), json.dumps({
        "fingerprint": key, "skipped": done.skipped, "passing": done.passing,
        "base_jobs": done.base_jobs, "jury_jobs": done.jury_jobs, "runs": done.runs,
        "finding": None if done.finding is None else finding_wire(done.finding)},
        ensure_ascii=False) + "\n")
    return done


def held_path(suite: Path) -> Path:
    """The tasks file of the tests jury leads hold out of ``suite`` (``ProgramsPlus.jsonl.gz``
    -> ``ProgramsPlus-Held.jsonl.gz``; never judged with)."""
    stem, dot, rest = suite.name.partition(".")
    return suite.with_name(f"{stem}-Held{dot}{rest}")


def read_program_voters(path: Path, tasks: dict[TaskId, ProgramTask],
                        families: Families = ()) -> list[ProgramSample]:
    """The samples of a samples file, or of every ``*.jsonl`` in a folder, each with its
    model (from the file's name: :func:`evalplus_ng.tasks.samples.model_of`) and its
    file's family (:func:`evalplus_ng.tasks.samples.families_of`: a family of its own
    but where ``families`` declares one); samples that failed unread (too large) are left
    out."""
    found = []
    files = sample_files(path)
    for file, family in zip(files, families_of(files, families), strict=True):
        model = model_of(file.name.removesuffix(".gz"))
        found += [ProgramSample(s.task_id, s.code, model, family)
                  for s in read_program_samples(file, tasks) if not s.refused]
    return found


def _limits(task: ProgramTask, tests: Sequence[ProgramTest],
            config: ProgramAuditConfig) -> list[float]:
    judged = ProgramConfig(time_limit=config.time_limit)
    return [judged.limit(task, test) for test in tests]


def _passed_base(task: ProgramTask, result: JobResult | None) -> bool:
    """All public tests ran and passed (vacuously where the task has none: no job)."""
    if result is None:
        return True
    return (result.load.status is Status.OK and len(result.passed) == len(task.base_tests)
            and all(result.passed))


def _ballot(result: JobResult) -> list[tuple[Outcome, bool]]:
    """A sample's (outcome, passed) on the new tests; none where it did not load."""
    if result.load.status is not Status.OK:
        return []
    return list(zip(result.outcomes, result.passed, strict=False))


def _merged(tasks: list[ProgramTask], held: Path) -> list[ProgramTask]:
    """``tasks`` with the tests of the held file beside the suite put back (so that the
    leads holding them stay listed)."""
    if not held.is_file():
        return tasks
    extra = {task.task_id: task.tests for task in load_program_tasks(held)}
    return [replace(task, tests=task.tests + extra[task.task_id])
            if task.task_id in extra else task for task in tasks]


def run_program_audit(suite: Path, samples: Path | None, out: Path,
                      backend: Backend = LOCAL, families: Families = (),
                      config: ProgramAuditConfig | None = None,
                      task_ids: Collection[TaskId] | None = None,
                      review_file: Path | None = None, hold: bool = False,
                      progress: Progress | None = None, executor: Executor | None = None,
                      hidden: Sequence[Path] = ()) -> ProgramAuditSummary:
    """Audit the new tests of the tasks file ``suite`` (``augment``'s artifact) with the
    ``samples`` (a file or a folder of ``*.jsonl``, each a family but those ``families``
    declares; None: no jury, the refuted plans alone); write
    ``out/audit.json`` and ``out/audit.md``. ``task_ids``: only those tasks.
    ``review_file`` dismisses findings ({task_id: {signal: why}}). ``hold`` rewrites
    ``suite`` without the tests of unreviewed jury leads, writes them to :func:`held_path`
    (removed when none) and counts them in ``stats.json`` beside the suite (``augment``,
    whose suite is whole again); without it, the held file's tests are judged too, and
    nothing but ``out``'s two files is written. Runs on ``executor`` where given, else on
    ``backend``'s sandbox (``hidden``: more answer keys to cover)."""
    config = config or ProgramAuditConfig()
    held_file = held_path(suite)
    tasks = load_program_tasks(suite)
    if not hold:
        tasks = _merged(tasks, held_file)
    by_id = {task.task_id: task for task in tasks}
    voters = read_program_voters(samples, by_id, families) if samples is not None else []
    wanted = set(by_id) if task_ids is None else set(task_ids)
    chosen = [task for task in tasks if task.task_id in wanted]
    skipped: Counter[str] = Counter()
    mine: dict[TaskId, list[ProgramSample]] = {}
    voters = [sample for sample in voters if sample.task_id in wanted]
    for sample in voters:
        mine.setdefault(sample.task_id, []).append(sample)
    candidates = []
    for task in chosen:
        reason = (NO_NEW_TESTS if not audited_tests(task) else HAS_CHECKER if task.checker
                  else NO_SAMPLES if len({s.family for s in mine.get(task.task_id, [])}) < 2
                  else "")
        if reason:
            skipped[reason] += 1
        else:
            candidates.append(task)
    store = out / CHECKPOINTS
    fingerprints = {task.task_id: fingerprint(task, mine[task.task_id], config)
                    for task in candidates}
    kept, todo = resume(candidates, lambda task: task.task_id,
                        lambda task: _load(store, task.task_id, fingerprints[task.task_id]))
    keys = [suite, held_file, *([samples] if samples is not None else []), *hidden]
    seconds = [0.0, 0.0]
    with (_executor(executor, backend, keys) if todo
          else contextlib.nullcontext(_NO_SANDBOX)) as sandbox:
        began = time.perf_counter()
        asked = [(task, code) for task in todo if task.base_tests
                 for code in dict.fromkeys(s.code for s in mine[task.task_id])]
        base = dict(zip([(task.task_id, code) for task, code in asked], sandbox.map(
            program_job(task, code, task.base_tests, _limits(task, task.base_tests, config))
            for task, code in asked), strict=True))
        voting = {task.task_id: [s for s in mine[task.task_id]
                                 if _passed_base(task, base.get((task.task_id, s.code)))]
                  for task in todo}
        seconds[0] = time.perf_counter() - began
        began = time.perf_counter()
        jury = []
        for task in todo:
            jobs_here = len({code for t, code in asked if t is task})
            if len({s.family for s in voting[task.task_id]}) < 2:
                kept[task.task_id] = _save(store, task.task_id, fingerprints[task.task_id],
                                           _Done(None, FEW_PASSING,
                                                 len(voting[task.task_id]), jobs_here))
            else:
                jury.append(task)
        codes = {task.task_id: list(dict.fromkeys(s.code for s in voting[task.task_id]))
                 for task in jury}
        total = sum(len(c) for c in codes.values())

        def jobs() -> Iterator[Job]:
            for task in jury:
                tests = audited_tests(task)
                limits = _limits(task, tests, config)
                for code in codes[task.task_id]:
                    yield program_job(task, code, tests, limits, fail_fast=False,
                                      max_timeouts=config.max_timeouts)

        results = iter(sandbox.map(jobs()))
        done = 0
        for task in jury:
            tests = audited_tests(task)
            ballots = {}
            for code in codes[task.task_id]:
                ballots[code] = _ballot(next(results))
                done += 1
                if progress is not None:
                    progress(done, total)
            voters_here = voting[task.task_id]
            found = disputes(task, tests, voters_here, [ballots[s.code] for s in voters_here],
                             config.consensus)
            kept[task.task_id] = _save(store, task.task_id, fingerprints[task.task_id], _Done(
                lead(task, found, len(voters_here), len(tests), config.held_share), "",
                len(voters_here),
                len({code for t, code in asked if t is task}), len(ballots),
                sum(len(b) for b in ballots.values())))
        seconds[1] = time.perf_counter() - began
    results_of = [kept[task.task_id] for task in candidates]
    skipped.update(r.skipped for r in results_of if r.skipped)
    findings = [r.finding for r in results_of if r.finding is not None]
    base_jobs = sum(r.base_jobs for r in results_of)
    jury_jobs = sum(r.jury_jobs for r in results_of)
    runs = sum(r.runs for r in results_of)
    passing = sum(r.passing for r in results_of)
    judged = sum(not r.skipped for r in results_of)
    stats_path = suite.parent / "stats.json"
    if stats_path.is_file():
        findings += refutations(json.loads(stats_path.read_text(encoding="utf-8")), wanted)
    order = {task.task_id: k for k, task in enumerate(tasks)}
    findings.sort(key=lambda f: (order.get(f.task_id, len(order)), f.signal))
    dismissals = (read_json_table(review_file, lambda entry: all(
        isinstance(why, str) for why in entry.values()), "{task_id: {signal: reason}}")
        if review_file is not None else {})
    reviewed = review(findings, dismissals)
    out.mkdir(parents=True, exist_ok=True)
    json_path, markdown_path = out / "audit.json", out / "audit.md"
    write_json(json_path, [finding_record(f, config) for f in reviewed])
    write_atomically(markdown_path, markdown(reviewed, dict(skipped)))
    held = held_tests(reviewed)
    counts = hold_out(suite, held) if hold else {k: len(v) for k, v in held.items()}
    return ProgramAuditSummary(tuple(reviewed), json_path, markdown_path, len(voters),
                               passing, judged, base_jobs, jury_jobs, runs,
                               (round(seconds[0], 1), round(seconds[1], 1)), dict(skipped),
                               counts, len(candidates) - len(todo))


def hold_out(suite: Path, held: dict[TaskId, frozenset[tuple[str, str]]]) -> dict[TaskId, int]:
    """Rewrite the tasks file ``suite`` without the ``held`` tests (per task, by origin and
    input), write them to :func:`held_path` (removed when none) and count them in the
    ``stats.json`` beside it (``held_by_audit``); the tests held per task."""
    kept: list[dict[str, Any]] = []
    out: list[dict[str, Any]] = []
    for _task, record in load_program_records(suite):
        rest, taken = split_held(record, held.get(str(record["task_id"]), frozenset()))
        kept.append(rest)
        if taken is not None:
            out.append(taken)
    counts = {str(record["task_id"]): len(record["tests"]) for record in out}
    if out:
        write_program_file(kept, suite)
        write_program_file(out, held_path(suite))
    else:
        held_path(suite).unlink(missing_ok=True)
    count_held(suite.parent, "tests", counts)
    return counts


class _NoSandbox:
    """The executor where nothing is to run (no task for the jury): it runs nothing."""

    def run(self, job: Job) -> JobResult:
        raise AssertionError("no job expected")

    def map(self, jobs: Iterable[Job]) -> Iterator[JobResult]:
        if list(jobs):
            raise AssertionError("no job expected")
        return iter(())


_NO_SANDBOX = _NoSandbox()


def _executor(executor: Executor | None, backend: Backend,
              hidden: Sequence[Path]) -> contextlib.AbstractContextManager[Executor]:
    """The executor given, else ``backend``'s sandbox over the answer keys ``hidden``."""
    if executor is not None:
        return contextlib.nullcontext(executor)
    return backend.executor(Limits(), list(hidden))
