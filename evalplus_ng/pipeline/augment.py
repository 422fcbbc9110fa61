"""`augment`: seeds -> fuzz -> contract -> ground-truth oracle -> tiers -> HumanEvalPlus artifacts.

Orchestration only (it opens files and starts processes); the stages are the
pure modules it calls. Tasks run in parallel worker processes (``multiprocess``),
each with its own one-worker sandbox for the ground truth and the plain reference
(which sorts inputs into the plus and stress tiers, :mod:`evalplus_ng.oracle.tiers`),
and each finished task is checkpointed in ``OUT/checkpoints/`` so that an interrupted run resumes
where it stopped. Same ``seed``, same inputs: byte-identical artifacts.
"""

from __future__ import annotations

import hashlib
import json
import random
import statistics
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from evalplus_ng.errors import InputError, UnknownTaskError
from evalplus_ng.files import write_atomically
from evalplus_ng.generate import admit
from evalplus_ng.generate.bounds import (
    INFERRED_MAGNITUDE_FLOOR,
    MAGNITUDE_FLOOR,
    Bounds,
    beyond,
    infer_bounds,
)
from evalplus_ng.generate.contract import Contract, load_contract
from evalplus_ng.generate.fuzz import GROWN, FuzzConfig, Fuzzer
from evalplus_ng.generate.likeness import Likeness, infer_likeness
from evalplus_ng.generate.seed import Seed, gather
from evalplus_ng.oracle.groundtruth import oracle, own_assert_failure
from evalplus_ng.oracle.tiers import PlainReference, Why, plain_reference, split_tiers
from evalplus_ng.pipeline.context import Progress, Suites, Workspace
from evalplus_ng.protocols import Executor
from evalplus_ng.records import TYPED, Calibration, ProgramTask, Task
from evalplus_ng.sandbox import Limits, Sandbox
from evalplus_ng.serialize import decode, encode
from evalplus_ng.tasks.plusfile import load_plus_file
from evalplus_ng.tasks.sources import AnyTask, efficiency_tasks, own_asserts, plain_solutions
from evalplus_ng.tasks.spec import Dataset, file_stem
from evalplus_ng.tasks.tasksfile import task_line

#: Candidates generated beyond the target, to make up for inputs the oracle drops.
SLACK = 1.03
#: At most this many generate-then-judge rounds per task.
ROUNDS = 12
#: The first round judges this share of ``per_task`` candidates (the next, the rest).
FIRST_ROUND_SHARE = 0.25
#: Candidates judged per task at most, as a multiple of ``per_task``.
MAX_CANDIDATES = 8
#: Inputs the plain reference may find too costly per task, as a share of ``per_task``:
#: each costs a whole line budget, and where most candidates are beyond a plain
#: solution (``get_max_triples(n)`` for n past 110) the plus tier cannot fill anyway.
MAX_COSTLY_SHARE = 0.25
#: Candidates unlike the base inputs (:mod:`evalplus_ng.generate.bounds`) judged per task, as a
#: share of ``per_task``; the rest are counted and dropped unjudged. Where most candidates
#: stray from tiny base inputs (MBPP+: a third of them), judging them all would cost a
#: third more ground-truth runs, and fill the stress tier with inputs that are cheap for
#: most solutions, its calibration and MINI then costing as much as plus's.
MAX_UNLIKE_SHARE = 0.1
#: Candidates the ground truth may fail to answer in budget (too many lines, too slow)
#: per task, as a share of ``per_task``: no round starts past it and a round is sized to
#: stay within it at the task's rate so far. Each costs up to a line budget or a time limit,
#: and where most candidates are beyond the ground truth (``count_Primes_nums(n)`` for n
#: past 10**4) more rounds cost much and find few inputs.
MAX_UNANSWERED_SHARE = 0.5
#: A timeout counts as this many candidates over the line budget: it costs a time limit
#: (and a new sandbox process) where those cost a line budget's worth of calls.
TIMEOUT_WEIGHT = 4
#: Part of every task's checkpoint fingerprint: bumped whenever generation changes
#: (8: an inferred contract keeps the premises of the base inputs; 9: the edge tier).
FORMAT_VERSION = 10


@dataclass(frozen=True)
class AugmentConfig:
    """Everything that decides an augment run's output (and so its checkpoints)."""

    dataset: str = "humaneval"
    per_task: int = 1000
    seed: int = 0
    use_corpus: bool = True
    hypothesis_examples: int = 100
    #: Limit of one ground-truth call on a candidate: a backstop only, since the line
    #: budget (which prices C-level work too) stops the counted call of a costly input
    #: well before it (the plus tier's inputs take milliseconds; HumanEval's slowest, 7 ms).
    oracle_seconds: float = 0.5
    #: Candidates whose expected output is longer than this as JSON text are dropped:
    #: every sample judged compares it.
    max_output_bytes: int = 1 << 16
    #: Inputs on which the ground truth runs more Python lines than this are dropped.
    max_lines: int = 200_000
    budget_seconds: float = 120.0


@dataclass(frozen=True)
class TaskReport:
    """What happened to one task (saved in its checkpoint and in stats.json).

    Only deterministic facts: timings would make artifacts differ between runs.
    """

    task_id: str
    plus_inputs: int
    seeds: dict[str, int]
    attempts: int
    rejected: dict[str, int]
    dropped: dict[str, int]
    budget_hit: bool
    #: Inputs in the stress tier, and why inputs left plus (:class:`evalplus_ng.oracle.tiers.Why`).
    stress_inputs: int = 0
    tiers: dict[str, int] = field(default_factory=dict)
    #: Inputs in the edge tier (:mod:`evalplus_ng.generate.likeness`).
    edge_inputs: int = 0


@dataclass(frozen=True)
class TaskSuites:
    """One task's new inputs per tier, and what happened (:func:`augment_task`)."""

    plus: list[Any]
    stress: list[Any]
    edge: list[Any]
    report: TaskReport


@dataclass(frozen=True)
class AugmentSummary:
    """The artifact written and the per-task reports."""

    artifact: Path
    reports: tuple[TaskReport, ...]
    resumed: int = 0
    tasks: tuple[Task, ...] = field(default=(), repr=False)
    stress_artifact: Path | None = None
    stress_tasks: tuple[Task, ...] = field(default=(), repr=False)
    edge_artifact: Path | None = None
    edge_tasks: tuple[Task, ...] = field(default=(), repr=False)
    #: Tasks of the suite already in the folder that this run did not select, kept.
    kept: int = 0
    #: With a Ray cluster: the tasks each node augmented (by Ray node id).
    nodes: Mapping[str, int] = field(default_factory=dict)


def digest(*parts: str) -> str:
    """A short stable digest of ``parts`` (task seeds, checkpoint keys)."""
    hasher = hashlib.sha256()
    for part in parts:
        hasher.update(part.encode())
        hasher.update(b"\0")
    return hasher.hexdigest()[:16]


def _task_seed(config: AugmentConfig, task_id: str) -> int:
    return int(digest(str(config.seed), task_id), 16) % (2**32)


def references(tasks: Sequence[Task], dataset: Dataset) -> dict[str, PlainReference]:
    """Each task's plain reference (it decides the tiers)."""
    ids = [task.task_id for task in tasks]
    plains, asks = plain_solutions(dataset, ids), efficiency_tasks(dataset)
    return {task.task_id: plain_reference(task, plains, asks) for task in tasks}


def _text(path: Path | None) -> str:
    return path.read_text(encoding="utf-8") if path is not None else ""


def fingerprint(config: AugmentConfig, task: Task, reference: PlainReference,
                dataset: Dataset) -> str:
    """Changes whenever anything that decides this task's inputs changes."""
    corpus = dataset.corpus_path(task.task_id) if config.use_corpus else None
    # The equality decides where the plain reference disagrees (tiers); typed tasks keep
    # the fingerprints they had before equalities.
    equality = [] if task.equality == TYPED else [task.equality]
    return digest(
        json.dumps(asdict(config), sort_keys=True), str(FORMAT_VERSION), task.solution,
        reference.code, str(reference.efficiency), _text(dataset.contract_path(task.task_id)),
        task.contract, task.oracle, _text(corpus), json.dumps(encode(list(task.base_inputs))),
        *equality,
    )


def admitted(task: Task, contract_path: Path | None, config: AugmentConfig,
             executor: Executor) -> tuple[Contract, tuple[admit.Allowance, ...]]:
    """The task's contract, its inferred types widened only as far as inputs of each new
    shape are accepted: the base inputs in each shape the prompt admits
    (:func:`evalplus_ng.generate.admit.tagged_variants`) go to the contract and then to the ground
    truth, and a shape none of which passes both (a set-based reference raises on lists
    inside, the asserts want pairs) is taken back (:func:`evalplus_ng.generate.admit.narrowed`)."""
    allowed = admit.allowances(task.prompt, task.base_inputs)
    contract = load_contract(task, contract_path, allowed)
    tagged = [(position, name, args) for base in task.base_inputs if len(base) == len(allowed)
              for position, name, args in admit.tagged_variants(base, allowed)
              if name in admit.WIDENING]
    if not tagged:
        return contract, allowed
    valid = [item for item in tagged if contract.valid(item[2])]
    kept: set[int] = set()
    if valid:
        verdict = oracle(task, [args for _, _, args in valid], executor, config.oracle_seconds,
                         config.max_lines, max_output_bytes=config.max_output_bytes)
        kept = set(verdict.kept)
    tried = [(position, name, index in kept)
             for index, (position, name, _) in enumerate(valid)]
    tried += [(position, name, False) for position, name, args in tagged
              if not contract.valid(args)]
    narrowed = admit.narrowed(allowed, tried)
    if narrowed == allowed:
        return contract, allowed
    return load_contract(task, contract_path, narrowed), narrowed


@dataclass(frozen=True)
class Groundwork:
    """What one task's generation starts from (:func:`groundwork`)."""

    #: The contract new inputs must pass, and the shapes it admits beyond the base ones.
    contract: Contract
    allowed: tuple[admit.Allowance, ...]
    #: What the base tests show (None where a written contract or an efficiency task
    #: needs no edge tier) and how far plus inputs may stray (None: efficiency task).
    likeness: Likeness | None
    bounds: Bounds | None
    seeds: tuple[Seed, ...]


def augment_task(task: Task, config: AugmentConfig, reference: PlainReference,
                 dataset: Dataset) -> TaskSuites:
    """Generate, filter, check and sort one task's new inputs into the plus, stress and
    edge tiers (each at most ``per_task`` inputs), with a report: :func:`groundwork`,
    then :func:`generate`, in a one-worker sandbox of the task's own."""
    with Sandbox(1, Limits()) as sandbox:
        ground = groundwork(task, config, reference, dataset, sandbox)
        return generate(task, config, reference, ground, sandbox)


def groundwork(task: Task, config: AugmentConfig, reference: PlainReference,
               dataset: Dataset, executor: Executor) -> Groundwork:
    """The task's contract (widened to the shapes the prompt admits), what its base tests
    show, its bounds and its seeds (:func:`evalplus_ng.generate.seed.gather`)."""
    if dataset.kind == "tasks" and dataset.source is not None:
        _check_own_asserts(task, dataset.source, config, executor)
    contract, allowed = admitted(task, dataset.contract_path(task.task_id), config, executor)
    likeness = (None if contract.written or reference.efficiency
                else base_likeness(task, config, executor))
    bounds = None if reference.efficiency else task_bounds(task, contract)
    seeds = gather(task, contract,
                   dataset.corpus_path(task.task_id) if config.use_corpus else None,
                   _task_seed(config, task.task_id), config.hypothesis_examples, allowed)
    return Groundwork(contract, allowed, likeness, bounds, tuple(seeds))


def _check_own_asserts(task: Task, source: Path, config: AugmentConfig,
                       executor: Executor) -> None:
    """An InputError naming the tasks file's line where an assert of the task's own
    tests fails on its reference (whose answers, not the asserts', become the suite's)."""
    failure = own_assert_failure(task, own_asserts(task.test, task.entry_point), executor,
                                 config.oracle_seconds, config.max_lines)
    if failure is not None:
        raise InputError(str(source), task_line(source, task.task_id), failure)


def generate(task: Task, config: AugmentConfig, reference: PlainReference,
             ground: Groundwork, executor: Executor) -> TaskSuites:
    """The seeded fuzz stream from ``ground``'s seeds, in rounds: each round's new inputs
    judged by the ground truth (:func:`evalplus_ng.oracle.groundtruth.oracle`) and sorted
    into tiers (:func:`evalplus_ng.oracle.tiers.split_tiers`), until ``per_task`` plus
    inputs are kept or a cap is reached."""
    task_seed = _task_seed(config, task.task_id)
    likeness, bounds, seeds = ground.likeness, ground.bounds, ground.seeds
    # The fuzz loop is a seeded stream: when the oracle drops too many inputs, it
    # continues with more, and only those are judged. Inputs the ground truth did not
    # answer (too many lines, too slow, an exception) leave the corpus before the next
    # round: their mutants would mostly be dropped too, each after an oracle run.
    # A first round of a quarter: where the ground truth cannot answer most candidates,
    # that is known before most of them have cost a line budget or a time limit.
    wanted = int(config.per_task * SLACK * FIRST_ROUND_SHARE) + 1
    kept: list[Any] = []
    stress: list[Any] = []
    edge: list[Any] = []
    dropped: dict[str, int] = {}
    tiers: dict[str, int] = {}
    costly_cap = int(config.per_task * MAX_COSTLY_SHARE)
    unlike_cap, unlike_judged = int(config.per_task * MAX_UNLIKE_SHARE), 0
    judged = 0
    fuzzer = Fuzzer(task, ground.contract, seeds,
                    FuzzConfig(budget_seconds=config.budget_seconds), random.Random(task_seed))
    for _round in range(ROUNDS):
        found = fuzzer.extend(wanted)
        fresh = found.inputs[judged:]
        grown = {i for i, source in enumerate(found.sources[judged:]) if source == GROWN}
        start, judged = judged, len(found.inputs)
        # Inputs unlike the base inputs go to stress (tiers.split_tiers); past the
        # stress tier's allowance for them, they are counted and not judged at all.
        asked: list[int] = []
        for i, args in enumerate(fresh):
            stray = None if i in grown or bounds is None else beyond(bounds, args)
            if stray is not None:
                if unlike_judged >= unlike_cap:
                    tiers[stray.value] = tiers.get(stray.value, 0) + 1
                    continue
                unlike_judged += 1
            asked.append(i)
        verdict = oracle(task, [fresh[i] for i in asked], executor, config.oracle_seconds,
                         config.max_lines, max_output_bytes=config.max_output_bytes)
        answered_at = {asked[k] for k in verdict.kept}
        fuzzer.retire(start + i for i in range(len(fresh)) if i not in answered_at)
        answered = [fresh[asked[k]] for k in verdict.kept]
        split = split_tiers(task, reference, answered, verdict.outputs,
                            [p for p, k in enumerate(verdict.kept) if asked[k] in grown],
                            executor, max_costly=costly_cap - tiers.get(Why.COST.value, 0),
                            likeness=likeness, bounds=bounds)
        kept.extend(answered[i] for i in split.plus)
        stress.extend(answered[i] for i in split.stress)
        edge.extend(answered[i] for i in split.edge)
        for reason, count in verdict.dropped.items():
            dropped[reason] = dropped.get(reason, 0) + count
        for reason, count in split.reasons.items():
            tiers[reason] = tiers.get(reason, 0) + count
        exhausted = len(found.inputs) < wanted or found.budget_hit
        unanswered = dropped.get("expensive", 0) + TIMEOUT_WEIGHT * dropped.get("timeout", 0)
        allowance = int(config.per_task * MAX_UNANSWERED_SHARE) - unanswered
        spent = tiers.get(Why.COST.value, 0) >= costly_cap or allowance <= 0
        if len(kept) >= config.per_task or exhausted or spent:
            break
        missing = config.per_task - len(kept)
        wanted = min(judged + int(missing * judged / max(1, len(kept)) * SLACK) + 1,
                     MAX_CANDIDATES * config.per_task)
        if unanswered:  # a round that, at this task's rate, stays within the allowance
            wanted = min(wanted, judged + max(1, allowance * judged // unanswered))
    kept, stress, edge = kept[: config.per_task], stress[: config.per_task], edge[: config.per_task]
    counts: dict[str, int] = {}
    for seed_ in seeds:
        counts[seed_.source] = counts.get(seed_.source, 0) + 1
    report = TaskReport(
        task_id=task.task_id, plus_inputs=len(kept), seeds=counts, attempts=found.attempts,
        rejected=found.rejected, dropped=dropped, budget_hit=found.budget_hit,
        stress_inputs=len(stress), tiers=tiers, edge_inputs=len(edge),
    )
    return TaskSuites(kept, stress, edge, report)


def task_bounds(task: Task, contract: Contract) -> Bounds:
    """How far the task's plus inputs may stray from its base inputs
    (:mod:`evalplus_ng.generate.bounds`): a written contract's magnitude floor, or an
    inferred one's."""
    return infer_bounds(task.base_inputs, task.prompt,
                        MAGNITUDE_FLOOR if contract.written else INFERRED_MAGNITUDE_FLOOR)


def base_likeness(task: Task, config: AugmentConfig, executor: Executor) -> Likeness:
    """What the task's base tests show (:mod:`evalplus_ng.generate.likeness`): their inputs and the
    ground truth's answers to them (those it answers within the oracle's budget)."""
    base = list(task.base_inputs)
    answers = oracle(task, base, executor, config.oracle_seconds, config.max_lines,
                     max_output_bytes=config.max_output_bytes)
    return infer_likeness(task.prompt, [base[i] for i in answers.kept],
                          [decode(output) for output in answers.outputs])


def _checkpoint_path(out: Path, task: Task) -> Path:
    return out / "checkpoints" / f"{file_stem(task.task_id)}.json"


def _load_checkpoint(path: Path, key: str) -> TaskSuites | None:
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
        if document.get("fingerprint") != key:
            return None
        return TaskSuites(list(decode(document["plus_input"])),
                          list(decode(document["stress_input"])),
                          list(decode(document["edge_input"])), TaskReport(**document["report"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _save_checkpoint(path: Path, key: str, suites: TaskSuites, seconds: float = 0.0) -> None:
    """The task's checkpoint; ``seconds`` (the wall time it took, for the user's eyes
    only: it never reaches an artifact) is the one field that differs between runs."""
    path.parent.mkdir(parents=True, exist_ok=True)
    document = {"fingerprint": key, "report": asdict(suites.report),
                "plus_input": encode(suites.plus), "stress_input": encode(suites.stress),
                "edge_input": encode(suites.edge), "seconds": round(seconds, 3)}
    write_atomically(path, json.dumps(document) + "\n")


Unit = tuple[Task, AugmentConfig, PlainReference, Dataset]


def _worker(item: Unit) -> tuple[str, TaskSuites, float]:
    """Pool (or Ray) entry point: one task; returns its id, tiers and report, and seconds
    (the caller, alone, writes the checkpoint)."""
    task, config, reference, dataset = item
    began = time.perf_counter()
    suites = augment_task(task, config, reference, dataset)
    return task.task_id, suites, time.perf_counter() - began


def held_task_ids(out: Path, dataset: Dataset) -> list[str]:
    """The tasks of the suite already in ``out`` (from its ``stats.json``, else from the
    plus suite's records), in file order; none when there is no suite."""
    try:
        stats = json.loads((out / "stats.json").read_text(encoding="utf-8"))
        return [str(report["task_id"]) for report in stats["tasks"]]
    except (OSError, ValueError, KeyError, TypeError):
        pass
    suite = out / dataset.suite_file("plus")
    if not suite.is_file():
        return []
    return [task.task_id for task in load_plus_file(suite)]


def _calibrations(path: Path, inputs: Mapping[str, Sequence[Any]]) -> dict[str, Task]:
    """Tasks of the suite file ``path`` whose plus inputs equal ``inputs[task_id]`` and
    that carry a calibration (kept as they are when their task is kept)."""
    if not path.is_file() or not inputs:
        return {}
    return {task.task_id: task for task in load_plus_file(path)
            if task.calibration is not None and task.task_id in inputs
            and encode(list(task.plus_inputs)) == encode(list(inputs[task.task_id]))}


def run_augment(tasks: Sequence[Task], config: AugmentConfig, space: Workspace,
                progress: Progress | None = None,
                keep_calibration: bool = False,
                suites: Suites | None = None) -> AugmentSummary:
    """Augment every task of ``space``'s dataset in ``tasks`` (resuming from checkpoints);
    write into its folder the plus tier (``HumanEvalPlus.jsonl.gz`` for HumanEval), the
    stress tier (``HumanEvalPlus-Stress.jsonl.gz``) and the edge tier (``-Edge``).

    A suite already in ``out`` keeps its other tasks: ``tasks`` are added to it or
    replace their earlier selves (in the dataset's order), provided each kept task's
    checkpoint was made with the same settings and ground truth (else an error, before
    any work). With ``keep_calibration``, a kept task keeps its calibrated time limits.
    The tasks run on the backend (a local pool of its workers, or a Ray cluster); the
    same seed gives the same suite either way (each task's stream depends on its id only).
    ``suites`` keeps the three suites written for the stages after this one.
    """
    suites = suites or Suites(space)
    dataset, out, backend = space.dataset, space.out, space.backend
    selected = {task.task_id for task in tasks}
    held = [t for t in held_task_ids(out, dataset) if t not in selected]
    if held:
        known = {task.task_id: task for task in dataset.load()}
        foreign = [t for t in held if t not in known]
        if foreign:
            raise UnknownTaskError(
                f"{out} holds a suite of tasks {dataset.name} does not have ({foreign[0]}, "
                "...): write to another --out")
        kept_tasks = [known[t] for t in held]
        plain_kept = references(kept_tasks, dataset)
        stale = [t.task_id for t in kept_tasks if _load_checkpoint(
            _checkpoint_path(out, t), fingerprint(config, t, plain_kept[t.task_id], dataset)
        ) is None]
        if stale:
            names = ", ".join(stale[:5]) + (", ..." if len(stale) > 5 else "")
            raise UnknownTaskError(
                f"{out} holds {len(stale)} task(s) augmented with other settings or another "
                f"ground truth ({names}): augment them too (add them to --tasks, or omit "
                "--tasks) or write to another --out")
        order = {task_id: n for n, task_id in enumerate(known)}
        tasks = sorted([*tasks, *kept_tasks], key=lambda task: order[task.task_id])
    out.mkdir(parents=True, exist_ok=True)
    plain = references(tasks, dataset)
    keys = {task.task_id: fingerprint(config, task, plain[task.task_id], dataset)
            for task in tasks}
    done: dict[str, TaskSuites] = {}
    for task in tasks:
        loaded = _load_checkpoint(_checkpoint_path(out, task), keys[task.task_id])
        if loaded is not None:
            done[task.task_id] = loaded
    resumed = len(done) - len(held)
    todo = {task.task_id: task for task in tasks if task.task_id not in done}
    items: list[Unit] = [(task, config, plain[task_id], dataset) for task_id, task in todo.items()]
    if progress is not None:
        progress(len(done) - len(held), len(tasks) - len(held))
    nodes: Counter[str] = Counter()
    if items:
        results = backend.unordered(_worker, items, nodes)
        for task_id, made, seconds in results:
            path = _checkpoint_path(out, todo[task_id])
            _save_checkpoint(path, keys[task_id], made, seconds)
            # Read back, so that a run and its resumption build the suite from the same data.
            loaded = _load_checkpoint(path, keys[task_id])
            assert loaded is not None, f"{task_id}: checkpoint unreadable"
            done[task_id] = loaded
            if progress is not None:
                progress(len(done) - len(held), len(tasks) - len(held))
    artifact = out / dataset.suite_file("plus")
    stress_artifact = out / dataset.suite_file("stress")
    edge_artifact = out / dataset.suite_file("edge")
    calibrated: tuple[dict[str, Task], ...] = ({}, {}, {})
    if keep_calibration and held:
        calibrated = (_calibrations(artifact, {t: done[t].plus for t in held}),
                      _calibrations(stress_artifact, {t: done[t].stress for t in held}),
                      _calibrations(edge_artifact, {t: done[t].edge for t in held}))
    augmented = tuple(
        replace(task, plus_inputs=tuple(done[task.task_id].plus),
                contract=_text(dataset.contract_path(task.task_id)) or task.contract,
                calibration=_kept_calibration(calibrated[0], task))
        for task in tasks
    )
    stressed = tuple(replace(task, plus_inputs=tuple(done[task.task_id].stress),
                             calibration=_kept_calibration(calibrated[1], task))
                     for task in augmented)
    edged = tuple(replace(task, plus_inputs=tuple(done[task.task_id].edge),
                          calibration=_kept_calibration(calibrated[2], task))
                  for task in augmented)
    suites.write(augmented, artifact)
    suites.write(stressed, stress_artifact)
    suites.write(edged, edge_artifact)
    reports = tuple(done[task.task_id].report for task in tasks)
    write_atomically(out / "stats.json",
                     json.dumps(stats_document(reports, config), indent=1) + "\n")
    return AugmentSummary(artifact, reports, resumed, augmented, stress_artifact, stressed,
                          edge_artifact, edged, len(held), dict(nodes))


def _kept_calibration(calibrated: Mapping[str, Task], task: Task) -> Calibration | None:
    """The calibration of a kept task, when its inputs are unchanged (else None)."""
    kept = calibrated.get(task.task_id)
    return kept.calibration if kept is not None else None


def table(counts: Sequence[int]) -> dict[str, float]:
    """Avg / median / min / max, as in the EvalPlus paper's Table 2."""
    if not counts:
        return {"avg": 0.0, "median": 0.0, "min": 0, "max": 0}
    return {"avg": round(statistics.fmean(counts), 1), "median": statistics.median(counts),
            "min": min(counts), "max": max(counts)}


def select_tasks(tasks: Sequence[AnyTask], spec: str | None,
                 numbers: Sequence[int] | None = None) -> list[AnyTask]:
    """Tasks named by ``spec``: comma-separated ids, numbers or ranges (``0,5,10-20``); a
    range takes the numbers it holds that are tasks (MBPP's are not contiguous). A task's
    number is the ``N`` of its id (``HumanEval/N``), or ``numbers[i]`` for the i-th task
    where given. An unknown id or number, a range holding no task and a range that runs
    backwards are errors."""
    if not spec:
        return list(tasks)
    by_id = {task.task_id: task for task in tasks}
    by_number = {number: task for number, task in zip(
        numbers if numbers is not None else [_number(task) for task in tasks], tasks,
        strict=True)}
    chosen: dict[str, AnyTask] = {}
    for part in (p.strip() for p in spec.split(",")):
        if not part:
            continue
        if part in by_id:
            chosen[part] = by_id[part]
            continue
        low, _, high = part.partition("-")
        if not (low.isdigit() and (not high or high.isdigit())):
            raise UnknownTaskError(f"unknown task {part!r}")
        if high and int(high) < int(low):
            raise UnknownTaskError(f"reversed task range {part!r}: did you mean "
                                   f"'{high}-{low}'?")
        if not high:
            if int(low) not in by_number:
                raise UnknownTaskError(f"unknown task number {low}")
            chosen[by_number[int(low)].task_id] = by_number[int(low)]
            continue
        inside = [by_number[n] for n in range(int(low), int(high) + 1) if n in by_number]
        if not inside:
            raise UnknownTaskError(f"no task numbered in {part!r}")
        chosen.update((task.task_id, task) for task in inside)
    if not chosen:
        raise UnknownTaskError(f"no task selected by {spec!r}")
    return [task for task in tasks if task.task_id in chosen]


def _number(task: Task | ProgramTask) -> int:
    if isinstance(task, ProgramTask):
        raise TypeError("program tasks are numbered by the caller")
    return task.number


def stats_document(reports: Sequence[TaskReport], config: AugmentConfig) -> dict[str, Any]:
    """stats.json: the configuration, Table 2, and every task's report."""
    return {
        "config": asdict(config),
        "plus_inputs": table([r.plus_inputs for r in reports]),
        "stress_inputs": table([r.stress_inputs for r in reports]),
        "edge_inputs": table([r.edge_inputs for r in reports]),
        "tasks": [asdict(r) for r in reports],
    }
