"""``evaluate``: judge a samples file against a suite, checkpointing as it goes."""

from __future__ import annotations

import functools
import hashlib
import json
import shlex
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from evalplus_ng.backend.executors import jail_of
from evalplus_ng.errors import InputError
from evalplus_ng.evaluation.edges import split_kills
from evalplus_ng.evaluation.verdicts import (
    DATE_FORMAT,
    Completeness,
    EvalConfig,
    SampleResult,
    evaluate_staged,
    identity_changes,
    pass_at_k,
    results_document,
    results_from_document,
    run_record,
    suite_hash,
    verdict_identity,
)
from evalplus_ng.files import write_json
from evalplus_ng.oracle.groundtruth import GroundTruth, answer_failure
from evalplus_ng.oracle.timelimits import measure_reference
from evalplus_ng.pipeline.context import AUTO, Progress, Workspace
from evalplus_ng.records import REFUSALS, Sample, Task, Verdict
from evalplus_ng.report.summary import (
    JudgedFile,
    judged_file,
)
from evalplus_ng.sandbox import Limits
from evalplus_ng.seal import genuine, sealed, user_secret
from evalplus_ng.tasks.samples import Sanitizing, read_samples_of, repaired_positions
from evalplus_ng.tasks.sources import own_asserts, user_cache_dir
from evalplus_ng.tasks.spec import SUITE_SUFFIXES, Dataset
from evalplus_ng.tasks.tasksfile import task_line
from evalplus_ng.types import TaskId

T = TypeVar("T")

#: Seconds between checkpoints of the results file.
CHECKPOINT_SECONDS = 15.0


#: What names evalplus-ng's own results files: ``S.evalplus-ng.SUITE.json`` beside a
#: samples file ``S.jsonl``, ``FOLDER/evalplus-ng.SUITE.json`` in a samples folder.
RESULTS_TAG = "evalplus-ng"
#: EvalPlus's name: ``S_eval_results.json`` beside ``S.jsonl``, ``FOLDER/eval_results.json``.
EVALPLUS_RESULTS = "eval_results.json"
#: Added to the name of a results file that ``--evalplus-results`` writes while the run
#: is not yet complete (EvalPlus would take any file under its own name for a whole one).
PARTIAL_SUFFIX = ".partial"


def suite_name(suite: str, digest: str) -> str:
    """The suite's part of a results file's name: its kind (``base``, ``plus``, ``mini``,
    ``stress``, ``stress-mini``, ``edge``), or for a suite file named by its path,
    ``file-`` and the first 12 hex digits of the file's digest."""
    return suite if _suite_kind(suite) != "file" else f"file-{digest[:12]}"


def results_path(samples: Path, suite: str, evalplus: bool = False) -> Path:
    """Where the results of judging ``samples`` with ``suite`` (:func:`suite_name`) go by
    default: ``x.jsonl`` -> ``x.evalplus-ng.SUITE.json`` beside it, a samples folder ->
    ``evalplus-ng.SUITE.json`` inside it: one file per suite, and never a name EvalPlus
    reads. ``evalplus``: EvalPlus's own name, ``x_eval_results.json`` or
    ``FOLDER/eval_results.json`` (the same for every suite)."""
    if samples.is_dir():
        return samples / (EVALPLUS_RESULTS if evalplus else f"{RESULTS_TAG}.{suite}.json")
    name = samples.name
    stem = name[: -len(".jsonl")] if name.endswith(".jsonl") else samples.stem
    return samples.with_name(f"{stem}_{EVALPLUS_RESULTS}" if evalplus
                             else f"{stem}.{RESULTS_TAG}.{suite}.json")


def is_results_name(name: str) -> bool:
    """Whether ``name`` is a results file's, evalplus-ng's (:func:`results_path`) or
    EvalPlus's; how ``report`` finds them in a folder."""
    return name.endswith(EVALPLUS_RESULTS) or (name.endswith(".json") and (
        name.startswith(f"{RESULTS_TAG}.") or f".{RESULTS_TAG}." in name))


def results_label(path: Path) -> str:
    """Whose samples a results file judged, from its name (the inverse of
    :func:`results_path`): ``x.evalplus-ng.plus.json`` and ``x_eval_results.json`` ->
    ``x``; ``FOLDER/evalplus-ng.plus.json`` and ``FOLDER/eval_results.json`` -> the
    folder's name; any other ``y.json`` -> ``y``."""
    name = path.name
    if f".{RESULTS_TAG}." in name and name.endswith(".json"):
        return name.rpartition(f".{RESULTS_TAG}.")[0]
    if name == EVALPLUS_RESULTS or (name.startswith(f"{RESULTS_TAG}.")
                                    and name.endswith(".json")):
        return path.parent.name
    if name.endswith(f"_{EVALPLUS_RESULTS}"):
        return name.removesuffix(f"_{EVALPLUS_RESULTS}")
    return name.removesuffix(".json")


@dataclass(frozen=True)
class EvaluateRequest:
    """Everything ``evaluate`` needs, gathered by the CLI."""

    samples: Path
    #: The benchmark, the artifacts folder the named suites are read from, and where
    #: the samples run (this machine's sandbox pool or a Ray cluster).
    workspace: Workspace
    #: ``auto``, ``base``, ``plus``, ``mini``, ``stress``, ``stress-mini`` or a file path.
    suite: str = AUTO
    resume: bool = False
    config: EvalConfig = field(default_factory=EvalConfig)
    limits: Limits = field(default_factory=Limits)
    #: Where the results go; None: beside the samples (:func:`results_path`).
    results: Path | None = None
    #: Write them under EvalPlus's own name, once complete (:func:`results_path`).
    evalplus_results: bool = False
    #: How an answer becomes its program: as EvalPlus's sanitize then evaluate (the
    #: default), as its evaluate alone (``NONE``), or with our repairs (``REPAIR``: the
    #: summary then tells what they changed).
    sanitizing: Sanitizing = Sanitizing.EVALPLUS
    #: Only these tasks (``--tasks``: ids, numbers or ranges); None: every task. Samples
    #: of the others are left out.
    task_spec: str | None = None


class _OfTask(Protocol):
    @property
    def task_id(self) -> str: ...


ResultT = TypeVar("ResultT", bound=_OfTask)


@dataclass(frozen=True)
class Judged(Generic[ResultT]):
    """What an ``evaluate`` run judged, of functions or of programs: the results file,
    each sample's result (in samples-file order) and pass@k per column."""

    results_path: Path
    results: tuple[ResultT, ...]
    pass_at_k: dict[str, dict[int, float]]
    #: Tasks in the judged suite (the samples may answer fewer).
    suite_tasks: int = field(default=0, kw_only=True)
    #: With the Ray backend: sandbox jobs run per node (by Ray node id).
    nodes: Mapping[str, int] = field(default_factory=dict, kw_only=True)
    #: Which jail ran the samples (:func:`~evalplus_ng.backend.executors.jail_of`).
    jail: str = field(default="", kw_only=True)

    def coverage(self) -> str:
        """"N of M tasks, n samples (k per task)": what the pass@k figures are over."""
        per_task = Counter(result.task_id for result in self.results)
        low, high = min(per_task.values(), default=0), max(per_task.values(), default=0)
        each = f"{low}" if low == high else f"{low} to {high}"
        return (f"{len(per_task)} of {self.suite_tasks} tasks, {len(self.results)} samples "
                f"({each} per task)")


@dataclass(frozen=True)
class EvaluateSummary(Judged[SampleResult]):
    """What ``evaluate`` did."""

    reused: int
    #: Samples skipped per task: tasks the dataset has and the judged suite lacks.
    skipped: Mapping[TaskId, int] = field(default_factory=dict)
    #: The suite judged with (``auto`` resolved).
    suite: str = "base"
    #: With ``--repair``: the samples whose program a repair changed, and every sample's
    #: verdicts without repairs (EvalPlus's workflow), in the order of ``results``.
    repaired: int = 0
    unrepaired: tuple[SampleResult, ...] = ()

    @property
    def beyond(self) -> str:
        """What the suite's tests beyond the base ones are called (its ``plus`` column):
        ``stress`` for the stress suites, ``edge`` for the edge tier, else ``plus``."""
        return ("stress" if self.suite in ("stress", "stress-mini") else
                "edge" if self.suite == "edge" else "plus")

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

    def verdicts_repaired(self) -> int:
        """Samples whose verdict (base, or base and plus) the repairs changed."""
        return sum(_passes(mine) != _passes(plain)
                   for mine, plain in zip(self.results, self.unrepaired, strict=True))

    def repair_changes(self) -> Counter[str]:
        """Those samples by column and way: ``base gained`` (fails without repairs, passes
        with them), ``base lost``, ``plus gained``, ``plus lost`` (plus: base and plus
        tests, EvalPlus's "base + extra")."""
        changes: Counter[str] = Counter()
        for mine, plain in zip(self.results, self.unrepaired, strict=True):
            for column, now, before in zip(("base", "plus"), _passes(mine), _passes(plain),
                                           strict=True):
                if now != before:
                    changes[f"{column} {'gained' if now else 'lost'}"] += 1
        return changes

    def kills(self) -> Counter[str]:
        """Samples that pass base and fail the suite beyond it (plus, or stress), by what
        their first failing test did (:data:`evalplus_ng.evaluation.verdicts.FAILURES`): a timeout
        is a kind of its own, apart from a wrong answer."""
        return Counter(r.plus_failure or r.base_failure for r in self.results
                       if r.base_status is Verdict.PASS and not r.passed_plus)


def _passes(result: SampleResult) -> tuple[bool, bool]:
    """Whether a sample passes the base tests, and the base and plus tests."""
    return result.base_status is Verdict.PASS, result.passed_plus


def _suite_kind(suite: str) -> str:
    """``base``, a kind ``augment`` writes, or ``file`` (the hash tells files apart)."""
    return suite if suite == "base" or suite in SUITE_SUFFIXES else "file"


def run_evaluate(
    request: EvaluateRequest, progress: Progress | None = None,
    status: Callable[[str], None] | None = None,
) -> EvaluateSummary:
    """Judge a samples file; writes results beside it, checkpointing as it goes."""
    say = status or (lambda _message: None)
    space = request.workspace
    suite = space.resolved_suite(request.suite)
    chosen, request = suite != request.suite, replace(request, suite=suite)
    judged = space.suite_path(request.suite)
    # A suite file is identified by its bytes (a digest of them costs milliseconds;
    # re-encoding every input of a full suite costs over half a second).
    # (a missing one is named by the suite's loading, below)
    file_digest = (hashlib.sha256(judged.read_bytes()).hexdigest()
                   if judged is not None and judged.is_file() else "")
    out = request.results or results_path(
        request.samples, suite_name(request.suite, file_digest), request.evalplus_results)
    # EvalPlus takes any file under its own name for a whole one: until the run is
    # complete, --evalplus-results checkpoints beside it, under a name it never reads.
    checkpoint = (out.with_name(out.name + PARTIAL_SUFFIX) if request.evalplus_results
                  else out)
    # The results of an earlier run show expected outputs (a failure's diff): hidden too.
    hidden = space.answer_keys(*([judged] if judged else []), out, checkpoint)
    # Made (on first use) before any sandbox starts, so that every jail hides it.
    secret = user_secret(user_cache_dir())
    with space.backend.executor(request.limits, hidden) as sandbox:
        sandbox.start()  # the supervisors boot while the suite and the samples load
        every = {task.task_id: task for task in space.load_suite(request.suite)}
        whole = set(every)
        tasks = every if request.task_spec is None else chosen_tasks(every,
                                                                     request.task_spec)
        outside = functools.cache(lambda: _dataset_tasks(request) | whole)
        samples, skipped = read_samples_of(request.samples, tasks, outside,
                                           request.sanitizing)
        unchosen = {task_id: n for task_id, n in skipped.items() if task_id in whole}
        skipped = Counter({task_id: n for task_id, n in skipped.items() if task_id not in whole})
        if unchosen:
            say(f"--tasks: left out {sum(unchosen.values())} sample(s) of {len(unchosen)} "
                "other task(s)")
        if not samples:
            place = "here" if request.samples.is_dir() else "in file"
            raise InputError(str(request.samples), None,
                             f"no samples of the suite's tasks {place}")
        # With repairs, EvalPlus's program of each sample they changed is judged too.
        changed = _repaired(request, tasks, outside, samples)
        extra = [sample for _, sample in changed]
        if skipped:
            say(skipped_warning(skipped))
        if chosen:
            say(f"judging with the {suite} suite" + (
                f" of {space.out} (base and plus tests)" if suite == "plus" else
                f" only: {space.out} holds no plus suite (`{augment_command(space)}` makes "
                "one)"))
        digest = file_digest if judged is not None else suite_hash(every.values())
        out.parent.mkdir(parents=True, exist_ok=True)
        identity = verdict_identity(digest, space.dataset.name, _suite_kind(request.suite),
                                    request.config, request.limits.memory_bytes,
                                    (task.equality for task in tasks.values()))
        # How the programs were made: only EvalPlus's way gives EvalPlus's numbers.
        identity["sanitize"] = request.sanitizing.value
        done: dict[int, SampleResult] = {}
        if request.resume:
            saved = next((path for path in (checkpoint, out) if path.is_file()), None)
            done = resumed(saved, identity, secret,
                           lambda document: results_from_document(document, samples, tasks),
                           len(samples), say)
        needed = {s.task_id for position, s in enumerate(samples)
                  if position not in done and not s.refused}
        needed |= {s.task_id for s in extra if not s.refused}
        warned: set[TaskId] = set()
        told: set[TaskId] = set()  # tasks whose own asserts fail on their reference

        def warn(truths: Mapping[TaskId, GroundTruth]) -> None:
            for task_id, truth in sorted(truths.items(), key=lambda item: tasks[item[0]].number):
                if task_id not in warned and (any(truth.base.failures)
                                              or any(truth.plus.failures)):
                    warned.add(task_id)
                    say(f"warning: {task_id}: the ground truth fails on some inputs; "
                        "they are not used")
                contradicted = own_asserts_failure(space.dataset, tasks[task_id], truth)
                if contradicted and task_id not in told:
                    told.add(task_id)
                    say(f"warning: {contradicted}")

        config = request.config
        if config.reference_seconds is None and any(tasks[t].calibration for t in needed):
            # Measured once per run, here, so that calibrated limits follow this machine.
            config = replace(config, reference_seconds=measure_reference(sandbox))
            say(f"calibrated suite: reference workload takes {config.reference_seconds:.4f} s "
                "here")
        say(f"running the ground truth of {len(needed)} task(s) and judging")
        results: dict[int, SampleResult] = {}
        date = datetime.now().strftime(DATE_FORMAT)
        about = (str(judged) if judged is not None else None, str(request.samples))
        answered = {sample.task_id for sample in samples}

        def save(complete: bool) -> None:
            """Write the results so far: to ``out`` once complete, else to ``checkpoint``,
            without the failures' diffs (expected outputs) while samples may still run."""
            ordered = _ordered(results)
            if not complete:
                ordered = [replace(r, base_diff="", plus_diff="") for r in ordered]
            mark = Completeness(complete, len(ordered), len(samples),
                                len({r.task_id for r in ordered}), len(answered), len(tasks),
                                sum(skipped.values()))
            run = {**run_record(mark, *about), "jail": jail_of(sandbox)}
            document = results_document(ordered, identity, run, date)
            write_json(out if complete else checkpoint, sealed(document, secret))

        plain: dict[int, SampleResult] = {}  # the extra samples' results
        last = time.monotonic()
        finished = False
        try:
            for position, result in evaluate_staged(
                tasks, [*samples, *extra], sandbox, config, done, warn
            ):
                if position < len(samples):
                    results[position] = result
                else:
                    plain[changed[position - len(samples)][0]] = result
                if progress is not None:
                    progress(len(results) + len(plain), len(samples) + len(extra))
                if time.monotonic() - last > CHECKPOINT_SECONDS:
                    save(complete=False)
                    last = time.monotonic()
            results = split_kills(tasks, results, sandbox, config)  # what each kill rests on
            finished = True
        finally:
            save(complete=finished)
    if checkpoint != out:
        checkpoint.unlink(missing_ok=True)
    ordered = _ordered(results)
    unrepaired = (tuple(plain.get(position, results[position]) for position in sorted(results))
                  if request.sanitizing is Sanitizing.REPAIR else ())
    return EvaluateSummary(out, tuple(ordered), pass_at_k(ordered), len(done), dict(skipped),
                           suite, len(changed), unrepaired, suite_tasks=len(tasks),
                           nodes=dict(getattr(sandbox, "nodes", {})), jail=jail_of(sandbox))


def augment_command(space: Workspace) -> str:
    """The ``augment`` command line that writes ``space``'s suites: its dataset as named,
    with the file its tasks were read from (a tasks file, or ``--dataset-file``: no
    download needed, so it works offline where this run did)."""
    dataset = space.dataset
    named = (["--dataset", str(dataset.source)] if dataset.kind == "tasks" and dataset.source
             else ["--dataset", dataset.name]
             + (["--dataset-file", str(dataset.source)] if dataset.source else []))
    return shlex.join(["evalplus-ng", "augment", *named, "--out", str(space.out)])


def own_asserts_failure(dataset: Dataset, task: Task, truth: GroundTruth) -> str:
    """``FILE:LINE: task ...: its test ... fails on the reference`` where an assert of a
    tasks file's own tests fails on the answers of the task's ground truth (which judge
    the samples); "" where none does, or the dataset is no tasks file."""
    if dataset.kind != "tasks" or dataset.source is None:
        return ""
    asserts = own_asserts(task.test, task.entry_point)
    if len(asserts) != len(truth.base.outputs):
        return ""
    for own, output, failure in zip(asserts, truth.base.outputs, truth.base.failures,
                                    strict=True):
        found = None if failure else answer_failure(task, own, output)
        if found is not None:
            line = task_line(dataset.source, task.task_id)
            return f"{dataset.source}{'' if line is None else f':{line}'}: {found}"
    return ""


def chosen_tasks(tasks: Mapping[TaskId, Task], spec: str) -> dict[TaskId, Task]:
    """The tasks ``spec`` names (``--tasks``: ids, numbers or ranges, as ``augment`` takes
    them), in the suite's order."""
    from evalplus_ng.pipeline.augment import select_tasks

    return {task.task_id: task for task in select_tasks(list(tasks.values()), spec)}


def skipped_warning(skipped: Mapping[TaskId, int]) -> str:
    """The line that says which samples were skipped: of tasks the suite lacks."""
    names = ", ".join(sorted(skipped, key=lambda t: (len(t), t))[:5])
    more = ", ..." if len(skipped) > 5 else ""
    return (f"warning: {sum(skipped.values())} sample(s) of {len(skipped)} task(s) the "
            f"suite lacks were skipped ({names}{more})")


def _repaired(request: EvaluateRequest, tasks: Mapping[TaskId, Task],
              outside: Callable[[], set[TaskId]],
              samples: Sequence[Sample]) -> list[tuple[int, Sample]]:
    """With ``--repair``: each sample whose program the repairs changed, by position, with
    its program without them (EvalPlus's); else none."""
    if request.sanitizing is not Sanitizing.REPAIR:
        return []
    plain, _ = read_samples_of(request.samples, tasks, outside, Sanitizing.EVALPLUS)
    return [(position, plain[position]) for position in repaired_positions(samples, plain)]


def resumed(path: Path | None, identity: Mapping[str, Any], secret: bytes,
            read: Callable[[Any], dict[int, T]], count: int, say: Callable[[str], None],
            what: str = "sample") -> dict[int, T]:
    """The verdicts of the results file at ``path`` that ``--resume`` reuses (``read``
    takes them from the document, by position among ``count`` samples): none unless this
    user's evalplus-ng sealed it and it was judged with the same ``identity`` (the suite's
    kind and digest, the dataset, the settings), each with a line saying why."""
    if path is None or not path.is_file():
        return {}
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise InputError(str(path), None, f"cannot resume, invalid JSON: {exc}") from None
    changes = identity_changes(document, identity)
    if not genuine(document, secret):
        say(f"{path}: not sealed by evalplus-ng for this user (forged, edited or "
            f"written elsewhere); judging every {what} again")
        return {}
    if changes:
        say(f"{path}: judged with another suite or settings ({', '.join(changes)}); "
            f"judging every {what} again")
        return {}
    done = read(document)
    say(f"resuming: {len(done)} of {count} {what}s already judged in {path}")
    return done


def _dataset_tasks(request: EvaluateRequest) -> set[TaskId]:
    """The dataset's task ids, to tell samples of a task the judged suite lacks (skipped
    with a warning, as EvalPlus does) from samples of an unknown task; asked only when a
    sample names a task outside the suite (the base suite is the whole dataset)."""
    if _suite_kind(request.suite) == "base":
        return set()
    return {task.task_id for task in request.workspace.dataset.load()}


def _ordered(results: dict[int, SampleResult]) -> Sequence[SampleResult]:
    return [results[position] for position in sorted(results)]
