"""``audit``: check a dataset's reference solutions on the suite's inputs (and, with
samples, by a jury of model families); write audit.json and audit.md."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

from evalplus_ng.files import read_json_table, write_atomically, write_json
from evalplus_ng.generate.contract import Contract, load_contract
from evalplus_ng.jobs import task_job
from evalplus_ng.judge import JUDGE
from evalplus_ng.oracle import defects
from evalplus_ng.oracle.defects import SAMPLES, AuditConfig, Finding, SampleCode
from evalplus_ng.oracle.jury import JuryCost, jury
from evalplus_ng.pipeline.context import Progress, Suites, Workspace
from evalplus_ng.records import Sample, Status, Task
from evalplus_ng.sandbox import Sandbox
from evalplus_ng.serialize import canonical
from evalplus_ng.tasks.samples import (
    Families,
    families_of,
    model_of,
    read_samples_of,
    sample_files,
)
from evalplus_ng.tasks.sources import fixed_solutions
from evalplus_ng.tasks.spec import Dataset, file_stem
from evalplus_ng.types import Args, TaskId

#: Asks a model for a second opinion on one jury lead (:mod:`evalplus_ng.oracle.opinion`).
OpinionSource = Callable[[Task, Finding], Finding]



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
                          families: Families = ()) -> dict[str, list[SampleCode]]:
    """Samples (of a samples file, or of every ``*.jsonl`` in a folder) that pass their
    task's base tests (judged against the ground truth's outputs), each with its model
    and its file's family (:func:`evalplus_ng.tasks.samples.families_of` with the declared
    ``families``); samples of the dataset's other tasks (``known``: ``--tasks`` audits
    some) are left out."""
    by_id = {task.task_id: task for task in tasks}
    files = sample_files(samples_dir)
    family_by_file = dict(zip(files, families_of(files, families), strict=True))
    truths = {task.task_id: defects.sandbox_runner(task, sandbox)(
        task.solution, task.base_inputs, config.perf_lines, config.seconds) for task in tasks}
    pending: list[tuple[Sample, str, str]] = []
    for path in files:
        model = model_of(path.name)
        pending += [(sample, model, family_by_file[path])
                    for sample in read_samples_of(path, by_id, lambda: known)[0]
                    if sample.task_id in truths and not sample.refused
                    and all(o.status is Status.OK for o in truths[sample.task_id])]
    jobs = (task_job(by_id[sample.task_id], sample.code, by_id[sample.task_id].base_inputs,
                     config.sample_seconds * 4,
                     expected=[o.value for o in truths[sample.task_id]])
            for sample, _model, _family in pending)
    passing: dict[str, list[SampleCode]] = {}
    for (sample, model, family), result in zip(pending, sandbox.map(jobs), strict=True):
        if result.all_passed:
            passing.setdefault(sample.task_id, []).append(SampleCode(sample.code, model, family))
    return passing


def _audit_inputs(task: Task, plus: Sequence[Args], contract: Contract, limit: int,
                  witness: Args | None = None) -> tuple[Args, ...]:
    """Valid, distinct candidates: base inputs, docstring examples, the reviewed witness
    of a fixed ground truth, then plus inputs."""
    from evalplus_ng.generate.seed import docstring_examples

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
            found[task.task_id] = [defects.finding_from_wire(d)
                                   for d in json.loads(path.read_text(encoding="utf-8"))]
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return found


def held_path(out_dir: Path, dataset: Dataset) -> Path:
    """The suite file of the plus inputs jury leads hold out of the plus suite (in the
    plus suite's schema; never judged with)."""
    return out_dir / f"{dataset.stem}-Held.jsonl.gz"


def hold_out(space: Workspace, held: Mapping[TaskId, Sequence[Args]],
             suites: Suites | None = None) -> dict[TaskId, int]:
    """Rewrite the plus suite in ``space`` without the ``held`` inputs (a task that
    loses some loses its calibration: its units are per input), write them to
    :func:`held_path` (removed when none) and count them in ``stats.json``; returns the
    inputs held per task."""
    suites = suites or Suites(space)
    dataset, path = space.dataset, space.suite_file("plus")
    tasks = suites.load(path)
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
        suites.write(kept, path)
        suites.write(out, held_path(space.out, dataset))
    else:
        suites.remove(held_path(space.out, dataset))
    count_held(space.out, "inputs", counts)
    return counts


def count_held(folder: Path, unit: str, counts: Mapping[TaskId, int]) -> None:
    """Record in the ``stats.json`` of ``folder`` (where there is one) what the audit holds
    out of the suite: ``held_by_audit``, the ``unit`` (inputs, or tests) in all and per
    task."""
    stats_path = folder / "stats.json"
    if stats_path.is_file():
        stats = json.loads(stats_path.read_text(encoding="utf-8"))
        stats["held_by_audit"] = {unit: sum(counts.values()), "tasks": dict(counts)}
        write_json(stats_path, stats)


def run_audit(space: Workspace, samples_dir: Path | None = None,
              progress: Progress | None = None, suite: Path | None = None,
              config: AuditConfig | None = None, task_ids: Sequence[str] | None = None,
              answered_lines: int | None = None, families: Families = (),
              hold: bool = False, opinions: OpinionSource | None = None,
              suites: Suites | None = None) -> AuditSummary:
    """Audit ``space``'s dataset's reference solutions; write ``audit.json`` and
    ``audit.md`` into its folder (``task_ids``: only those tasks are audited; the report
    keeps the findings of every other task audited there before, see :data:`AUDIT_STORE`).
    The audit runs on this machine, as wide as the backend's workers.

    Candidate inputs are each task's base inputs, docstring examples and the plus
    inputs of ``suite`` (default the plus suite in ``space`` when present), after
    those of the stress tier beside it.

    ``answered_lines`` says that the suite's inputs (and the stress tier's) are each
    answered, stably, by their task's ground truth within that many lines: true of the
    suite ``augment`` just wrote (its oracle's ``max_lines``). Within ``perf_lines``,
    the original of a task without a fixed ground truth (the ground truth itself) then
    does not run on them again (:func:`evalplus_ng.oracle.defects.originals`).

    With ``samples_dir``, the jury (:mod:`evalplus_ng.oracle.jury`) checks every plus input of
    the suite (and those held beside it, :func:`held_path`, unless ``hold``); each samples
    file is a family of its own but those ``families`` declares. ``hold`` (``augment``,
    whose suite in ``space`` is whole again) then holds the inputs of unreviewed jury
    leads out of the plus suite (:func:`hold_out`). ``opinions`` asks a model for a second
    opinion on each lead. ``suites``: the suites a chain has in hand (read, written).
    """
    config = config or AuditConfig()
    suites = suites or Suites(space)
    dataset, out_dir, workers = space.dataset, space.out, space.backend.workers
    tasks = everything = dataset.load()
    known = {task.task_id for task in tasks}
    if task_ids is not None:
        wanted = set(task_ids)
        tasks = [task for task in tasks if task.task_id in wanted]
    fixed = fixed_solutions(dataset, [task.task_id for task in tasks])
    dismissals = _audit_dismissals(dataset)
    suite = suite if suite is not None else space.suite_file("plus")
    plus: dict[TaskId, tuple[Args, ...]] = {}
    checked: dict[TaskId, tuple[Args, ...]] = {}  # the plus suite's, for the jury
    stress = suite.with_name(dataset.suite_file("stress"))
    held = held_path(suite.parent, dataset)
    for path in (stress, suite, *([held] if not hold else [])):  # the few stress ones first
        if path.is_file():
            for t in suites.load(path):
                plus[t.task_id] = (*plus.get(t.task_id, ()), *t.plus_inputs)
                if path != stress:
                    checked[t.task_id] = (*checked.get(t.task_id, ()), *t.plus_inputs)
    out_dir.mkdir(parents=True, exist_ok=True)
    jury_cost, jury_seconds = JuryCost(), [0.0, 0.0]
    with Sandbox(workers, judge=JUDGE, hidden=space.answer_keys(suite, held)
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
            work = defects.TaskAudit(task, contract, inputs, defects.sandbox_runner(task, sandbox),
                                   config, repair, tuple(samples.get(task.task_id, ())),
                                   frozenset(dismissals.get(task.task_id, {})), answered_from,
                                   tuple(a for a in checked.get(task.task_id, ())
                                         if contract.valid(a)),
                                   defects.sandbox_judged(task, sandbox) if samples else None)
            found = defects.audit_task(work)
            began = time.perf_counter()
            leads, cost = jury(work)
            if opinions is not None:
                leads = [opinions(task, lead) if lead.signal is SAMPLES else lead
                         for lead in leads]
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
        write_json(store / f"{file_stem(task_id)}.json",
                               [defects.finding_wire(f) for f in mine])
    audited = {**_stored_audits(store, [t for t in everything if t.task_id not in fresh]),
               **fresh}
    findings = [f for task in everything if task.task_id in audited
                for f in audited[task.task_id]]
    tasks = [task for task in everything if task.task_id in audited]
    repaired = fixed_solutions(dataset, [task.task_id for task in tasks])
    reviewed = defects.review(findings, repaired, dismissals)
    json_path, markdown_path = out_dir / "audit.json", out_dir / "audit.md"
    entry_points = {task.task_id: task.entry_point for task in tasks}
    write_json(json_path, [defects.finding_record(f, entry_points[f.task_id])
                                       for f in reviewed])
    # Why a fix no signal confirmed is not shown: its witness breaks the task's contract.
    by_id = {task.task_id: task for task in tasks}
    unconfirmed = (repaired.keys() & by_id.keys()) - set(defects.defective_tasks(reviewed))
    invalid = {task_id: reason for task_id in unconfirmed
               if (reason := load_contract(by_id[task_id], dataset.contract_path(task_id))
                   .violation(repaired[task_id].witness)) is not None}
    write_atomically(markdown_path, defects.markdown(reviewed, entry_points,
                                                   {k: v for k, v in repaired.items()
                                                    if k in entry_points}, invalid))
    counts = (hold_out(space, defects.held_inputs(reviewed), suites) if hold
              else {k: len(v) for k, v in defects.held_inputs(reviewed).items()})
    return AuditSummary(tuple(reviewed), tuple(defects.defective_tasks(reviewed)),
                        json_path, markdown_path, jury_cost,
                        (round(jury_seconds[0], 1), round(jury_seconds[1], 1)), counts)
