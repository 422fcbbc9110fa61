"""``augment`` of program tasks end to end, as one Python call: the new tests and their
time limits, then the jury's audit and the MINI (:func:`run_program_chain`). The CLI only
parses flags, calls this and prints each stage's summary as the stage ends, as it does for
function tasks (:mod:`evalplus_ng.pipeline.chain`)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from evalplus_ng.errors import InputError
from evalplus_ng.evaluation.program_verdicts import DEFAULT_TIME_LIMIT as JUDGE_TIME_LIMIT
from evalplus_ng.evaluation.program_verdicts import FULL, PROGRAM_SUITES, ProgramConfig
from evalplus_ng.generate.llmseed import OpenAIEndpoint, RetryPolicy
from evalplus_ng.generate.programs.llmseed import (
    SUBFOLDER,
    ProgramSeedConfig,
    ProgramSeedSummary,
    read_pairs,
    run_program_seed,
)
from evalplus_ng.oracle.programs.timelimits import DEFAULT_RULE
from evalplus_ng.pipeline.augment import select_tasks
from evalplus_ng.pipeline.chain import Bars, no_bar
from evalplus_ng.pipeline.context import Progress, Workspace
from evalplus_ng.pipeline.programs import DEFAULT_COUNT, DEFAULT_TIME_LIMIT
from evalplus_ng.pipeline.programs.audit import (
    AUDIT_REVIEW,
    ProgramAuditSummary,
    run_program_audit,
)
from evalplus_ng.pipeline.programs.augment import (
    ARTIFACT,
    ProgramAugmentConfig,
    ProgramAugmentSummary,
    run_augment_programs,
    warning_lines,
)
from evalplus_ng.pipeline.programs.augment import summary_lines as augment_lines
from evalplus_ng.pipeline.programs.evaluate import ProgramRequest, run_evaluate_programs
from evalplus_ng.pipeline.programs.minimize import (
    ProgramMiniConfig,
    ProgramMiniSummary,
    remove_stale,
    run_mini_programs,
)
from evalplus_ng.pipeline.programs.minimize import summary_lines as mini_lines
from evalplus_ng.pipeline.programs.timings import read_timings
from evalplus_ng.tasks.programfile import load_program_records, load_program_tasks
from evalplus_ng.tasks.samples import Families

#: What the command line calls of program tasks: the augment chain and what prints its
#: stages, the audit, the seed and the evaluate (:mod:`~.pipeline.programs.evaluate`).
__all__ = [
    "DEFAULT_COUNT",
    "DEFAULT_TIME_LIMIT",
    "FULL",
    "JUDGE_TIME_LIMIT",
    "PROGRAM_SUITES",
    "STAGES",
    "SUBFOLDER",
    "PairsFound",
    "ProgramAuditSummary",
    "ProgramAugmentConfig",
    "ProgramChainOptions",
    "ProgramChainSummary",
    "ProgramConfig",
    "ProgramRequest",
    "audit_programs",
    "augment_lines",
    "mini_lines",
    "one_at_a_time",
    "run_evaluate_programs",
    "run_program_chain",
    "seed_programs",
    "warning_lines",
]

#: The stages of :func:`run_program_chain`, in order: ``pairs`` (how many tasks have an LLM
#: generator and validator; reported only where some do), ``augment``, ``audit`` (with
#: samples), ``stale`` (once per MINI removed, without ``reduce``) and ``reduce``.
STAGES = ("pairs", "augment", "audit", "stale", "reduce")


@dataclass(frozen=True)
class ProgramChainOptions:
    """What ``augment`` of program tasks does after the new tests, and with what."""

    #: Only these tasks (``--tasks``: ids, numbers or ranges); None: all.
    tasks: str | None = None
    #: LLM samples for the jury, which holds disputed tests out of the suite; None: no jury.
    samples_dir: Path | None = None
    #: The user's families of samples files (``--family``): each other file is its own.
    families: Families = ()
    #: Read the generators and validators ``seed`` cached in the data folder's seeds.
    llm_pairs: bool = True
    #: Replay what the reference's time decided in an earlier run (its timings file).
    timings: Path | None = None
    #: Time limits on the new tests (the reference runs them again).
    calibrate: bool = True
    #: Reduce each task's plus and stress tiers to a MINI (else a stale MINI is removed).
    reduce: bool = False


@dataclass(frozen=True)
class PairsFound:
    """The tasks that have an LLM generator and validator, of those chosen, and where."""

    found: int
    chosen: int
    folder: Path


@dataclass(frozen=True)
class ProgramChainSummary:
    """Each stage's summary (None: the stage was off)."""

    augment: ProgramAugmentSummary
    audit: ProgramAuditSummary | None = None
    #: The MINI files removed as reduced from another suite (without ``reduce``).
    removed: tuple[Path, ...] = ()
    mini: ProgramMiniSummary | None = None


@contextlib.contextmanager
def one_at_a_time(bars: Bars) -> Iterator[Callable[[str], Progress]]:
    """Progress of stages that follow one another, one bar at a time: a stage's first
    update ends the bar of the one before."""
    with contextlib.ExitStack() as stack:
        shown: list[tuple[str, Progress]] = []

        def progress(label: str) -> Progress:
            def update(done: int, total: int) -> None:
                if not shown or shown[-1][0] != label:
                    stack.close()
                    shown.append((label, stack.enter_context(bars(label))))
                shown[-1][1](done, total)
            return update

        yield progress


def _tasks_file(space: Workspace) -> Path:
    """The tasks file of programs ``space`` works on."""
    if space.dataset.source is None:
        raise InputError(space.dataset.name, None, "program tasks are read from a tasks file")
    return space.dataset.source


def run_program_chain(config: ProgramAugmentConfig, space: Workspace,
                      options: ProgramChainOptions = ProgramChainOptions(),
                      bars: Bars = no_bar,
                      on_stage: Callable[[str, object], None] | None = None,
                      ) -> ProgramChainSummary:
    """Augment the program tasks of ``space``'s tasks file into its folder
    (:func:`~evalplus_ng.pipeline.programs.augment.run_augment_programs`, on its backend),
    with the generators and validators ``seed`` cached in its data folder, replaying a
    timings file where given; then (with samples) the audit's jury, which holds disputed
    tests out of the suite; then (with ``reduce``) its MINI. ``on_stage(stage, summary)``
    is called as each stage of :data:`STAGES` ends."""
    report = on_stage or (lambda _stage, _summary: None)
    path, out, backend = _tasks_file(space), space.out, space.backend
    records = load_program_records(path)
    chosen = {task.task_id for task in select_tasks(
        [task for task, _record in records], options.tasks, numbers=range(len(records)))}
    replay = read_timings(options.timings) if options.timings is not None else None
    if replay is not None and replay.time_limit != config.time_limit:
        raise InputError(f"--timings {options.timings}", None,
                         f"made with --time-limit {replay.time_limit:g}, which decided its "
                         f"drops; give the same (not {config.time_limit:g})")
    seeds = space.dataset.user_folder.seeds if options.llm_pairs else None
    pairs = read_pairs(seeds, sorted(chosen)) if seeds is not None else {}
    if pairs and seeds is not None:
        report("pairs", PairsFound(len(pairs), len(chosen), seeds / SUBFOLDER))
    with one_at_a_time(bars) as stages:
        summary = run_augment_programs([item for item in records if item[0].task_id in chosen],
                                       config, out, backend, stages("augmenting"),
                                       rule=DEFAULT_RULE if options.calibrate else None,
                                       timing=stages("timing limits"), llm_pairs=pairs,
                                       timings=replay.tasks if replay is not None else None)
    report("augment", summary)
    audited = None
    if options.samples_dir is not None:
        with bars("auditing") as progress:
            audited = run_program_audit(
                summary.artifact, options.samples_dir, out, backend, options.families,
                task_ids=chosen, review_file=space.dataset.user_folder.definition / AUDIT_REVIEW,
                hold=True, progress=progress, hidden=[path])
        report("audit", audited)
    if not options.reduce:
        removed = remove_stale(out)
        for stale in removed:
            report("stale", stale)
        return ProgramChainSummary(summary, audited, tuple(removed))
    with bars("reducing to MINI") as progress:
        mini = run_mini_programs(load_program_records(summary.artifact),
                                 ProgramMiniConfig(seed=config.seed), out, backend, progress)
    report("reduce", mini)
    return ProgramChainSummary(summary, audited, mini=mini)


def seed_programs(tasks_file: Path, folder: Path, endpoint: OpenAIEndpoint, model: str, date: str,
                  force: bool, tasks: str | None, policy: RetryPolicy, workers: int,
                  progress: Progress | None = None) -> ProgramSeedSummary:
    """``seed`` on a tasks file of programs: each chosen task's (``tasks``: ids, numbers or
    ranges; None: all) generator and validator, asked of ``endpoint`` and cached in the
    seeds folder ``folder`` (its :data:`SUBFOLDER`)."""
    records = load_program_records(tasks_file)
    chosen = select_tasks([task for task, _record in records], tasks,
                          numbers=range(len(records)))
    config = ProgramSeedConfig(model=model, date=date, endpoint=endpoint.url, force=force)
    return run_program_seed(chosen, folder, endpoint, config, policy, workers, progress)


def audit_programs(space: Workspace, suite: Path | None, samples: Path | None,
                   families: Families = (), tasks: str | None = None,
                   progress: Progress | None = None) -> ProgramAuditSummary:
    """``audit`` of program tasks: the jury of ``samples`` on the new tests of ``suite``
    (None: ``augment``'s artifact in ``space``'s folder, else the tasks file itself), of
    the tasks file's tasks (``tasks``: ids, numbers or ranges; None: all), and augment's
    refuted plans; the review file in ``space``'s data folder settles leads."""
    tasks_file = _tasks_file(space)
    if suite is None:
        made = space.out / ARTIFACT
        suite = made if made.is_file() else tasks_file
    listed = load_program_tasks(tasks_file)
    chosen = [task.task_id for task in select_tasks(listed, tasks, numbers=range(len(listed)))]
    return run_program_audit(suite, samples, space.out, space.backend, families,
                             task_ids=chosen,
                             review_file=space.dataset.user_folder.definition / AUDIT_REVIEW,
                             progress=progress, hidden=[tasks_file])
