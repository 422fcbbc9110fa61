"""Thin orchestration: the one layer (with the CLI) that opens files and starts sandboxes."""

from __future__ import annotations

import contextlib
import hashlib
import json
import statistics
import time
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

from evalplus_ng.backend.executors import LOCAL, Backend, answer_keys_near
from evalplus_ng.errors import InputError
from evalplus_ng.evaluation.edges import split_kills
from evalplus_ng.evaluation.evaluate import (
    EvalConfig,
    SampleResult,
    evaluate_staged,
    identity_changes,
    pass_at_k,
    results_document,
    results_from_document,
    suite_hash,
    verdict_identity,
)
from evalplus_ng.files import read_json_table, write_atomically
from evalplus_ng.generate.contract import Contract, load_contract
from evalplus_ng.jobs import task_job
from evalplus_ng.judge import JUDGE
from evalplus_ng.oracle import audit
from evalplus_ng.oracle.audit import AuditConfig, Finding, SampleCode
from evalplus_ng.oracle.calibrate import CHUNK as CALIBRATION_CHUNK
from evalplus_ng.oracle.calibrate import (
    DEFAULT_FACTOR,
    DEFAULT_FLOOR_SECONDS,
    calibrate_tasks,
    measure_reference,
)
from evalplus_ng.oracle.groundtruth import GroundTruth
from evalplus_ng.oracle.jury import JuryCost, jury
from evalplus_ng.records import REFUSALS, Sample, Status, Task, Verdict
from evalplus_ng.report import render
from evalplus_ng.report.render import SuiteFacts
from evalplus_ng.report.summary import (
    DuplicateResultsError,
    JudgedFile,
    Report,
    ResultsFormatError,
    build,
    judged_file,
)
from evalplus_ng.sandbox import Limits, Sandbox
from evalplus_ng.seal import genuine, sealed, user_secret
from evalplus_ng.serialize import canonical
from evalplus_ng.tasks.artifact import write_plus_file
from evalplus_ng.tasks.plusfile import load_plus_file
from evalplus_ng.tasks.samples import (
    FAMILIES,
    Families,
    family_of,
    model_of,
    read_samples_of,
    sample_files,
)
from evalplus_ng.tasks.sources import fixed_solutions, user_cache_dir
from evalplus_ng.tasks.spec import SUITE_SUFFIXES, Dataset, file_stem
from evalplus_ng.types import Args, TaskId

#: Asks a model for a second opinion on one jury lead (:mod:`evalplus_ng.oracle.opinion`).
OpinionSource = Callable[[Task, Finding], Finding]

#: Where ``augment`` writes, and so where ``--suite plus|mini`` look by default.
DEFAULT_OUT = Path("evalplus-ng-out")
#: ``--suite``'s default: the plus suite in the artifacts folder when there is one.
AUTO = "auto"
CHECKPOINT_SECONDS = 15.0

Progress = Callable[[int, int], None]


def load_suite(dataset: Dataset, suite: str, artifacts: Path = DEFAULT_OUT) -> list[Task]:
    """Tasks of a suite: ``base`` (the dataset's own tests), ``plus``, ``mini``, ``stress``
    (the efficiency tier), ``stress-mini`` or a file path."""
    path = suite_path(dataset, suite, artifacts)
    if path is None:
        return [replace(task, plus_inputs=()) for task in dataset.load(cache=user_cache_dir())]
    if suite in SUITE_SUFFIXES and not path.is_file():
        raise InputError(
            str(path), None,
            f"no {suite} suite here: run `evalplus-ng augment --dataset {dataset.name} "
            f"--out {artifacts}` or pass --suite PATH",
        )
    return load_plus_file(path, dataset.equality())


def resolved_suite(dataset: Dataset, suite: str, artifacts: Path) -> str:
    """``auto`` (the default, as EvalPlus judges base and plus): ``plus`` when ``augment``
    wrote a plus suite into ``artifacts``, else ``base``; any other name as it is."""
    if suite != AUTO:
        return suite
    return "plus" if (artifacts / dataset.suite_file("plus")).is_file() else "base"


def suite_path(dataset: Dataset, suite: str, artifacts: Path) -> Path | None:
    """The file ``--suite`` names: a kind ``augment`` writes into ``artifacts``, or a
    path; None for ``base`` (the dataset itself)."""
    if suite == "base":
        return None
    return artifacts / dataset.suite_file(suite) if suite in SUITE_SUFFIXES else Path(suite)


def results_path(samples: Path) -> Path:
    """EvalPlus's convention: ``x.jsonl`` -> ``x_eval_results.json`` beside it; a samples
    folder -> ``eval_results.json`` inside it."""
    if samples.is_dir():
        return samples / "eval_results.json"
    name = samples.name
    stem = name[: -len(".jsonl")] if name.endswith(".jsonl") else samples.stem
    return samples.with_name(f"{stem}_eval_results.json")


def _write_json_atomically(path: Path, document: object) -> None:
    write_atomically(path, json.dumps(document, indent=1) + "\n")


@dataclass(frozen=True)
class EvaluateRequest:
    """Everything ``evaluate`` needs, gathered by the CLI."""

    samples: Path
    dataset: Dataset
    #: ``auto``, ``base``, ``plus``, ``mini``, ``stress``, ``stress-mini`` or a file path.
    suite: str = AUTO
    artifacts: Path = DEFAULT_OUT
    #: Where the samples run: this machine's sandbox pool or a Ray cluster.
    backend: Backend = LOCAL
    resume: bool = False
    config: EvalConfig = field(default_factory=EvalConfig)
    limits: Limits = field(default_factory=Limits)
    #: Where the results go; None: beside the samples (:func:`results_path`).
    results: Path | None = None
    #: Judge the samples as written, as ``evalplus.evaluate`` does (no sanitizing).
    raw: bool = False


@dataclass(frozen=True)
class EvaluateSummary:
    """What ``evaluate`` did."""

    results_path: Path
    results: tuple[SampleResult, ...]
    pass_at_k: dict[str, dict[int, float]]
    reused: int
    #: Samples skipped per task: tasks the dataset has and the judged suite lacks.
    skipped: Mapping[TaskId, int] = field(default_factory=dict)
    #: Tasks in the judged suite (the samples may answer fewer).
    suite_tasks: int = 0
    #: The suite judged with (``auto`` resolved).
    suite: str = "base"
    #: With the Ray backend: sandbox jobs run per node (by Ray node id).
    nodes: Mapping[str, int] = field(default_factory=dict)

    def coverage(self) -> str:
        """"N of M tasks, n samples (k per task)": what the pass@k figures are over."""
        per_task = Counter(result.task_id for result in self.results)
        low, high = min(per_task.values(), default=0), max(per_task.values(), default=0)
        each = f"{low}" if low == high else f"{low} to {high}"
        return (f"{len(per_task)} of {self.suite_tasks} tasks, {len(self.results)} samples "
                f"({each} per task)")

    def refused(self) -> Counter[str]:
        """Samples failed without running them, by why (:data:`REFUSALS`)."""
        return Counter(r.base_failure for r in self.results if r.base_failure in REFUSALS)

    def judged(self) -> JudgedFile:
        """The results as ``report`` counts them (kills by kind and by what they rest on)."""
        return judged_file(results_document(self.results), "", str(self.results_path))

    def count(self, column: str, status: Verdict) -> int:
        """How many samples have ``status`` in ``column`` ("base" or "plus")."""
        if column == "base":
            return sum(r.base_status is status for r in self.results)
        return sum(r.plus_status is status for r in self.results)

    def kills(self) -> Counter[str]:
        """Samples that pass base and fail the suite beyond it (plus, or stress), by what
        their first failing test did (:data:`evalplus_ng.evaluation.evaluate.FAILURES`): a timeout
        is a kind of its own, apart from a wrong answer."""
        return Counter(r.plus_failure or r.base_failure for r in self.results
                       if r.base_status is Verdict.PASS and not r.passed_plus)


def _suite_kind(suite: str) -> str:
    """``base``, a kind ``augment`` writes, or ``file`` (the hash tells files apart)."""
    return suite if suite == "base" or suite in SUITE_SUFFIXES else "file"


def run_evaluate(
    request: EvaluateRequest, progress: Progress | None = None,
    status: Callable[[str], None] | None = None,
) -> EvaluateSummary:
    """Judge a samples file; writes results beside it, checkpointing as it goes."""
    say = status or (lambda _message: None)
    suite = resolved_suite(request.dataset, request.suite, request.artifacts)
    chosen, request = suite != request.suite, replace(request, suite=suite)
    judged = suite_path(request.dataset, request.suite, request.artifacts)
    hidden = answer_keys_near(request.artifacts, request.dataset, *([judged] if judged else []))
    # Made (on first use) before any sandbox starts, so that every jail hides it.
    secret = user_secret(user_cache_dir())
    with request.backend.executor(request.limits, hidden) as sandbox:
        sandbox.start()  # the supervisors boot while the suite and the samples load
        tasks = {task.task_id: task for task in load_suite(request.dataset, request.suite,
                                                           request.artifacts)}
        samples, skipped = read_samples_of(request.samples, tasks,
                                           lambda: _dataset_tasks(request), request.raw)
        if not samples:
            place = "here" if request.samples.is_dir() else "in file"
            raise InputError(str(request.samples), None,
                             f"no samples of the suite's tasks {place}")
        if skipped:
            names = ", ".join(sorted(skipped, key=lambda t: (len(t), t))[:5])
            more = ", ..." if len(skipped) > 5 else ""
            say(f"warning: {sum(skipped.values())} sample(s) of {len(skipped)} task(s) the "
                f"suite lacks were skipped ({names}{more})")
        if chosen:
            say(f"judging with the {suite} suite" + (
                f" of {request.artifacts} (base and plus tests)" if suite == "plus" else
                f" only: {request.artifacts} holds no plus suite (`evalplus-ng augment "
                f"--dataset {request.dataset.name} --out {request.artifacts}` makes one)"))
        out = request.results or results_path(request.samples)
        out.parent.mkdir(parents=True, exist_ok=True)
        # A suite file is identified by its bytes (a digest of them costs milliseconds;
        # re-encoding every input of a full suite costs over half a second).
        digest = (hashlib.sha256(judged.read_bytes()).hexdigest() if judged is not None
                  else suite_hash(tasks.values()))
        identity = verdict_identity(digest, request.dataset.name, _suite_kind(request.suite),
                                    request.config, request.limits.memory_bytes,
                                    (task.equality for task in tasks.values()))
        done: dict[int, SampleResult] = {}
        if request.resume and out.is_file():
            try:
                document = json.loads(out.read_text(encoding="utf-8"))
            except ValueError as exc:
                raise InputError(str(out), None, f"cannot resume, invalid JSON: {exc}") from None
            changes = identity_changes(document, identity)
            if not genuine(document, secret):
                say(f"{out}: not sealed by evalplus-ng for this user (forged, edited or "
                    "written elsewhere); judging every sample again")
            elif changes:
                say(f"{out}: judged with another suite or settings ({', '.join(changes)}); "
                    "judging every sample again")
            else:
                done = results_from_document(document, samples, tasks)
                say(f"resuming: {len(done)} of {len(samples)} samples already judged in {out}")
        needed = {s.task_id for position, s in enumerate(samples)
                  if position not in done and not s.refused}
        warned: set[TaskId] = set()

        def warn(truths: Mapping[TaskId, GroundTruth]) -> None:
            for task_id, truth in sorted(truths.items(), key=lambda item: tasks[item[0]].number):
                if task_id not in warned and (any(truth.base.failures)
                                              or any(truth.plus.failures)):
                    warned.add(task_id)
                    say(f"warning: {task_id}: the ground truth fails on some inputs; "
                        "they are not used")

        config = request.config
        if config.reference_seconds is None and any(tasks[t].calibration for t in needed):
            # Measured once per run, here, so that calibrated limits follow this machine.
            config = replace(config, reference_seconds=measure_reference(sandbox))
            say(f"calibrated suite: reference workload takes {config.reference_seconds:.4f} s "
                "here")
        say(f"running the ground truth of {len(needed)} task(s) and judging")
        results: dict[int, SampleResult] = {}
        last = time.monotonic()
        try:
            for position, result in evaluate_staged(
                tasks, samples, sandbox, config, done, warn
            ):
                results[position] = result
                if progress is not None:
                    progress(len(results), len(samples))
                if time.monotonic() - last > CHECKPOINT_SECONDS:
                    _write_json_atomically(out, sealed(
                        results_document(_ordered(results), identity), secret))
                    last = time.monotonic()
            results = split_kills(tasks, results, sandbox, config)  # what each kill rests on
        finally:
            _write_json_atomically(out, sealed(results_document(_ordered(results), identity),
                                               secret))
    ordered = _ordered(results)
    return EvaluateSummary(out, tuple(ordered), pass_at_k(ordered), len(done), dict(skipped),
                           len(tasks), suite, dict(getattr(sandbox, "nodes", {})))


def _dataset_tasks(request: EvaluateRequest) -> set[TaskId]:
    """The dataset's task ids, to tell samples of a task the judged suite lacks (skipped
    with a warning, as EvalPlus does) from samples of an unknown task; asked only when a
    sample names a task outside the suite (the base suite is the whole dataset)."""
    if _suite_kind(request.suite) == "base":
        return set()
    return {task.task_id for task in request.dataset.load()}


def _ordered(results: dict[int, SampleResult]) -> Sequence[SampleResult]:
    return [results[position] for position in sorted(results)]


# ---------------------------------------------------------------- audit

AUDIT_REVIEW = "audit_review.json"


@dataclass(frozen=True)
class AuditSummary:
    """What ``audit`` found and where it wrote it."""

    findings: tuple[Finding, ...]
    defective: tuple[str, ...]
    json_path: Path
    markdown_path: Path
    #: What the jury ran (zero without samples) and the seconds it took: reading and
    #: base-testing the samples (wall), then the tasks' jury work (summed over the
    #: worker threads, each waiting on its own sandbox job).
    jury: JuryCost = field(default_factory=JuryCost)
    jury_seconds: tuple[float, float] = (0.0, 0.0)
    #: Plus inputs held out of the plus suite by unreviewed jury leads, per task (with
    #: ``hold``; see :func:`hold_out`).
    held: Mapping[TaskId, int] = field(default_factory=dict)


def _audit_dismissals(dataset: Dataset) -> dict[str, dict[str, str]]:
    """Reviewed non-defects: ``audit_review.json`` of the dataset's data folders (the
    user's entries win), {task_id: {signal: why}}."""
    merged: dict[str, dict[str, str]] = {}
    for folder in dataset.definition_folders():
        merged.update(_read_dismissals(folder / AUDIT_REVIEW))
    return merged


def _read_dismissals(path: Path) -> dict[str, dict[str, str]]:
    return read_json_table(path, lambda entry: all(isinstance(w, str) for w in entry.values()),
                           "{task_id: {signal: reason}}")


def _base_passing_samples(tasks: Sequence[Task], samples_dir: Path, sandbox: Sandbox,
                          config: AuditConfig, known: Collection[TaskId],
                          families: Families = FAMILIES) -> dict[str, list[SampleCode]]:
    """Samples (of a samples file, or of every ``*.jsonl`` in a folder) that pass their
    task's base tests (judged against the ground truth's outputs), each with its model's
    family; samples of the dataset's other tasks (``known``: ``--tasks`` audits some) are
    left out."""
    by_id = {task.task_id: task for task in tasks}
    files = sample_files(samples_dir)
    truths = {task.task_id: audit.sandbox_runner(task, sandbox)(
        task.solution, task.base_inputs, config.perf_lines, config.seconds) for task in tasks}
    pending: list[tuple[Sample, str]] = []
    for path in files:
        model = model_of(path.name)
        pending += [(sample, model)
                    for sample in read_samples_of(path, by_id, lambda: known)[0]
                    if sample.task_id in truths and not sample.refused
                    and all(o.status is Status.OK for o in truths[sample.task_id])]
    jobs = (task_job(by_id[sample.task_id], sample.code, by_id[sample.task_id].base_inputs,
                     config.sample_seconds * 4,
                     expected=[o.value for o in truths[sample.task_id]])
            for sample, _model in pending)
    passing: dict[str, list[SampleCode]] = {}
    for (sample, model), result in zip(pending, sandbox.map(jobs), strict=True):
        if result.all_passed:
            passing.setdefault(sample.task_id, []).append(
                SampleCode(sample.code, model, family_of(model, families)))
    return passing


def _audit_inputs(task: Task, plus: Sequence[Args], contract: Contract, limit: int,
                  witness: Args | None = None) -> tuple[Args, ...]:
    """Valid, distinct candidates: base inputs, docstring examples, the reviewed witness
    of a fixed ground truth, then plus inputs."""
    from evalplus_ng.generate.seed import (  # imports Hypothesis: only when auditing
        docstring_examples,
    )

    seen: set[str] = set()
    chosen: list[Args] = []
    reviewed = [witness] if witness is not None else []
    for args in [*task.base_inputs, *docstring_examples(task.prompt, task.entry_point),
                 *reviewed, *plus]:
        key = canonical(args)
        if key not in seen and contract.valid(args):
            seen.add(key)
            chosen.append(args)
    return tuple(chosen[:limit])


#: Each audited task's findings before review, losslessly (``out_dir/AUDIT_STORE/``): an
#: audit of some tasks rewrites theirs and reports every task audited in the folder.
AUDIT_STORE = Path("checkpoints") / "audit"


def _stored_audits(store: Path, tasks: Sequence[Task]) -> dict[TaskId, list[Finding]]:
    """Findings of the tasks of ``tasks`` audited in ``store`` before; a stored file that
    does not read back is left out."""
    found: dict[TaskId, list[Finding]] = {}
    for task in tasks:
        path = store / f"{file_stem(task.task_id)}.json"
        if not path.is_file():
            continue
        try:
            found[task.task_id] = [audit.finding_from_wire(d)
                                   for d in json.loads(path.read_text(encoding="utf-8"))]
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return found


def held_path(out_dir: Path, dataset: Dataset) -> Path:
    """The suite file of the plus inputs jury leads hold out of the plus suite (in the
    plus suite's schema; never judged with)."""
    return out_dir / f"{dataset.stem}-Held.jsonl.gz"


def hold_out(out_dir: Path, dataset: Dataset, held: Mapping[TaskId, Sequence[Args]]
             ) -> dict[TaskId, int]:
    """Rewrite the plus suite in ``out_dir`` without the ``held`` inputs (a task that
    loses some loses its calibration: its units are per input), write them to
    :func:`held_path` (removed when none) and count them in ``stats.json``; returns the
    inputs held per task."""
    path = out_dir / dataset.suite_file("plus")
    tasks = load_plus_file(path, dataset.equality())
    keys = {task_id: {canonical(list(args)) for args in inputs}
            for task_id, inputs in held.items()}
    kept: list[Task] = []
    out: list[Task] = []
    for task in tasks:
        drop = keys.get(task.task_id, set())
        mine = tuple(a for a in task.plus_inputs if canonical(list(a)) in drop)
        if not mine:
            kept.append(task)
            continue
        kept.append(replace(task, calibration=None, plus_inputs=tuple(
            a for a in task.plus_inputs if canonical(list(a)) not in drop)))
        out.append(replace(task, calibration=None, plus_inputs=mine))
    counts = {task.task_id: len(task.plus_inputs) for task in out}
    if out:
        write_plus_file(kept, path, dataset.schema)
        write_plus_file(out, held_path(out_dir, dataset), dataset.schema)
    else:
        held_path(out_dir, dataset).unlink(missing_ok=True)
    stats_path = out_dir / "stats.json"
    if stats_path.is_file():
        stats = json.loads(stats_path.read_text(encoding="utf-8"))
        stats["held_by_audit"] = {"inputs": sum(counts.values()), "tasks": counts}
        _write_json_atomically(stats_path, stats)
    return counts


def run_audit(out_dir: Path, dataset: Dataset, samples_dir: Path | None = None,
              workers: int = 2, progress: Progress | None = None, suite: Path | None = None,
              config: AuditConfig | None = None, task_ids: Sequence[str] | None = None,
              answered_lines: int | None = None, families: Families = FAMILIES,
              hold: bool = False, opinions: OpinionSource | None = None) -> AuditSummary:
    """Audit a dataset's reference solutions; write ``out_dir/audit.json`` and ``audit.md``
    (``task_ids``: only those tasks are audited; the report keeps the findings of every
    other task audited in ``out_dir`` before, see :data:`AUDIT_STORE`).

    Candidate inputs are each task's base inputs, docstring examples and the plus
    inputs of ``suite`` (default the plus suite in ``out_dir`` when present), after
    those of the stress tier beside it.

    ``answered_lines`` says that the suite's inputs (and the stress tier's) are each
    answered, stably, by their task's ground truth within that many lines: true of the
    suite ``augment`` just wrote (its oracle's ``max_lines``). Within ``perf_lines``,
    the original of a task without a fixed ground truth (the ground truth itself) then
    does not run on them again (:func:`evalplus_ng.oracle.audit.originals`).

    With ``samples_dir``, the jury (:mod:`evalplus_ng.oracle.jury`) checks every plus input of
    the suite (and those held beside it, :func:`held_path`, unless ``hold``); its
    families come from ``families``. ``hold`` (``augment``, whose suite in ``out_dir``
    is whole again) then holds the inputs of unreviewed jury leads out of the plus suite
    (:func:`hold_out`). ``opinions`` asks a model for a second opinion on each lead.
    """
    config = config or AuditConfig()
    tasks = everything = dataset.load()
    known = {task.task_id for task in tasks}
    if task_ids is not None:
        wanted = set(task_ids)
        tasks = [task for task in tasks if task.task_id in wanted]
    fixed = fixed_solutions(dataset, [task.task_id for task in tasks])
    dismissals = _audit_dismissals(dataset)
    suite = suite if suite is not None else out_dir / dataset.suite_file("plus")
    plus: dict[TaskId, tuple[Args, ...]] = {}
    checked: dict[TaskId, tuple[Args, ...]] = {}  # the plus suite's, for the jury
    stress = suite.with_name(dataset.suite_file("stress"))
    held = held_path(suite.parent, dataset)
    for path in (stress, suite, *([held] if not hold else [])):  # the few stress ones first
        if path.is_file():
            for t in load_plus_file(path):
                plus[t.task_id] = (*plus.get(t.task_id, ()), *t.plus_inputs)
                if path != stress:
                    checked[t.task_id] = (*checked.get(t.task_id, ()), *t.plus_inputs)
    out_dir.mkdir(parents=True, exist_ok=True)
    jury_cost, jury_seconds = JuryCost(), [0.0, 0.0]
    with Sandbox(workers, judge=JUDGE, hidden=answer_keys_near(out_dir, dataset, suite, held)
                 ) as sandbox:
        began = time.perf_counter()
        samples = (_base_passing_samples(tasks, samples_dir, sandbox, config, known, families)
                   if samples_dir is not None else {})
        jury_seconds[0] = time.perf_counter() - began if samples_dir is not None else 0.0

        def one(task: Task) -> tuple[list[Finding], JuryCost, float]:
            contract = load_contract(task, dataset.contract_path(task.task_id))
            repair = fixed.get(task.task_id)
            witness = repair.witness if repair is not None else None
            inputs = _audit_inputs(task, plus.get(task.task_id, ()), contract, config.max_inputs,
                                   witness)
            answered_from = None
            if answered_lines is not None and answered_lines <= config.perf_lines:
                # The suite's inputs follow the task's own (base, docstring, witness).
                answered_from = len(_audit_inputs(task, (), contract, config.max_inputs,
                                                  witness))
            work = audit.TaskAudit(task, contract, inputs, audit.sandbox_runner(task, sandbox),
                                   config, repair, tuple(samples.get(task.task_id, ())),
                                   frozenset(dismissals.get(task.task_id, {})), answered_from,
                                   tuple(a for a in checked.get(task.task_id, ())
                                         if contract.valid(a)),
                                   audit.sandbox_judged(task, sandbox) if samples else None)
            found = audit.audit_task(work)
            began = time.perf_counter()
            leads, cost = jury(work)
            if leads and opinions is not None:
                leads = [opinions(task, lead) for lead in leads]
            return [*found, *leads], cost, time.perf_counter() - began

        findings: list[Finding] = []
        with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
            for done, (found, cost, seconds) in enumerate(pool.map(one, tasks), start=1):
                findings += found
                jury_cost, jury_seconds[1] = jury_cost + cost, jury_seconds[1] + seconds
                if progress is not None:
                    progress(done, len(tasks))
    store = out_dir / AUDIT_STORE
    store.mkdir(parents=True, exist_ok=True)
    fresh = {task.task_id: [f for f in findings if f.task_id == task.task_id] for task in tasks}
    for task_id, mine in fresh.items():
        _write_json_atomically(store / f"{file_stem(task_id)}.json",
                               [audit.finding_wire(f) for f in mine])
    audited = {**_stored_audits(store, [t for t in everything if t.task_id not in fresh]),
               **fresh}
    findings = [f for task in everything if task.task_id in audited
                for f in audited[task.task_id]]
    tasks = [task for task in everything if task.task_id in audited]
    repaired = fixed_solutions(dataset, [task.task_id for task in tasks])
    reviewed = audit.review(findings, repaired, dismissals)
    json_path, markdown_path = out_dir / "audit.json", out_dir / "audit.md"
    entry_points = {task.task_id: task.entry_point for task in tasks}
    _write_json_atomically(json_path, [audit.finding_record(f, entry_points[f.task_id])
                                       for f in reviewed])
    # Why a fix no signal confirmed is not shown: its witness breaks the task's contract.
    by_id = {task.task_id: task for task in tasks}
    unconfirmed = (repaired.keys() & by_id.keys()) - set(audit.defective_tasks(reviewed))
    invalid = {task_id: reason for task_id in unconfirmed
               if (reason := load_contract(by_id[task_id], dataset.contract_path(task_id))
                   .violation(repaired[task_id].witness)) is not None}
    write_atomically(markdown_path, audit.markdown(reviewed, entry_points,
                                                   {k: v for k, v in repaired.items()
                                                    if k in entry_points}, invalid))
    counts = (hold_out(out_dir, dataset, audit.held_inputs(reviewed)) if hold
              else {k: len(v) for k, v in audit.held_inputs(reviewed).items()})
    return AuditSummary(tuple(reviewed), tuple(audit.defective_tasks(reviewed)),
                        json_path, markdown_path, jury_cost,
                        (round(jury_seconds[0], 1), round(jury_seconds[1], 1)), counts)


def stale_minis(out_dir: Path, dataset: Dataset) -> list[Path]:
    """The MINIs in ``out_dir`` that were not reduced from the suite beside them now (a
    task more or fewer, or an input the suite no longer has): left by an earlier run."""
    stale = []
    for mini_kind, kind in (("mini", "plus"), ("stress-mini", "stress")):
        mini, parent = (out_dir / dataset.suite_file(k) for k in (mini_kind, kind))
        if not mini.is_file():
            continue
        if not parent.is_file():
            stale.append(mini)
            continue
        held = {t.task_id: {canonical(list(a)) for a in t.plus_inputs}
                for t in load_plus_file(parent)}
        reduced = load_plus_file(mini)
        if ({t.task_id for t in reduced} != set(held)
                or any(canonical(list(a)) not in held[t.task_id]
                       for t in reduced for a in t.plus_inputs)):
            stale.append(mini)
    return stale


# ---------------------------------------------------------------- calibrate


@dataclass(frozen=True)
class CalibrateSummary:
    """What ``calibrate`` did: the suites rewritten and the reference time measured."""

    paths: tuple[Path, ...]
    tasks: int
    tests: int
    reference_seconds: float
    #: With a Ray cluster: the units (of up to :data:`CALIBRATION_CHUNK` tasks) each node
    #: timed (by node id).
    nodes: Mapping[str, int] = field(default_factory=dict)


def _calibrate_unit(item: tuple[list[Task], float, float]) -> list[Task]:
    """A Ray unit: some tasks calibrated on this node (its own reference workload)."""
    from evalplus_ng.backend.cluster import worker_sandbox

    tasks, floor, factor = item
    return calibrate_tasks(tasks, worker_sandbox(Limits(), ()), floor, factor)


def _calibrate_on_cluster(backend: Backend, tasks: Sequence[Task], floor: float,
                          factor: float, step: Progress, nodes: Counter[str]) -> list[Task]:
    """:func:`calibrate_tasks` on a Ray cluster, :data:`calibrate.CHUNK` tasks a unit."""
    units = [(list(tasks[i:i + CALIBRATION_CHUNK]), floor, factor)
             for i in range(0, len(tasks), CALIBRATION_CHUNK)]
    timed: list[Task] = []
    for done in backend.unordered(_calibrate_unit, units, nodes):
        timed += done
        step(len(timed), len(tasks))
    return timed


def run_calibrate(
    out_dir: Path, dataset: Dataset, floor: float = DEFAULT_FLOOR_SECONDS,
    factor: float = DEFAULT_FACTOR, backend: Backend = LOCAL,
    progress: Progress | None = None,
    kinds: Sequence[str] = ("mini", "stress", "stress-mini", "edge"), missing_only: bool = False,
) -> CalibrateSummary:
    """Calibrate the plus suite in ``out_dir`` (and the suites of ``kinds`` present: by
    default the mini, stress, stress-mini and edge suites), in place.

    Each file is rewritten atomically with the same tasks and inputs and a fresh
    calibration per task; only the calibration differs between runs. A MINI written
    from a calibrated suite inherits its tests' units (``augment`` calibrates the plus
    and stress suites before it reduces them: the MINIs' inputs are timed once).
    ``missing_only`` times only the tasks without a calibration (``augment --tasks``
    adding to a calibrated suite); the summary counts the tasks and tests timed.
    On a Ray ``backend`` a chunk of tasks is a unit, each unit measuring its node's
    reference workload itself.
    """
    plus = out_dir / dataset.suite_file("plus")
    if not plus.is_file():
        raise InputError(str(plus), None,
                         f"no plus suite here: run `evalplus-ng augment --dataset {dataset.name} "
                         f"--out {out_dir}` first")
    paths = [plus] + [p for p in (out_dir / dataset.suite_file(kind)
                                  for kind in kinds) if p.is_file()]
    equality = dataset.equality()  # of suites that do not record it: kept as they are judged
    suites = [load_plus_file(path, equality) for path in paths]
    total = sum(sum(not missing_only or t.calibration is None for t in tasks)
                for tasks in suites)
    finished = 0

    def step(done: int, _count: int) -> None:
        if progress is not None:
            progress(finished + done, total)

    tests = 0
    references: list[float] = []
    nodes: Counter[str] = Counter()
    with contextlib.ExitStack() as stack:
        sandbox = None if backend.ray else stack.enter_context(Sandbox(backend.workers))
        for path, tasks in zip(paths, suites, strict=True):
            todo = [t for t in tasks if not missing_only or t.calibration is None]
            if sandbox is not None:
                timed = calibrate_tasks(todo, sandbox, floor, factor, on_done=step)
            else:
                timed = _calibrate_on_cluster(backend, todo, floor, factor, step, nodes)
            fresh = {t.task_id: t for t in timed}
            calibrated = [fresh.get(t.task_id, t) for t in tasks]
            write_plus_file(calibrated, path, dataset.schema)
            finished += len(todo)
            tests += sum(len(t.base_inputs) + len(t.plus_inputs) for t in todo)
            references += [t.calibration.reference_seconds or 0.0
                           for t in fresh.values() if t.calibration is not None]
    return CalibrateSummary(tuple(paths), finished, tests,
                            statistics.median(references) if references else 0.0, dict(nodes))


# ---------------------------------------------------------------- report


@dataclass(frozen=True)
class ReportSummary:
    """What ``report`` wrote and over what."""

    markdown_path: Path
    html_path: Path
    report: Report
    facts: SuiteFacts


def results_files(paths: Sequence[Path]) -> list[Path]:
    """The results files ``paths`` name: files as given, folders by every
    ``*eval_results.json`` below them (in name order)."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            inside = sorted(path.rglob("*eval_results.json"))
            if not inside:
                raise InputError(str(path), None, "no *eval_results.json files in this folder")
            found += inside
        elif path.is_file():
            found.append(path)
        else:
            raise InputError(str(path), None, "no such file or folder")
    return found


def results_label(path: Path) -> str:
    """Whose samples a results file judged: ``x_eval_results.json`` -> ``x``; a samples
    folder's ``eval_results.json`` -> the folder's name."""
    if path.name == "eval_results.json":
        return path.parent.name
    return path.name.removesuffix(".json").removesuffix("_eval_results")


def _json_file(path: Path) -> object | None:
    try:
        document: object = json.loads(path.read_text(encoding="utf-8"))
        return document
    except (OSError, ValueError):
        return None


def suite_facts(artifacts: Path, datasets: Collection[str] = ()) -> SuiteFacts:
    """What ``artifacts`` holds of the suite (stats, MINI size, audit); an absent or
    unreadable file leaves its part out, with a note saying so, as does a suite of a
    dataset other than the results' ``datasets``."""
    notes: list[str] = []
    stats, reduction, findings = (_json_file(artifacts / name) for name in
                                  ("stats.json", "reduction.json", "audit.json"))
    plus = stress = edge = None
    if isinstance(stats, dict):
        plus, stress = stats.get("plus_inputs"), stats.get("stress_inputs")
        edge = stats.get("edge_inputs")
        config = stats.get("config")
        made = config.get("dataset") if isinstance(config, dict) else None
        if made and datasets and made not in datasets:
            notes.append(f"warning: {artifacts} holds a {made} suite; the results judged "
                         f"{', '.join(sorted(datasets))}")
    else:
        notes.append(f"no readable {artifacts / 'stats.json'}")
    profile = tests = None
    if isinstance(reduction, dict):
        profile = reduction.get("profile")
        tests = next((p.get("tests_per_task") for p in reduction.get("profiles", [])
                      if isinstance(p, dict) and p.get("profile") == profile), None)
    audit_counts = defective = None
    if isinstance(findings, list):
        records = [f for f in findings if isinstance(f, dict)]
        audit_counts = dict(Counter(str(f.get("status")) for f in records))
        defective = tuple(sorted({str(f.get("task_id")) for f in records
                                  if f.get("status") == audit.CONFIRMED}, key=audit.task_order))
    return SuiteFacts(str(artifacts), plus, stress, edge, profile, tests, audit_counts,
                      defective or (), tuple(notes))


def run_report(paths: Sequence[Path], out: Path, artifacts: Path = DEFAULT_OUT,
               ) -> ReportSummary:
    """Read every results file ``paths`` name (one or more per model: ``evaluate
    --results DIR/MODEL_eval_results.json``, one folder per suite); write
    ``out/report.md`` and ``out/report.html``, with what ``artifacts`` says of the suite."""
    judged: list[JudgedFile] = []
    for path in results_files(paths):
        try:
            document = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(str(path), None, f"cannot read: {exc}") from None
        except json.JSONDecodeError as exc:
            raise InputError(str(path), exc.lineno, f"invalid JSON: {exc.msg}") from None
        try:
            judged.append(judged_file(document, results_label(path), str(path)))
        except ResultsFormatError as exc:
            raise InputError(str(path), None, str(exc)) from None
    try:
        report = build(judged)
    except DuplicateResultsError as exc:
        raise InputError(exc.path, None, str(exc)) from None
    facts = suite_facts(artifacts, report.datasets)
    out.mkdir(parents=True, exist_ok=True)
    markdown_path, html_path = out / "report.md", out / "report.html"
    write_atomically(markdown_path, render.markdown(report, facts))
    write_atomically(html_path, render.page(report, facts))
    return ReportSummary(markdown_path, html_path, report, facts)
