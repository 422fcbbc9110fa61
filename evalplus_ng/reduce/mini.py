"""HumanEval+-MINI's engine: gather each task's requirements, set-cover them per profile,
judge the reduced suites and render the report (``reduce`` itself, which reads the suite
and writes the MINI, is :mod:`evalplus_ng.pipeline.minimize`).

Each requirement is cached per task under ``DIR/reduction/``, keyed by everything it
depends on, so a second run (another profile, the report) costs only the set cover.
"""

from __future__ import annotations

import functools
import json
import statistics
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence, Set
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

from evalplus_ng.backend.executors import Backend
from evalplus_ng.evaluation.verdicts import estimate_pass_at_k
from evalplus_ng.files import write_atomically
from evalplus_ng.oracle.groundtruth import GroundTruth
from evalplus_ng.pools import unordered
from evalplus_ng.protocols import Executor
from evalplus_ng.records import Task
from evalplus_ng.reduce.found import Found, GoalSets, KillRows
from evalplus_ng.reduce.kills import KillRow, fails_any, suite_tests
from evalplus_ng.reduce.profiles import (
    REQUIREMENTS,
    SAMPLE_KINDS,
    Profile,
    fill_goals,
    select_masks,
)
from evalplus_ng.reduce.requirements import (
    KINDS,
    SAMPLE_KILLS,
    Document,
    compute_requirement,
    documents_for,
    read_documents,
    requirement_key,
)
from evalplus_ng.reduce.sample_kills import Answer, Candidate, per_model
from evalplus_ng.reduce.setcover import KindMasks, fill_across
from evalplus_ng.sandbox import Limits
from evalplus_ng.serialize import dumps, encode
from evalplus_ng.tasks.spec import file_stem
from evalplus_ng.types import TaskId

REPORT_FILE = "reduction.md"
SUMMARY_FILE = "reduction.json"
CACHE_FOLDER = "reduction"
#: Report rows in the order of the EvalPlus paper's Table 4.
PAPER_ORDER = ("coverage", "mutants", "samples", "full")

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class TaskRequirements:
    """One task's tests (preferred first) and what each requirement kind found in them."""

    task: Task
    truth: GroundTruth
    order: tuple[int, ...]
    #: Per kind of :data:`~evalplus_ng.reduce.requirements.KINDS`, what it found (a kind
    #: not gathered is absent: it has no goals).
    found: Mapping[str, Found] = field(default_factory=dict)
    #: Per sample-kill row: the models that wrote its code, and the code.
    authors: tuple[frozenset[str], ...] = ()
    codes: tuple[str, ...] = ()

    @property
    def base(self) -> list[int]:
        """The base tests among the task's tests."""
        n_base = len(self.task.base_inputs)
        return [t for t in self.order if t < n_base]

    @property
    def samples(self) -> tuple[KillRow, ...]:
        """Kill rows of the samples' distinct codes (in :attr:`codes` order)."""
        return self._rows("samples").rows

    @property
    def mutants(self) -> tuple[KillRow, ...]:
        """Kill rows of the ground truth's mutants."""
        return self._rows("mutants").rows

    @property
    def mutant_lines(self) -> tuple[int, ...]:
        """The ground truth's line each mutant changes."""
        return self._rows("mutants").lines

    def _rows(self, kind: str) -> KillRows:
        found = self.found.get(kind)
        return found if isinstance(found, KillRows) else KillRows()

    def _of(self, kind: str) -> Found:
        return self.found.get(kind, GoalSets())

    def matrices(self, held_out: str | Set[str] | None = None,
                 ) -> dict[str, dict[int, set[Any]]]:
        """Test -> goals for each requirement kind (sample kills without ``held_out``'s own)."""
        excluded = self._excluded(held_out)
        return {kind: self._of(kind).matrix(excluded.get(kind, 0)) for kind in KINDS}

    @cached_property
    def _masks(self) -> dict[str, KindMasks]:
        """Per kind: test -> goals as bits, and how many bits the kind uses."""
        return {kind: self._of(kind).masks() for kind in KINDS}

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


# --------------------------------------------------------------------------- caching


def _timed(compute: Callable[[], Document]) -> Document:
    """``compute()``'s document with the seconds it took."""
    began = time.perf_counter()
    document = compute()
    document["seconds"] = round(time.perf_counter() - began, 3)
    return document


def _read_cached(folder: Path, task: Task, key: str) -> Document | None:
    """The cached document for ``task`` when its key matches, else None."""
    path = folder / f"{file_stem(task.task_id)}.json"
    if not path.is_file():
        return None
    try:
        document: Document = json.loads(path.read_text(encoding="utf-8"))
    except ValueError:
        return None  # a torn write: compute again
    return document if document.get("key") == key else None


def _store(folder: Path, task: Task, key: str, document: Document) -> Document:
    document["key"] = key
    folder.mkdir(parents=True, exist_ok=True)
    write_atomically(folder / f"{file_stem(task.task_id)}.json", json.dumps(document) + "\n")
    return document


def _cached(folder: Path, task: Task, key: str, compute: Callable[[], Document]) -> Document:
    """The cached document for ``task`` when its key matches, else a fresh one (then stored)."""
    found = _read_cached(folder, task, key)
    return found if found is not None else _store(folder, task, key, _timed(compute))


def requirement(kind: str, task: Task, truth: GroundTruth | None, tests: Sequence[int],
                folder: Path, executor: Executor | None = None,
                codes: Sequence[str] = ()) -> Document:
    """``task``'s requirement of ``kind``: read from ``folder/KIND/`` when its key is
    current, else computed (:func:`~evalplus_ng.reduce.requirements.compute_requirement`)
    and stored; a kind that is not cached is computed each time."""
    if not KINDS[kind].cached:
        return compute_requirement(kind, task, truth, tests, codes, executor)
    return _cached(folder / kind, task, requirement_key(kind, task, tests, codes),
                   lambda: compute_requirement(kind, task, truth, tests, codes, executor))


def _order(task: Task, tests: Sequence[int]) -> tuple[int, ...]:
    """Tests preferred first: smaller inputs (cheaper to run and read), then suite order."""
    everything = (*task.base_inputs, *task.plus_inputs)
    return tuple(sorted(tests, key=lambda t: (len(dumps(encode(list(everything[t])))), t)))


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


def _warm_one(item: tuple[Task, list[int], Path, tuple[str, ...]]) -> str:
    task, tests, folder, kinds = item
    for kind in kinds:
        requirement(kind, task, None, tests, folder)
    return task.task_id


def warm(tasks: Sequence[Task], truths: Mapping[TaskId, GroundTruth], folder: Path,
         workers: int, kinds: Set[str]) -> None:
    """Fill the caches of the requirements computed in-process (trusted code, pure
    functions of the inputs: branch coverage, executed lines, intermediate values) with
    ``workers`` processes; the sandboxed kinds run in the sandbox's own workers."""
    local = tuple(kind for kind in documents_for(kinds, samples=False)
                  if KINDS[kind].cached and not KINDS[kind].sandboxed)
    if workers < 2 or not local or len(tasks) < 2:
        return
    items = [(task, suite_tests(task, truths[task.task_id]), folder, local) for task in tasks]
    for _done in unordered(min(workers, len(items)), _warm_one, items):
        pass


RequirementUnit = tuple[Task, GroundTruth, list[int], list[str], list[str], tuple[str, ...]]


def _requirement_unit(item: RequirementUnit) -> tuple[TaskId, dict[str, Document]]:
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
    wanted = [kind for kind in documents_for(kinds, samples=sample_table is not None)
              if KINDS[kind].cached]
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
    have no goals) and seconds spent per kind."""
    reqs: dict[TaskId, TaskRequirements] = {}
    seconds = dict.fromkeys(KINDS, 0.0)
    wanted = documents_for(kinds, samples=sample_table is not None)
    of_samples = any(KINDS[kind].of_samples for kind in wanted)
    for done, task in enumerate(tasks, start=1):
        truth = truths[task.task_id]
        tests = suite_tests(task, truth)
        found = (sample_table or {}).get(task.task_id, ()) if of_samples else ()
        codes = tuple(c.code for c in found)
        documents = {kind: requirement(kind, task, truth, tests, folder, executor, codes)
                     for kind in wanted}
        for kind, document in documents.items():
            seconds[kind] += document.get("seconds", 0.0)
        n_base = len(task.base_inputs)
        reqs[task.task_id] = TaskRequirements(
            task=task,
            truth=truth,
            order=_order(task, tests),
            found=read_documents(documents, frozenset(t for t in tests if t < n_base)),
            authors=tuple(c.models for c in found),
            codes=codes,
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


def profile_rows(profiles: Sequence[Profile], reqs: Mapping[TaskId, TaskRequirements],
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
