"""Reduce a full suite to HumanEval+-MINI: gather requirements, set-cover, write and report.

Orchestration only (the one layer besides the CLI that opens files and starts
the sandbox). Each requirement is cached per task under ``DIR/reduction/``,
keyed by everything it depends on, so a second run (another profile, the report)
costs only the set cover.
"""

from __future__ import annotations

import functools
import hashlib
import json
import statistics
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence, Set
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

from evalplus_ng.backend.executors import LOCAL, Backend, answer_keys_near
from evalplus_ng.errors import InputError
from evalplus_ng.evaluation.evaluate import estimate_pass_at_k
from evalplus_ng.files import write_atomically
from evalplus_ng.generate.classes import classes_of_test
from evalplus_ng.oracle.groundtruth import GroundTruth, ground_truth_job, run_ground_truth
from evalplus_ng.pools import unordered
from evalplus_ng.protocols import Executor
from evalplus_ng.records import Status, Task
from evalplus_ng.reduce.cost import cost_goals, executed_lines
from evalplus_ng.reduce.cover import branch_arcs
from evalplus_ng.reduce.habits import HABITS, rewrites
from evalplus_ng.reduce.habits import goals as habit_goals
from evalplus_ng.reduce.kills import KillConfig, KillRow, fails_any, kill_rows, suite_tests
from evalplus_ng.reduce.mutants import mutant_sources
from evalplus_ng.reduce.profiles import (
    REQUIREMENTS,
    SAMPLE_KINDS,
    KindMasks,
    Profile,
    fill_goals,
    load_profile,
    masks_of,
    profile_names,
    select_masks,
)
from evalplus_ng.reduce.sample_kills import (
    Answer,
    Candidate,
    candidates,
    invert,
    kill_matrix,
    per_model,
)
from evalplus_ng.reduce.setcover import fill_across
from evalplus_ng.reduce.slips import slip_sources
from evalplus_ng.reduce.values import RECORD_BUDGET, VALUES_VERSION, value_goals
from evalplus_ng.sandbox import Limits
from evalplus_ng.serialize import decode, dumps, encode
from evalplus_ng.tasks.artifact import write_plus_file
from evalplus_ng.tasks.plusfile import load_plus_file
from evalplus_ng.tasks.samples import read_sample_folder
from evalplus_ng.tasks.spec import MINI_OF, Dataset, file_stem
from evalplus_ng.types import TaskId

REPORT_FILE = "reduction.md"
SUMMARY_FILE = "reduction.json"
CACHE_FOLDER = "reduction"
#: Report rows in the order of the EvalPlus paper's Table 4.
PAPER_ORDER = ("coverage", "mutants", "samples", "full")
#: Mutants: at least 0.05 s, else 10x the ground truth's time. A mutant far slower than the
#: ground truth counts as killed (once confirmed); slow mutants stay affordable. A killed
#: mutant usually fails most of the suite: its first 64 killers are choice enough for the
#: cover, and running the rest (each costing what the ground truth costs) was most of
#: reduce's time on MBPP+'s costly tasks.
MUTANT_KILLS = KillConfig(floor_seconds=0.05, factor=10.0, max_failures=64)
#: Samples: judged as ``evaluate`` judges them; most wrong samples fail hundreds of tests,
#: and 64 killers are plenty to cover them (the rest stay ``unknown``, run when needed).
SAMPLE_KILLS = KillConfig(max_failures=64)
#: The costliest test is a goal when it costs the ground truth at least this many times
#: the lines of the costliest base test.
COST_FACTOR = 4.0
#: Habits: the ground truth's limit per rewritten input, and rewrites per sandbox job.
HABIT_SECONDS = 2.0
HABIT_CHUNK = 512
#: Bumped whenever a cached requirement's meaning changes.
CACHE_VERSION = 1

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class TaskRequirements:
    """One task's tests (preferred first) and what each requirement kind knows about them."""

    task: Task
    truth: GroundTruth
    order: tuple[int, ...]
    arcs: Mapping[int, frozenset[tuple[int, int]]]
    mutants: tuple[KillRow, ...]
    mutant_lines: tuple[int, ...]
    samples: tuple[KillRow, ...] = ()
    #: Kill rows of the ground truth's slips (:mod:`evalplus_ng.reduce.slips`).
    slips: tuple[KillRow, ...] = ()
    #: Input and output classes each test falls in (:mod:`evalplus_ng.generate.classes`).
    classes: Mapping[int, frozenset[str]] = field(default_factory=dict)
    authors: tuple[frozenset[str], ...] = ()
    codes: tuple[str, ...] = ()
    #: Lines the ground truth executes on each test (the cost requirement).
    lines: Mapping[int, int] = field(default_factory=dict)
    #: The normalising habits each test tells apart (:mod:`evalplus_ng.reduce.habits`).
    habits: Mapping[int, frozenset[str]] = field(default_factory=dict)
    #: The classes of the ground truth's intermediate values on each test
    #: (:mod:`evalplus_ng.reduce.values`).
    values: Mapping[int, frozenset[str]] = field(default_factory=dict)

    @property
    def base(self) -> list[int]:
        """The base tests among the task's tests."""
        n_base = len(self.task.base_inputs)
        return [t for t in self.order if t < n_base]

    def matrices(self, held_out: str | None = None) -> dict[str, dict[int, set[Any]]]:
        """Test -> goals for each requirement kind (sample kills without ``held_out``'s own)."""
        coverage: dict[int, set[Any]] = {t: set(a) for t, a in self.arcs.items() if a}
        return {
            "coverage": coverage,
            "mutants": dict(invert(self.mutants)),
            "samples": dict(kill_matrix(self.samples, self.authors, held_out)),
            "cost": cost_goals(self.lines, self.base, COST_FACTOR),
            "slips": dict(invert(self.slips)),
            "classes": {t: set(c) for t, c in self.classes.items()},
            "habits": {t: set(h) for t, h in self.habits.items() if h},
            "values": {t: set(v) for t, v in self.values.items() if v},
            "faults": {t: goals for t, goals in
                       kill_matrix(self.samples, self.authors, held_out).items()
                       if t not in self._base_set},
        }

    @cached_property
    def _masks(self) -> dict[str, KindMasks]:
        """Per kind: test -> goals as bits, and how many bits the kind uses."""
        return {
            "coverage": masks_of(self.arcs),
            "mutants": (_row_masks(self.mutants), len(self.mutants)),
            "samples": (_row_masks(self.samples), len(self.samples)),
            "cost": masks_of(cost_goals(self.lines, self.base, COST_FACTOR)),
            "slips": (_row_masks(self.slips), len(self.slips)),
            "classes": masks_of(self.classes),
            "habits": masks_of(self.habits),
            "values": masks_of(self.values),
            "faults": ({t: m for t, m in _row_masks(self.samples).items()
                        if t not in self._base_set}, len(self.samples)),
        }

    @cached_property
    def _base_set(self) -> frozenset[int]:
        return frozenset(self.base)

    def _written_only_within(self, models: frozenset[str]) -> int:
        """The sample bits that no model outside ``models`` wrote."""
        mask = 0
        for bit, who in enumerate(self.authors):
            if who <= models:
                mask |= 1 << bit
        return mask

    def _excluded(self, held_out: str | Set[str] | None) -> dict[str, int]:
        if held_out is None:
            return {}
        group = frozenset({held_out} if isinstance(held_out, str) else held_out)
        mask = self._written_only_within(group)
        return {kind: mask for kind in SAMPLE_KINDS}

    def reduce(self, profile: Profile, held_out: str | Set[str] | None = None) -> list[int]:
        """The tests ``profile``'s covers keep of this task (the same as :func:`select` on
        ``matrices``); :func:`reduce_all` adds the profile's fill across tasks.

        ``held_out`` names a model (or a set of models) whose samples do not choose
        tests: a sample kill is a goal only when some other model wrote that code.
        """
        return select_masks(profile, self._masks, self.order, self.base,
                            self._excluded(held_out))

    def fill_goals(self, profile: Profile, held_out: str | Set[str] | None = None,
                   ) -> dict[int, int]:
        """Test -> the goals of the profile's fill kinds it meets (as bits)."""
        return fill_goals(profile, self._masks, self._excluded(held_out))


def reduce_all(reqs: Mapping[TaskId, TaskRequirements], profile: Profile,
               held_out: str | Set[str] | None = None) -> dict[TaskId, list[int]]:
    """The tests ``profile`` keeps of every task: each task's covers, then (with a fill)
    tests added across tasks up to the profile's mean tests per task."""
    chosen = {t: r.reduce(profile, held_out) for t, r in reqs.items()}
    if profile.mean is None:
        return chosen
    ids = list(reqs)
    filled = fill_across([(reqs[t].fill_goals(profile, held_out), reqs[t].order, chosen[t])
                          for t in ids], int(profile.mean * len(ids)))
    return {t: sorted(tests) for t, tests in zip(ids, filled, strict=True)}


def _row_masks(rows: Sequence[KillRow]) -> dict[int, int]:
    """Test -> the rows it kills, as bits."""
    masks: dict[int, int] = {}
    for bit, row in enumerate(rows):
        for test in row.killers:
            masks[test] = masks.get(test, 0) | 1 << bit
    return masks


@dataclass(frozen=True)
class ReduceSummary:
    """What ``reduce`` wrote and measured."""

    mini_path: Path
    report_path: Path
    tests_per_task: Mapping[str, float]
    #: Per profile: the share of the full suite's kills (base-passing samples it fails)
    #: that the reduced suite keeps; only when samples were given and some were killed.
    kept: Mapping[str, float]
    document: Mapping[str, Any] = field(default_factory=dict)
    #: Seconds spent on coverage, mutant and sample kills (cumulative over cached runs)
    #: and on this run; printed, not written (the report files are reproducible).
    seconds: Mapping[str, float] = field(default_factory=dict)
    #: With a Ray cluster: the tasks whose requirements each node computed (by node id).
    nodes: Mapping[str, int] = field(default_factory=dict)


# --------------------------------------------------------------------------- caching


def _key(*parts: Any) -> str:
    digest = hashlib.sha256()
    for part in (CACHE_VERSION, *parts):
        digest.update(json.dumps(part, sort_keys=True, ensure_ascii=False).encode())
        digest.update(b"\0")
    return digest.hexdigest()


def _timed(compute: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """``compute()``'s document with the seconds it took."""
    began = time.perf_counter()
    document = compute()
    document["seconds"] = round(time.perf_counter() - began, 3)
    return document


def _read_cached(folder: Path, task: Task, key: str) -> dict[str, Any] | None:
    """The cached document for ``task`` when its key matches, else None."""
    path = folder / f"{file_stem(task.task_id)}.json"
    if not path.is_file():
        return None
    try:
        document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except ValueError:
        return None  # a torn write: compute again
    return document if document.get("key") == key else None


def _store(folder: Path, task: Task, key: str, document: dict[str, Any]) -> dict[str, Any]:
    document["key"] = key
    folder.mkdir(parents=True, exist_ok=True)
    write_atomically(folder / f"{file_stem(task.task_id)}.json", json.dumps(document) + "\n")
    return document


def _cached(folder: Path, task: Task, key: str,
            compute: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """The cached document for ``task`` when its key matches, else a fresh one (then stored)."""
    found = _read_cached(folder, task, key)
    return found if found is not None else _store(folder, task, key, _timed(compute))


def _rows_to_wire(rows: Sequence[KillRow]) -> list[dict[str, list[int]]]:
    return [{"k": sorted(row.killers), "u": sorted(row.unknown)} for row in rows]


def _rows_from_wire(wire: Sequence[Mapping[str, Sequence[int]]]) -> tuple[KillRow, ...]:
    return tuple(KillRow(frozenset(row["k"]), frozenset(row["u"])) for row in wire)


def _suite_key(task: Task, tests: Sequence[int]) -> list[Any]:
    inputs = [dumps(encode(list(args))) for args in (*task.base_inputs, *task.plus_inputs)]
    return [task.task_id, task.solution, task.entry_point, inputs, list(tests)]


# --------------------------------------------------------------------------- requirements


def _order(task: Task, tests: Sequence[int]) -> tuple[int, ...]:
    """Tests preferred first: smaller inputs (cheaper to run and read), then suite order."""
    everything = (*task.base_inputs, *task.plus_inputs)
    return tuple(sorted(tests, key=lambda t: (len(dumps(encode(list(everything[t])))), t)))


def class_requirement(task: Task, truth: GroundTruth,
                      tests: Sequence[int]) -> dict[int, frozenset[str]]:
    """The classes of each test's input and expected output (cheap: not cached)."""
    everything = (*task.base_inputs, *task.plus_inputs)
    n_base = len(task.base_inputs)
    outputs = (*truth.base.outputs, *truth.plus.outputs)
    found: dict[int, frozenset[str]] = {}
    for test in tests:
        output = decode(outputs[test]) if test < n_base + len(truth.plus.outputs) else None
        found[test] = frozenset(classes_of_test(everything[test], output))
    return found


#: The requirement kinds cached per task (``classes`` is cheap: computed each time).
CACHED_KINDS = ("coverage", "cost", "values", "mutants", "slips", "habits", "samples")


def requirement_key(kind: str, task: Task, tests: Sequence[int],
                    codes: Sequence[str] = ()) -> str:
    """The cache key of ``task``'s requirement of ``kind``: everything it depends on."""
    suite = _suite_key(task, tests)
    if kind in ("coverage", "cost"):
        return _key(kind, suite)
    if kind == "values":
        return _key(kind, suite, VALUES_VERSION, RECORD_BUDGET)
    if kind == "habits":
        return _key(kind, suite, sorted(HABITS), HABIT_SECONDS)
    if kind == "mutants":
        return _key(kind, suite, MUTANT_KILLS.__dict__)
    if kind == "slips":
        # The slips' own code is in the key: a change to how they are made redoes them.
        return _key(kind, suite, MUTANT_KILLS.__dict__,
                    [m.code for m in slip_sources(task.solution)])
    return _key(kind, suite, SAMPLE_KILLS.__dict__, list(codes))


def compute_requirement(kind: str, task: Task, truth: GroundTruth | None,
                        tests: Sequence[int], codes: Sequence[str] = (),
                        executor: Executor | None = None) -> dict[str, Any]:
    """``task``'s requirement of ``kind`` (uncached): branch arcs, executed lines or
    intermediate values' classes per test (in-process: trusted code), or kill rows of
    mutants, slips or the samples ``codes`` (in ``executor``'s sandbox; these need the
    ground truth's ``truth``)."""
    everything = (*task.base_inputs, *task.plus_inputs)
    chosen = [everything[t] for t in tests]
    if kind == "coverage":
        arcs = branch_arcs(task.solution, task.entry_point, chosen)
        return {"arcs": {str(t): sorted(a) for t, a in zip(tests, arcs, strict=True)}}
    if kind == "cost":
        lines = executed_lines(task.solution, task.entry_point, chosen)
        return {"lines": {str(t): n for t, n in zip(tests, lines, strict=True)}}
    if kind == "values":
        found = value_goals(task.solution, task.entry_point, chosen)
        return {"goals": {str(t): sorted(g) for t, g in zip(tests, found, strict=True) if g}}
    if truth is None or executor is None:
        raise ValueError(f"the {kind} requirement runs code: it needs the truth and a sandbox")
    if kind == "habits":
        return {"goals": _habit_goals(task, truth, tests, executor)}
    if kind == "samples":
        return {"rows": _rows_to_wire(kill_rows(task, truth, codes, executor, SAMPLE_KILLS))}
    mutants = mutant_sources(task.solution) if kind == "mutants" else slip_sources(task.solution)
    rows = kill_rows(task, truth, [m.code for m in mutants], executor, MUTANT_KILLS)
    return {"lines": [m.line for m in mutants], "rows": _rows_to_wire(rows)}


def _habit_goals(task: Task, truth: GroundTruth, tests: Sequence[int],
                 executor: Executor) -> dict[str, list[str]]:
    """Per test (as text), the goals of :mod:`evalplus_ng.reduce.habits`: the ground truth run on
    each habit's rewrite of the test's input (trusted code; a rewrite it does not answer
    within :data:`HABIT_SECONDS` is no goal)."""
    everything = (*task.base_inputs, *task.plus_inputs)
    own = (*truth.base.outputs, *truth.plus.outputs)
    answered = (*truth.base.failures, *truth.plus.failures)
    probes = [(test, stem, args) for test in tests if not answered[test]
              for stem, args in rewrites(everything[test])]
    jobs = [replace(ground_truth_job(task, [args for _t, _s, args in probes[i:i + HABIT_CHUNK]],
                                     HABIT_SECONDS), max_timeouts=1)
            for i in range(0, len(probes), HABIT_CHUNK)]
    answers: list[Any] = []
    for chunk, result in zip(range(0, len(probes), HABIT_CHUNK), executor.map(jobs),
                             strict=True):
        for index in range(min(HABIT_CHUNK, len(probes) - chunk)):
            outcome = result.outcomes[index] if index < len(result.outcomes) else None
            ok = (result.load.status is Status.OK and outcome is not None
                  and outcome.status is Status.OK)
            answers.append(dumps(outcome.value) if ok and outcome is not None else None)
    stems: dict[int, list[str]] = {}
    same: dict[int, list[bool | None]] = {}
    for (test, stem, _args), answer in zip(probes, answers, strict=True):
        stems.setdefault(test, []).append(stem)
        same.setdefault(test, []).append(None if answer is None
                                         else answer == dumps(own[test]))
    return {str(test): sorted(habit_goals(stems[test], same[test])) for test in stems}


def _requirement(kind: str, task: Task, truth: GroundTruth | None, tests: Sequence[int],
                 folder: Path, executor: Executor | None = None,
                 codes: Sequence[str] = ()) -> dict[str, Any]:
    return _cached(folder / kind, task, requirement_key(kind, task, tests, codes),
                   lambda: compute_requirement(kind, task, truth, tests, codes, executor))


def coverage_requirement(task: Task, tests: Sequence[int], folder: Path) -> dict[str, Any]:
    """Branch arcs per test (cached)."""
    return _requirement("coverage", task, None, tests, folder)


def cost_requirement(task: Task, tests: Sequence[int], folder: Path) -> dict[str, Any]:
    """Lines the ground truth executes per test (cached)."""
    return _requirement("cost", task, None, tests, folder)


def mutant_requirement(task: Task, truth: GroundTruth, tests: Sequence[int], folder: Path,
                       executor: Executor) -> dict[str, Any]:
    """Mutants of the ground truth and the tests that kill each (cached)."""
    return _requirement("mutants", task, truth, tests, folder, executor)


def slip_requirement(task: Task, truth: GroundTruth, tests: Sequence[int], folder: Path,
                     executor: Executor) -> dict[str, Any]:
    """The ground truth's slips (LLM-style mutants) and the tests that kill each (cached)."""
    return _requirement("slips", task, truth, tests, folder, executor)


def sample_requirement(task: Task, truth: GroundTruth, tests: Sequence[int],
                       found: Sequence[Candidate], folder: Path,
                       executor: Executor) -> dict[str, Any]:
    """The tests that kill each distinct sample of the task (cached)."""
    return _requirement("samples", task, truth, tests, folder, executor,
                        [candidate.code for candidate in found])


# --------------------------------------------------------------------------- judging


@dataclass
class KillLookup:
    """Whether a sample fails a set of tests, read from its kill row; runs the sample only
    on tests the row leaves unknown (each such run once)."""

    executor: Executor
    reqs: Mapping[TaskId, TaskRequirements]
    runs: dict[tuple[TaskId, int, tuple[int, ...]], bool] = field(default_factory=dict)

    def killed(self, task_id: TaskId, candidate: int, tests: Sequence[int]) -> bool:
        req = self.reqs[task_id]
        row = req.samples[candidate]
        if row.killers.intersection(tests):
            return True
        unknown = tuple(sorted(row.unknown.intersection(tests)))
        if not unknown:
            return False
        key = (task_id, candidate, unknown)
        if key not in self.runs:
            self.runs[key] = fails_any(req.task, req.truth, req.codes[candidate], unknown,
                                       self.executor, SAMPLE_KILLS)
        return self.runs[key]


def base_failures(reqs: Mapping[TaskId, TaskRequirements], answers: Sequence[Answer],
                  lookup: KillLookup) -> dict[Answer, bool]:
    """Whether each sample fails its task's base tests (then it is never a kill)."""
    return {a: lookup.killed(a.task_id, a.candidate, reqs[a.task_id].base) for a in answers}


@dataclass(frozen=True)
class ReducedVerdicts:
    """Samples judged on the full suite and on a reduced one."""

    #: Whether each sample fails the full suite, and the reduced one.
    full: Mapping[Answer, bool]
    reduced: Mapping[Answer, bool]
    #: The full suite's kills (samples that pass the base tests and fail it), and those
    #: the reduced suite keeps.
    kills: tuple[Answer, ...]
    kept: tuple[Answer, ...]

    def passes_full(self, answer: Answer) -> bool:
        return not self.full[answer]

    def passes_reduced(self, answer: Answer) -> bool:
        return not self.reduced[answer]


def judge_reduced(reqs: Mapping[TaskId, TaskRequirements], answers: Sequence[Answer],
                  suites: Mapping[TaskId, Sequence[int]], lookup: KillLookup,
                  failed_base: Mapping[Answer, bool]) -> ReducedVerdicts:
    """``answers`` judged on the full suite (their kill rows) and on ``suites`` (task ->
    the tests kept)."""
    full = {a: reqs[a.task_id].samples[a.candidate].killed for a in answers}
    reduced = {a: full[a] and lookup.killed(a.task_id, a.candidate, suites[a.task_id])
               for a in answers}
    kills = tuple(a for a in answers if full[a] and not failed_base[a])
    return ReducedVerdicts(full, reduced, kills, tuple(a for a in kills if reduced[a]))


def pass_at_1(answers: Sequence[Answer], passed: Callable[[Answer], bool]) -> float:
    totals: dict[TaskId, int] = {}
    corrects: dict[TaskId, int] = {}
    for answer in answers:
        totals[answer.task_id] = totals.get(answer.task_id, 0) + 1
        corrects[answer.task_id] = corrects.get(answer.task_id, 0) + passed(answer)
    tasks = sorted(totals)
    return estimate_pass_at_k([totals[t] for t in tasks], [corrects[t] for t in tasks], 1)


# --------------------------------------------------------------------------- the stage


def _warm_one(item: tuple[Task, list[int], Path, frozenset[str]]) -> str:
    task, tests, folder, kinds = item
    if "coverage" in kinds:
        coverage_requirement(task, tests, folder)
    if "cost" in kinds:
        cost_requirement(task, tests, folder)
    if "values" in kinds:
        _requirement("values", task, None, tests, folder)
    return task.task_id


def warm(tasks: Sequence[Task], truths: Mapping[TaskId, GroundTruth], folder: Path,
         workers: int, kinds: Set[str]) -> None:
    """Fill the caches of the requirements computed in-process (branch coverage, executed
    lines, intermediate values: trusted code, pure functions of the inputs) with
    ``workers`` processes; the sandboxed kinds (mutants, slips, habits, samples) run in
    the sandbox's own workers."""
    local = frozenset(kinds) & {"coverage", "cost", "values"}
    if workers < 2 or not local or len(tasks) < 2:
        return
    items = [(task, suite_tests(task, truths[task.task_id]), folder, local) for task in tasks]
    for _done in unordered(min(workers, len(items)), _warm_one, items):
        pass


RequirementUnit = tuple[Task, GroundTruth, list[int], list[str], list[str], tuple[str, ...]]


def _requirement_unit(item: RequirementUnit) -> tuple[TaskId, dict[str, dict[str, Any]]]:
    """A Ray unit: some requirement kinds of one task, computed on the worker (its sandbox
    runs the mutants, slips and samples); the driver stores them."""
    from evalplus_ng.backend.cluster import worker_sandbox

    task, truth, tests, kinds, codes, hidden = item
    sandbox = worker_sandbox(Limits(), hidden)
    return task.task_id, {
        kind: _timed(functools.partial(compute_requirement, kind, task, truth, tests, codes,
                                       sandbox))
        for kind in kinds}


def warm_on_cluster(tasks: Sequence[Task], truths: Mapping[TaskId, GroundTruth], folder: Path,
                    backend: Backend, kinds: Set[str],
                    sample_table: Mapping[TaskId, Sequence[Candidate]] | None,
                    hidden: Sequence[str] = (), progress: Progress | None = None,
                    nodes: Counter[str] | None = None) -> None:
    """Fill the requirement caches on a Ray cluster, one task a unit (the kinds its cache
    lacks), each stored by this process as it comes; :func:`gather` then reads them."""
    wanted = [kind for kind in CACHED_KINDS if kind in kinds and kind != "samples"]
    if sample_table is not None and kinds & SAMPLE_KINDS:
        wanted.append("samples")
    units: list[RequirementUnit] = []
    keys: dict[TaskId, dict[str, str]] = {}
    by_id = {task.task_id: task for task in tasks}
    for task in tasks:
        truth = truths[task.task_id]
        tests = suite_tests(task, truth)
        codes = [c.code for c in (sample_table or {}).get(task.task_id, ())]
        keys[task.task_id] = {kind: requirement_key(kind, task, tests, codes) for kind in wanted}
        missing = [kind for kind, key in keys[task.task_id].items()
                   if _read_cached(folder / kind, task, key) is None]
        if missing:
            units.append((task, truth, tests, missing, codes, tuple(hidden)))
    done = len(tasks) - len(units)
    if progress is not None:
        progress(done, len(tasks))
    for task_id, documents in backend.unordered(_requirement_unit, units, nodes):
        for kind, document in documents.items():
            _store(folder / kind, by_id[task_id], keys[task_id][kind], document)
        done += 1
        if progress is not None:
            progress(done, len(tasks))


def gather(tasks: Sequence[Task], truths: Mapping[TaskId, GroundTruth], folder: Path,
           executor: Executor, sample_table: Mapping[TaskId, Sequence[Candidate]] | None,
           progress: Progress | None = None,
           kinds: Set[str] = frozenset(REQUIREMENTS)) -> tuple[dict[TaskId, TaskRequirements],
                                                             dict[str, float]]:
    """Every task's requirements of ``kinds`` (from the cache when current; other kinds
    stay empty) and seconds spent per kind."""
    reqs: dict[TaskId, TaskRequirements] = {}
    seconds = dict.fromkeys(REQUIREMENTS, 0.0)
    nothing: dict[str, Any] = {"arcs": {}, "rows": [], "lines": [], "seconds": 0.0}
    for done, task in enumerate(tasks, start=1):
        truth = truths[task.task_id]
        tests = suite_tests(task, truth)
        cover = (coverage_requirement(task, tests, folder) if "coverage" in kinds
                 else nothing)
        mutants = (mutant_requirement(task, truth, tests, folder, executor)
                   if "mutants" in kinds else nothing)
        cost: dict[str, Any] = (cost_requirement(task, tests, folder) if "cost" in kinds
                                else {"lines": {}, "seconds": 0.0})
        slips = (slip_requirement(task, truth, tests, folder, executor) if "slips" in kinds
                 else nothing)
        habits: dict[str, Any] = (
            _requirement("habits", task, truth, tests, folder, executor) if "habits" in kinds
            else {"goals": {}, "seconds": 0.0})
        values: dict[str, Any] = (
            _requirement("values", task, None, tests, folder) if "values" in kinds
            else {"goals": {}, "seconds": 0.0})
        for kind, document in (("coverage", cover), ("mutants", mutants), ("cost", cost),
                               ("slips", slips), ("habits", habits), ("values", values)):
            seconds[kind] += document["seconds"]
        rows: tuple[KillRow, ...] = ()
        found: Sequence[Candidate] = ()
        if sample_table is not None and kinds & SAMPLE_KINDS:
            found = sample_table.get(task.task_id, ())
            samples = sample_requirement(task, truth, tests, found, folder, executor)
            seconds["samples"] += samples["seconds"]
            rows = _rows_from_wire(samples["rows"])
        reqs[task.task_id] = TaskRequirements(
            task=task,
            truth=truth,
            order=_order(task, tests),
            arcs={int(t): frozenset((a, b) for a, b in arcs)
                  for t, arcs in cover["arcs"].items()},
            mutants=_rows_from_wire(mutants["rows"]),
            mutant_lines=tuple(mutants["lines"]),
            samples=rows,
            authors=tuple(c.models for c in found),
            codes=tuple(c.code for c in found),
            lines={int(t): n for t, n in cost["lines"].items()},
            slips=_rows_from_wire(slips["rows"]),
            classes=class_requirement(task, truth, tests) if "classes" in kinds else {},
            habits={int(t): frozenset(g) for t, g in habits["goals"].items()},
            values={int(t): frozenset(g) for t, g in values["goals"].items()},
        )
        if progress is not None:
            progress(done, len(tasks))
    return reqs, seconds


def reduced_task(req: TaskRequirements, chosen: Sequence[int]) -> Task:
    """The task with only the chosen tests (base and plus keep their own order)."""
    task = req.task
    n_base = len(task.base_inputs)
    kept = set(chosen)
    base = [i for i in range(n_base) if i in kept]
    plus = [j for j in range(len(task.plus_inputs)) if n_base + j in kept]
    calibration = task.calibration
    if calibration is not None:
        units = calibration.units
        calibration = replace(calibration, units=tuple(units[i] for i in base)
                              + tuple(units[n_base + j] for j in plus))
    return replace(task, base_inputs=tuple(task.base_inputs[i] for i in base),
                   plus_inputs=tuple(task.plus_inputs[j] for j in plus), calibration=calibration)


def _profile_rows(profiles: Sequence[Profile], reqs: Mapping[TaskId, TaskRequirements],
                  answers: Sequence[Answer], judge: KillLookup | None,
                  ) -> tuple[list[dict[str, Any]], dict[Profile, dict[TaskId, list[int]]]]:
    """Per profile: tests per task, the full suite's kills the reduced suite keeps, and per
    model pass@1 full vs reduced (leave one model out); and each profile's published
    reduction (every model's samples choosing).

    A kill is a sample that passes the base tests and fails the full suite; a sample
    that fails the base tests is never one (every profile keeps the base tests, so
    counting it would only inflate what a reduced suite keeps).
    """
    rows: list[dict[str, Any]] = []
    full_tests = statistics.mean(len(r.order) for r in reqs.values())
    rows.append({"profile": "(full suite)", "tests_per_task": full_tests, "models": {}})
    grouped = per_model(answers)
    failed_base = base_failures(reqs, answers, judge) if judge is not None else {}
    reductions: dict[Profile, dict[TaskId, list[int]]] = {}
    for profile in profiles:
        published = reductions[profile] = reduce_all(reqs, profile)
        row: dict[str, Any] = {
            "profile": profile.name,
            "tests_per_task": statistics.mean(len(c) for c in published.values()),
            "models": {},
        }
        kills = kept = 0
        for model, mine in grouped.items():
            if profile.uses_samples:
                suites = reduce_all(reqs, profile, held_out=model)
            else:
                suites = published
            assert judge is not None
            verdicts = judge_reduced(reqs, mine, suites, judge, failed_base)
            kills += len(verdicts.kills)
            kept += len(verdicts.kept)
            row["models"][model] = {
                "full": pass_at_1(mine, verdicts.passes_full),
                "reduced": pass_at_1(mine, verdicts.passes_reduced),
                "tests_per_task": statistics.mean(len(c) for c in suites.values()),
                "kills": len(verdicts.kills),
                "kills_kept": len(verdicts.kept),
            }
        row["kills"] = kills
        row["kills_kept"] = kept
        row["kept"] = kept / kills if kills else None
        rows.append(row)
    return rows, reductions


def _reduction_files(dataset: Dataset, suite: str) -> dict[str, str]:
    """Names of what reducing ``suite`` writes: the MINI, the report, its JSON, the cache."""
    mini = dataset.suite_file(MINI_OF[suite])
    if suite == "plus":
        return {"mini": mini, "report": REPORT_FILE, "summary": SUMMARY_FILE,
                "cache": CACHE_FOLDER}
    return {"mini": mini, "report": f"reduction-{suite}.md",
            "summary": f"reduction-{suite}.json", "cache": f"{CACHE_FOLDER}-{suite}"}


def run_reduce(out_dir: Path, dataset: Dataset, profile: str = "full",
               samples_dir: Path | None = None, backend: Backend = LOCAL,
               progress: Progress | None = None,
               status: Callable[[str], None] | None = None,
               suite: str = "plus") -> ReduceSummary:
    """Reduce ``out_dir``'s full suite with ``profile``; write the MINI suite and the report.

    ``dataset`` is the benchmark whose suites ``out_dir`` holds (default HumanEval).
    Without ``samples_dir`` only profiles without sample kills can run, and the
    report has no pass@1 columns. ``suite`` is ``plus`` (the MINI, reported for every
    shipped profile) or ``stress`` (the stress tier's own MINI, for ``profile`` alone:
    its inputs are the costly ones, so no other profile's requirements are gathered).
    On a Ray ``backend`` the requirements are computed a task a unit, instead of in the
    local pool's processes; the caches, the MINI and the report are the same.
    """
    if suite not in MINI_OF:
        raise InputError(suite, None, f"no reduction for suite {suite!r}; known: "
                                      f"{', '.join(MINI_OF)}")
    files = _reduction_files(dataset, suite)
    say = status or (lambda _message: None)
    began = time.perf_counter()
    chosen = load_profile(profile)
    suite_path = out_dir / dataset.suite_file(suite)
    if not suite_path.is_file():
        raise InputError(str(suite_path), None,
                         f"no {suite} suite here: run `evalplus-ng augment --dataset "
                         f"{dataset.name}` first")
    if chosen.uses_samples and samples_dir is None:
        raise InputError(str(samples_dir or "--samples"), None,
                         f"profile {profile!r} needs LLM samples: pass --samples DIR")
    tasks = load_plus_file(suite_path, dataset.equality())
    by_id = {task.task_id: task for task in tasks}
    sample_table: dict[TaskId, list[Candidate]] | None = None
    answers: list[Answer] = []
    if samples_dir is not None:
        # Samples may answer tasks the suite lacks (a partial suite): read them against
        # the whole dataset, then keep the suite's.
        known = {**{t.task_id: t for t in dataset.load()}, **by_id}
        found = [(name, sample) for name, sample in read_sample_folder(samples_dir, known)
                 if sample.task_id in by_id]
        sample_table, answers = candidates(found)
        say(f"{len(answers)} samples ({sum(map(len, sample_table.values()))} distinct) "
            f"from {len(per_model(answers))} models")
    names = sorted(profile_names(), key=lambda n: (PAPER_ORDER.index(n)
                                                   if n in PAPER_ORDER else len(PAPER_ORDER), n))
    profiles = [p for p in map(load_profile, names) if p.suite == "plus"
                and (samples_dir is not None or not p.uses_samples)]
    if suite != "plus":
        profiles = [chosen]
    kinds = {kind for p in profiles for kind in p.requirements}
    folder = out_dir / files["cache"]
    hidden = answer_keys_near(out_dir, dataset)
    nodes: Counter[str] = Counter()
    with backend.executor(Limits(), hidden) as sandbox:
        say(f"running the ground truth of {len(tasks)} task(s)")
        truths = run_ground_truth(tasks, sandbox, tasks_per_job=8)
        if not backend.ray:
            say("branch coverage and executed lines")
            warm(tasks, truths, folder, backend.workers, kinds)
        else:
            say("requirements on the Ray cluster")
            warm_on_cluster(tasks, truths, folder, backend, kinds, sample_table,
                            tuple(map(str, hidden)), progress, nodes)
        reqs, seconds = gather(tasks, truths, folder, sandbox, sample_table, progress, kinds)
        say("set cover and report")
        judge = KillLookup(sandbox, reqs) if samples_dir is not None else None
        rows, reductions = _profile_rows(profiles, reqs, answers, judge)
    kept = reductions[chosen] if chosen in reductions else reduce_all(reqs, chosen)
    mini = [reduced_task(reqs[t.task_id], kept[t.task_id]) for t in tasks]
    mini_path = out_dir / files["mini"]
    write_plus_file(mini, mini_path, dataset.schema)
    mutant_counts = [len(r.mutants) for r in reqs.values()]
    survivors = {t: [r.mutant_lines[i] for i, row in enumerate(r.mutants) if not row.killed]
                 for t, r in reqs.items()}
    # The report files hold no timings or absolute paths: same suite, same bytes.
    document = {
        "suite": dataset.suite_file(suite),
        "profile": profile,
        "mini": files["mini"],
        "profiles": rows,
        "mutants": {
            "total": sum(mutant_counts),
            "min": min(mutant_counts, default=0),
            "median": statistics.median(mutant_counts) if mutant_counts else 0,
            "max": max(mutant_counts, default=0),
            "none": [t for t, r in reqs.items() if not r.mutants],
            "survivors": {t: lines for t, lines in survivors.items() if lines},
        },
    }
    report_path = out_dir / files["report"]
    write_atomically(report_path, report(document))
    write_atomically(out_dir / files["summary"], json.dumps(document, indent=1) + "\n")
    return ReduceSummary(
        mini_path, report_path,
        {r["profile"]: r["tests_per_task"] for r in rows},
        {r["profile"]: r["kept"] for r in rows if r.get("kept") is not None},
        document,
        {**{k: round(v, 1) for k, v in seconds.items()},
         "this_run": round(time.perf_counter() - began, 1)},
        dict(nodes),
    )



def report(document: Mapping[str, Any]) -> str:
    """``reduction.md``: the EvalPlus paper's Table 4 shape, then the costs."""
    rows = document["profiles"]
    models = sorted({m for row in rows for m in row["models"]})
    lines = [
        f"# Test-suite reduction of {document['suite']}",
        "",
        "Tests per task (base + plus); the full suite's kills (samples that pass the base tests",
        "and fail the full suite; a sample that fails the base tests is never a kill) and the",
        "share each reduced suite keeps; then pass@1 (%) of each model (a row) on the full suite",
        "and on each reduced one. Profiles with sample kills leave the judged model out: its own",
        "samples never chose the tests it is judged with (tests/task is then the suite chosen",
        "with every model's samples, the published one).",
        "",
    ]
    reduced = [row for row in rows if row["profile"] != "(full suite)"]
    header = ["", "full suite", *(row["profile"] for row in reduced)]
    lines.append("| " + " | ".join(header) + " |")
    lines.append("|---|" + "---:|" * (len(header) - 1))
    lines.append("| tests/task | " + " | ".join(f"{row['tests_per_task']:.1f}" for row in rows)
                 + " |")
    if models:
        kills = reduced[0]["kills"] if reduced else 0
        lines.append(f"| kills kept | {kills} | " + " | ".join(
            f"{row['kills_kept']} ({100 * row['kept']:.1f}%)" if row["kept"] is not None
            else "-" for row in reduced) + " |")
        for model in models:
            full = next((row["models"][model]["full"] for row in reduced
                         if model in row["models"]), None)
            cells = [f"{100 * full:.1f}" if full is not None else ""]
            cells += [f"{100 * row['models'][model]['reduced']:.1f}"
                      if model in row["models"] else "" for row in reduced]
            lines.append(f"| {model} | " + " | ".join(cells) + " |")
    mutants = document["mutants"]
    survivors = mutants["survivors"]
    lines += [
        "",
        "## Mutants",
        "",
        f"* mutants: {mutants['total']} in all; per task min {mutants['min']}, "
        f"median {mutants['median']}, max {mutants['max']}; none for "
        f"{', '.join(mutants['none']) or 'no task'}",
        f"* mutants no test kills: {sum(map(len, survivors.values()))} "
        f"in {len(survivors)} task(s)",
        "",
        "## Mutants no test kills (task: lines of the ground truth)",
        "",
        *[f"* {task}: {', '.join(map(str, lines_))}" for task, lines_ in survivors.items()],
        "",
    ]
    return "\n".join(lines)
