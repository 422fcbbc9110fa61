"""The MINI of program tasks (stdin/stdout): ``augment``'s plus and stress tiers each reduced
to the few tests that keep their power, in ``ProgramsMini.jsonl.gz``.

Orchestration only (it opens files and starts the sandbox); the requirements are
:mod:`evalplus_ng.reduce.programs.cover` (the reference's lines and branch arcs per test,
in a process of its own), :mod:`evalplus_ng.reduce.programs.kills` (a seeded sample of the
reference's slips, killed in the sandbox) and the cover :mod:`evalplus_ng.reduce.programs.mini`.

For each task of ``ProgramsPlus.jsonl.gz``: the reference is timed on the public, plus
and stress tests in the sandbox (a test it does not pass is no candidate); it runs each
new test under coverage; its slips are screened on the public tests and up to
``mutants`` of those passing them are run on both tiers. These measurements are each
task's checkpoint (``OUT/checkpoints/programs-mini/``, made again only when the task, the
settings or the code measuring them change); then, on every run, each tier is
set-covered. ``ProgramsMini.jsonl.gz`` is the tasks file again (same schema, same fields)
with every public and dataset test kept and, of the new tests, only those chosen;
``mini-stats.json`` has each task's chosen tests and the goals they keep, and no timings:
the same seed gives the same files, byte for byte (only a mutant whose run on a test ends
near its generous time limit could differ).
"""

from __future__ import annotations

import contextlib
import json
import statistics
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from evalplus_ng.backend.executors import LOCAL, Backend
from evalplus_ng.errors import InputError
from evalplus_ng.files import write_atomically, write_json
from evalplus_ng.pipeline.augment import digest
from evalplus_ng.pipeline.checkpoints import resume_tasks
from evalplus_ng.pipeline.context import Progress
from evalplus_ng.pipeline.programs.augment import ARTIFACT
from evalplus_ng.protocols import Executor
from evalplus_ng.records import PLUS_ORIGIN, STRESS_ORIGIN, ProgramTask
from evalplus_ng.reduce import slips
from evalplus_ng.reduce.found import rows_from_wire, rows_to_wire
from evalplus_ng.reduce.kills import KillRow
from evalplus_ng.reduce.programs import cover as program_cover
from evalplus_ng.reduce.programs import kills as program_kills
from evalplus_ng.reduce.programs import mini as program_mini
from evalplus_ng.reduce.programs.cover import CoverGoal, program_coverage
from evalplus_ng.reduce.programs.kills import (
    MUTANTS,
    SCREENED,
    kill_rows,
    reference_seconds,
    screen,
    slip_order,
)
from evalplus_ng.reduce.programs.mini import reduce_tier, requirements
from evalplus_ng.sandbox import Limits
from evalplus_ng.tasks.programfile import load_program_records, write_program_file
from evalplus_ng.tasks.spec import file_stem

#: The MINI tasks file, and its stats.
MINI_ARTIFACT = "ProgramsMini.jsonl.gz"
MINI_STATS = "mini-stats.json"
#: Part of every checkpoint's fingerprint: bumped whenever what a task keeps changes.
FORMAT_VERSION = 1
#: The tiers reduced, each on its own (each is judged on its own).
TIERS = (PLUS_ORIGIN, STRESS_ORIGIN)


@dataclass(frozen=True)
class ProgramMiniConfig:
    """Everything that decides a task's MINI (and so its checkpoint)."""

    seed: int = 0
    #: Slips of the reference kept per task (those passing the public tests).
    mutants: int = MUTANTS
    #: Slips screened on the public tests at most, to find them.
    screened: int = SCREENED

    def __post_init__(self) -> None:
        if self.mutants < 0 or self.screened < self.mutants:
            raise ValueError("mutants must be at least 0 and screened at least mutants")


@dataclass(frozen=True)
class Measured:
    """What one task's requirements are made of, as measured (the costly part, which its
    checkpoint keeps; the cover is made again from it on every run): the public tests and
    each tier's tests (places in the task's ``tests``), those the reference passes, the
    lines and arcs each of them runs, and one kill row per sampled slip."""

    task_id: str
    public: tuple[int, ...] = ()
    tiers: dict[str, tuple[int, ...]] = field(default_factory=dict)
    candidates: dict[str, tuple[int, ...]] = field(default_factory=dict)
    coverage: dict[int, frozenset[CoverGoal]] = field(default_factory=dict)
    rows: tuple[KillRow, ...] = ()
    #: The reference's slips: every one, those screened on the public tests, and the
    #: sampled ones' places in the task's seeded order
    #: (:func:`~evalplus_ng.reduce.programs.kills.slip_order`).
    slips: int = 0
    screened: int = 0
    sample: tuple[int, ...] = ()
    #: Tests (public, plus or stress) the reference did not pass when timed.
    reference_failed: int = 0
    #: Measured seconds: the only field that differs between runs (not in the stats).
    seconds: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class TierReport:
    """One tier of one task: its tests, those the reference passes (the candidates), the
    chosen ones (places in the task's ``tests``) and the goals they keep, by kind."""

    tests: int
    candidates: int
    chosen: tuple[int, ...]
    goals: dict[str, int]


@dataclass(frozen=True)
class MiniTaskReport:
    """One task's MINI: per tier (:data:`TIERS`) its report; the slips of the reference
    (every one, those screened on the public tests, those sampled: passing them, and their
    places in its seeded order) and per tier how many of the sampled ones it kills (and
    both tiers together)."""

    task_id: str
    tiers: dict[str, TierReport] = field(default_factory=dict)
    slips: int = 0
    screened: int = 0
    sampled: int = 0
    sample: tuple[int, ...] = ()
    killed: dict[str, int] = field(default_factory=dict)
    reference_failed: int = 0
    seconds: dict[str, float] = field(default_factory=dict)

    @property
    def kept(self) -> set[int]:
        """The places of the new tests kept."""
        return {test for tier in self.tiers.values() for test in tier.chosen}


@dataclass(frozen=True)
class ProgramMiniSummary:
    """The files written and every task's report, in file order."""

    artifact: Path
    stats: Path
    reports: tuple[MiniTaskReport, ...]
    resumed: int = 0
    wall_seconds: float = 0.0
    #: With the Ray backend: the sandbox jobs run per node (by Ray node id).
    nodes: Mapping[str, int] = field(default_factory=dict)


def code_digest() -> str:
    """The source of the modules that decide what is measured, so that a change there
    measures again (the cover's own code is not in it: the cover is made on every run)."""
    modules = (program_cover, program_kills, slips)
    return digest(*(Path(str(module.__file__)).read_text(encoding="utf-8")
                    for module in modules))


def fingerprint(config: ProgramMiniConfig, task: ProgramTask, code: str) -> str:
    """Changes whenever anything that decides what is measured of this task changes."""
    return digest(json.dumps(asdict(config), sort_keys=True), str(FORMAT_VERSION), code,
                  task.task_id, task.solution, task.equality, repr(task.atol),
                  json.dumps([asdict(test) for test in task.tests]))


def checkpoint_path(out: Path, task_id: str) -> Path:
    """Where a task's MINI checkpoint is kept."""
    return out / "checkpoints" / "programs-mini" / f"{file_stem(task_id)}.json"


def _to_wire(measured: Measured) -> dict[str, Any]:
    """A task's measurements as plain JSON (the goals once, in a table, each test's as
    places in it)."""
    table: dict[CoverGoal, int] = {}
    coverage = {}
    for test, goals in sorted(measured.coverage.items()):
        coverage[str(test)] = sorted(table.setdefault(goal, len(table))
                                     for goal in sorted(goals, key=repr))
    document = asdict(replace(measured, coverage={}, rows=()))
    return {**document, "goals": [list(goal) for goal in table], "coverage": coverage,
            "rows": rows_to_wire(measured.rows)}


def _from_wire(document: dict[str, Any]) -> Measured:
    goals = [tuple(goal) for goal in document["goals"]]
    return Measured(
        document["task_id"], tuple(document["public"]),
        {tier: tuple(tests) for tier, tests in document["tiers"].items()},
        {tier: tuple(tests) for tier, tests in document["candidates"].items()},
        {int(test): frozenset(goals[place] for place in places)
         for test, places in document["coverage"].items()},
        rows_from_wire(document["rows"]), document["slips"], document["screened"],
        tuple(document["sample"]), document["reference_failed"], dict(document["seconds"]))


def load_checkpoint(path: Path, key: str) -> Measured | None:
    """A task's checkpoint when it was made with ``key`` (None: absent, stale, unreadable)."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
        if document.get("fingerprint") != key:
            return None
        return _from_wire(document["measured"])
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None


def save_checkpoint(path: Path, key: str, measured: Measured) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, json.dumps({"fingerprint": key, "measured": _to_wire(measured)})
                     + "\n")


def measure_task(task: ProgramTask, config: ProgramMiniConfig,
                 executor: Executor) -> Measured:
    """What one task's requirements are made of (see the module's docstring)."""
    tiers = {tier: tuple(i for i, test in enumerate(task.tests) if test.origin == tier)
             for tier in TIERS}
    if not any(tiers.values()):
        return Measured(task.task_id, tiers=tiers, candidates={tier: () for tier in TIERS})
    clock = time.perf_counter()
    spent: dict[str, float] = {}

    def lap(name: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        spent[name] = round(now - clock, 3)
        clock = now

    public_all = [i for i, test in enumerate(task.tests) if test.public]
    seconds = reference_seconds(task, [*public_all, *tiers[PLUS_ORIGIN], *tiers[STRESS_ORIGIN]],
                                executor)
    public = tuple(i for i in public_all if i in seconds)
    candidates = {tier: tuple(i for i in tests if i in seconds) for tier, tests in tiers.items()}
    lap("reference")
    measured = [*candidates[PLUS_ORIGIN], *candidates[STRESS_ORIGIN]]
    coverage = dict(zip(measured, program_coverage(task.solution,
                                                   [task.tests[i].input for i in measured]),
                        strict=True))
    lap("coverage")
    order = slip_order(task.solution, task.task_id, config.seed)
    sampled, screened = screen(task, order[:config.screened], public, seconds, executor,
                               config.mutants)
    place = {slip.mutant.code: number for number, slip in enumerate(order)}
    rows = kill_rows(task, [slip.mutant.code for slip in sampled],
                     [candidates[tier] for tier in TIERS], seconds, executor)
    lap("mutants")
    failed = len(public_all) + sum(map(len, tiers.values())) - len(public) - len(measured)
    return Measured(task.task_id, public, tiers, candidates, coverage, tuple(rows), len(order),
                    screened, tuple(place[slip.mutant.code] for slip in sampled), failed,
                    spent)


def reduce_task(task: ProgramTask, measured: Measured) -> MiniTaskReport:
    """One task's MINI from its measurements: each tier set-covered on its own."""
    if not any(measured.tiers.values()):
        return MiniTaskReport(task.task_id)
    sizes = {i: len(task.tests[i].input) for tests in measured.candidates.values()
             for i in tests}
    reports: dict[str, TierReport] = {}
    killed: dict[str, int] = {}
    for tier in TIERS:
        tests = measured.candidates.get(tier, ())
        goals = requirements(tests, measured.coverage, measured.rows, sizes,
                             largest=tier == STRESS_ORIGIN)
        mini = reduce_tier(tests, goals, sizes)
        reports[tier] = TierReport(len(measured.tiers.get(tier, ())), len(tests), mini.chosen,
                                   dict(mini.goals))
        killed[tier] = sum(1 for row in measured.rows if row.killers & set(tests))
    killed["any"] = sum(1 for row in measured.rows if row.killed)
    return MiniTaskReport(task.task_id, reports, measured.slips, measured.screened,
                          len(measured.sample), measured.sample, killed,
                          measured.reference_failed, measured.seconds)


def mini_record(record: dict[str, Any], kept: set[int]) -> dict[str, Any]:
    """A task's line of the tasks file (as read) with only the new tests in ``kept``
    (places in its ``tests``): the public and dataset tests, every other field, as they
    were."""
    tests = [test for place, test in enumerate(record["tests"])
             if not test.get("origin") or place in kept]
    return {**record, "tests": tests}


def run_mini_programs(records: Sequence[tuple[ProgramTask, dict[str, Any]]],
                      config: ProgramMiniConfig, out: Path, backend: Backend = LOCAL,
                      progress: Progress | None = None,
                      executor: Executor | None = None) -> ProgramMiniSummary:
    """The MINI of each task of ``records`` (a task of ``ProgramsPlus.jsonl.gz`` and its
    line as read, file order), resuming from checkpoints in ``out``; write
    ``out/ProgramsMini.jsonl.gz`` and ``out/mini-stats.json``. Mutants run on ``executor``
    where given, else on ``backend``'s sandbox."""
    began = time.perf_counter()
    code = code_digest()
    keys = {task.task_id: fingerprint(config, task, code) for task, _record in records}
    done, todo = resume_tasks(
        records, lambda task: load_checkpoint(checkpoint_path(out, task.task_id),
                                              keys[task.task_id]), progress)
    resumed = len(done)
    nodes: dict[str, int] = {}
    if todo:
        context: contextlib.AbstractContextManager[Executor] = (
            contextlib.nullcontext(executor) if executor is not None
            else backend.executor(Limits(), []))
        with context as sandbox:
            for task in todo:
                path = checkpoint_path(out, task.task_id)
                save_checkpoint(path, keys[task.task_id], measure_task(task, config, sandbox))
                # Read back, so that a run and its resumption build the file from the same data.
                loaded = load_checkpoint(path, keys[task.task_id])
                assert loaded is not None, f"{task.task_id}: checkpoint unreadable"
                done[task.task_id] = loaded
                if progress is not None:
                    progress(len(done), len(records))
            nodes = dict(getattr(sandbox, "nodes", {}))
    out.mkdir(parents=True, exist_ok=True)
    reports = tuple(reduce_task(task, done[task.task_id]) for task, _record in records)
    artifact = out / MINI_ARTIFACT
    write_program_file([mini_record(record, report.kept)
                        for (_task, record), report in zip(records, reports, strict=True)],
                       artifact)
    stats = out / MINI_STATS
    write_json(stats, {**stats_document(reports, config),
                       "suite": suite_digest([record for _task, record in records])})
    return ProgramMiniSummary(artifact, stats, reports, resumed, time.perf_counter() - began,
                              nodes)


def suite_digest(records: Sequence[dict[str, Any]]) -> str:
    """What the MINI was reduced from: a digest of the plus file's lines."""
    return digest(*(json.dumps(record, sort_keys=True) for record in records))


def remove_stale(out: Path) -> list[Path]:
    """Remove the MINI (and its stats) in ``out`` when it was not reduced from the plus file
    beside it (``augment --no-reduce`` after the suite changed); the paths removed."""
    artifact, stats = out / MINI_ARTIFACT, out / MINI_STATS
    if not artifact.exists() and not stats.exists():
        return []
    try:
        made_from = json.loads(stats.read_text(encoding="utf-8")).get("suite")
        current = suite_digest([record for _task, record in
                                load_program_records(out / ARTIFACT)])
    except (OSError, ValueError, AttributeError, InputError):
        made_from, current = None, ""
    if made_from == current:
        return []
    removed = [path for path in (artifact, stats) if path.exists()]
    for path in removed:
        path.unlink()
    return removed


def _spread(counts: Sequence[int]) -> dict[str, float]:
    if not counts:
        return {"tasks": 0}
    return {"tasks": len(counts), "total": sum(counts), "median": statistics.median(counts),
            "min": min(counts), "max": max(counts)}


def totals(reports: Sequence[MiniTaskReport]) -> dict[str, Any]:
    """Over every task with new tests: per tier, tests in the whole tier and in the MINI
    (per task) and the goals kept; the slips sampled and killed."""
    reduced = [report for report in reports if report.tiers]
    document: dict[str, Any] = {"tasks": len(reports), "reduced": len(reduced)}
    for tier in TIERS:
        rows = [report.tiers[tier] for report in reduced if report.tiers[tier].tests]
        document[tier] = {
            "whole": _spread([row.tests for row in rows]),
            "mini": _spread([len(row.chosen) for row in rows]),
            "goals": {kind: sum(row.goals.get(kind, 0) for row in rows)
                      for kind in program_mini.GOAL_KINDS},
        }
    document["mini_tests_per_task"] = _spread([len(report.kept) for report in reduced])
    document["slips"] = {
        "sampled": sum(report.sampled for report in reduced),
        "killed": {name: sum(report.killed.get(name, 0) for report in reduced)
                   for name in (*TIERS, "any")},
    }
    return document


def stats_document(reports: Sequence[MiniTaskReport],
                   config: ProgramMiniConfig) -> dict[str, Any]:
    """mini-stats.json: the configuration, the totals and every task's report (no timings:
    the same run gives the same bytes)."""
    tasks = []
    for report in reports:
        entry = asdict(report)
        entry.pop("seconds")
        tasks.append(entry)
    return {"kind": "programs-mini", "config": asdict(config), "totals": totals(reports),
            "tasks": tasks}


def summary_lines(summary: ProgramMiniSummary) -> list[str]:
    """What the MINI kept, on a few lines."""
    sums = totals(summary.reports)
    lines = [f"MINI of {sums['reduced']} task(s) with new tests ({summary.resumed} from "
             "checkpoints)"]
    for tier in TIERS:
        whole, mini = sums[tier]["whole"], sums[tier]["mini"]
        if not whole["tasks"]:
            continue
        goals = ", ".join(f"{n} {kind}" for kind, n in sums[tier]["goals"].items() if n)
        lines.append(f"{tier}: {whole['total']} tests -> {mini['total']} (median per task "
                     f"{whole['median']:g} -> {mini['median']:g}), keeping "
                     f"{goals or 'no goal beyond the public tests'}")
    slips_ = sums["slips"]
    lines.append(f"slips of the references: {slips_['sampled']} sampled (passing the public "
                 f"tests), killed by plus {slips_['killed'][PLUS_ORIGIN]}, by stress "
                 f"{slips_['killed'][STRESS_ORIGIN]}, by either {slips_['killed']['any']} "
                 "(the MINI keeps every kill)")
    spent: dict[str, float] = {}
    for report in summary.reports:
        for name, value in report.seconds.items():
            spent[name] = spent.get(name, 0.0) + value
    lines.append("seconds: " + ", ".join(f"{name} {value:.1f}" for name, value in spent.items())
                 + f", wall {summary.wall_seconds:.1f}")
    lines.append(f"wrote {summary.artifact} and {summary.stats}")
    return lines
