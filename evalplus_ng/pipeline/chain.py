"""``augment`` end to end, as one Python call: the suite, then its audit, its calibration
and its MINIs (:func:`run_augment_chain`). The CLI only parses flags, calls this and
prints each stage's summary as the stage ends."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path

from evalplus_ng.oracle.timelimits import DEFAULT_FACTOR, DEFAULT_FLOOR_SECONDS
from evalplus_ng.pipeline.audit import AuditSummary, run_audit
from evalplus_ng.pipeline.augment import AugmentConfig, AugmentSummary, run_augment
from evalplus_ng.pipeline.calibrate import CalibrateSummary, run_calibrate
from evalplus_ng.pipeline.context import Progress, Suites, Workspace
from evalplus_ng.pipeline.minimize import ReduceSummary, run_reduce
from evalplus_ng.records import Task
from evalplus_ng.serialize import canonical
from evalplus_ng.tasks.samples import Families

#: A stage's progress bar by its label ("augmenting", "auditing", ...), as a context.
Bars = Callable[[str], AbstractContextManager[Progress]]
#: The stages of :func:`run_augment_chain`, in order.
STAGES = ("augment", "audit", "calibrate", "stale", "reduce", "reduce-stress")


@dataclass(frozen=True)
class ChainOptions:
    """What ``augment`` does after the suite (each stage on by default) and with what."""

    #: LLM samples for the jury (audit) and the sample-kill requirement (MINI).
    samples_dir: Path | None = None
    #: The user's families of samples files (``--family``): each other file is its own.
    families: Families = ()
    audit: bool = True
    calibrate: bool = True
    reduce: bool = True


@dataclass(frozen=True)
class ChainSummary:
    """Each stage's summary (None: the stage was off)."""

    augment: AugmentSummary
    audit: AuditSummary | None = None
    calibrate: CalibrateSummary | None = None
    #: MINIs removed as reduced from another suite (with ``reduce`` off).
    removed: tuple[Path, ...] = ()
    minis: tuple[ReduceSummary, ...] = ()


@contextlib.contextmanager
def no_bar(_label: str) -> Iterator[Progress]:
    """A stage's progress shown nowhere (a caller of the Python API that shows none)."""
    yield lambda _done, _total: None


def run_augment_chain(tasks: Sequence[Task], config: AugmentConfig, space: Workspace,
                      options: ChainOptions = ChainOptions(),
                      bars: Bars = no_bar,
                      on_stage: Callable[[str, object], None] | None = None,
                      status: Callable[[str], None] | None = None) -> ChainSummary:
    """Augment ``tasks`` of ``space``'s dataset into its folder (:func:`run_augment`; on its
    backend: the local pool or a Ray cluster; the audit runs locally), then audit the
    suite just written (its oracle answered each input: the audit does not run it again,
    and the jury's leads are held out of plus), calibrate it (before reducing: each MINI
    inherits its tests' calibration) and reduce the plus and stress tiers to their MINIs.
    ``on_stage(stage, summary)`` is called as each stage of :data:`STAGES` ends (``stale``
    once per MINI removed, with its path); ``status`` hears the reduction's notes. Each
    stage hands the suites it wrote to the next in memory (:class:`Suites`): none reads
    back a file the stage before it wrote."""
    report = on_stage or (lambda _stage, _summary: None)
    suites = Suites(space)
    with bars("augmenting") as progress:
        augmented = run_augment(tasks, config, space, progress,
                                keep_calibration=options.calibrate, suites=suites)
    report("augment", augmented)
    audited = calibrated = None
    if options.audit:
        with bars("auditing") as progress:
            audited = run_audit(space, options.samples_dir, progress,
                                task_ids=[task.task_id for task in tasks],
                                answered_lines=config.max_lines, families=options.families,
                                hold=True, suites=suites)
        report("audit", audited)
    if options.calibrate:
        kinds = (("stress", "edge") if options.reduce
                 else ("mini", "stress", "stress-mini", "edge"))
        with bars("calibrating") as progress:
            calibrated = run_calibrate(space, DEFAULT_FLOOR_SECONDS, DEFAULT_FACTOR,
                                       progress, kinds, bool(augmented.kept), suites)
        report("calibrate", calibrated)
    removed: list[Path] = []
    minis: list[ReduceSummary] = []
    if not options.reduce:
        for path in stale_minis(space, suites):
            suites.remove(path)
            removed.append(path)
            report("stale", path)
    else:
        profile = "full" if options.samples_dir else "offline"
        for stage, suite, chosen, samples in (
                ("reduce", "plus", profile, options.samples_dir),
                ("reduce-stress", "stress", "stress", None)):
            with bars("reducing" if suite == "plus" else f"reducing {suite}") as progress:
                mini = run_reduce(space, chosen, samples, progress, status=status,
                                  suite=suite, suites=suites)
            minis.append(mini)
            report(stage, mini)
    return ChainSummary(augmented, audited, calibrated, tuple(removed), tuple(minis))


def stale_minis(space: Workspace, suites: Suites | None = None) -> list[Path]:
    """The MINIs in ``space`` that were not reduced from the suite beside them now (a
    task more or fewer, or an input the suite no longer has): left by an earlier run."""
    suites = suites or Suites(space)
    stale = []
    for mini_kind, kind in (("mini", "plus"), ("stress-mini", "stress")):
        mini, parent = space.suite_file(mini_kind), space.suite_file(kind)
        if not mini.is_file():
            continue
        if not parent.is_file():
            stale.append(mini)
            continue
        held = {t.task_id: {canonical(list(a)) for a in t.plus_inputs}
                for t in suites.load(parent)}
        reduced = suites.load(mini)
        if ({t.task_id for t in reduced} != set(held)
                or any(canonical(list(a)) not in held[t.task_id]
                       for t in reduced for a in t.plus_inputs)):
            stale.append(mini)
    return stale
