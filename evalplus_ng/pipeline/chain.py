"""``augment`` end to end, as one Python call: the suite, then its audit, its calibration
and its MINIs (:func:`run_augment_chain`). The CLI only parses flags, calls this and
prints each stage's summary as the stage ends."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path

from evalplus_ng.backend.executors import LOCAL, Backend
from evalplus_ng.oracle.calibrate import DEFAULT_FACTOR, DEFAULT_FLOOR_SECONDS
from evalplus_ng.pipeline.augment import AugmentConfig, AugmentSummary, run_augment
from evalplus_ng.pipeline.workflow import (
    AuditSummary,
    CalibrateSummary,
    run_audit,
    run_calibrate,
    stale_minis,
)
from evalplus_ng.records import Task
from evalplus_ng.reduce.mini import ReduceSummary, run_reduce
from evalplus_ng.tasks.samples import FAMILIES, Families
from evalplus_ng.tasks.spec import Dataset

#: ``(done, total)`` of a stage's work.
Progress = Callable[[int, int], None]
#: A stage's progress bar by its label ("augmenting", "auditing", ...), as a context.
Bars = Callable[[str], AbstractContextManager[Progress]]
#: The stages of :func:`run_augment_chain`, in order.
STAGES = ("augment", "audit", "calibrate", "stale", "reduce", "reduce-stress")


@dataclass(frozen=True)
class ChainOptions:
    """What ``augment`` does after the suite (each stage on by default) and with what."""

    #: Where the work runs: the local sandbox pool, or a Ray cluster (the audit runs
    #: locally, as wide as the backend's workers).
    backend: Backend = LOCAL
    #: LLM samples for the jury (audit) and the sample-kill requirement (MINI).
    samples_dir: Path | None = None
    families: Families = FAMILIES
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
def _no_bar(_label: str) -> Iterator[Progress]:
    yield lambda _done, _total: None


def run_augment_chain(tasks: Sequence[Task], config: AugmentConfig, out: Path,
                      dataset: Dataset, options: ChainOptions = ChainOptions(),
                      bars: Bars = _no_bar,
                      on_stage: Callable[[str, object], None] | None = None,
                      status: Callable[[str], None] | None = None) -> ChainSummary:
    """Augment ``tasks`` of ``dataset`` into ``out`` (:func:`run_augment`), then audit the
    suite just written (its oracle answered each input: the audit does not run it again,
    and the jury's leads are held out of plus), calibrate it (before reducing: each MINI
    inherits its tests' calibration) and reduce the plus and stress tiers to their MINIs.
    ``on_stage(stage, summary)`` is called as each stage of :data:`STAGES` ends (``stale``
    once per MINI removed, with its path); ``status`` hears the reduction's notes."""
    report = on_stage or (lambda _stage, _summary: None)
    with bars("augmenting") as progress:
        augmented = run_augment(tasks, config, out, options.backend, progress, dataset,
                                keep_calibration=options.calibrate)
    report("augment", augmented)
    audited = calibrated = None
    if options.audit:
        with bars("auditing") as progress:
            audited = run_audit(out, dataset, options.samples_dir, options.backend.workers,
                                progress,
                                task_ids=[task.task_id for task in tasks],
                                answered_lines=config.max_lines, families=options.families,
                                hold=True)
        report("audit", audited)
    if options.calibrate:
        kinds = (("stress", "edge") if options.reduce
                 else ("mini", "stress", "stress-mini", "edge"))
        with bars("calibrating") as progress:
            calibrated = run_calibrate(out, dataset, DEFAULT_FLOOR_SECONDS, DEFAULT_FACTOR,
                                       options.backend, progress, kinds, bool(augmented.kept))
        report("calibrate", calibrated)
    removed: list[Path] = []
    minis: list[ReduceSummary] = []
    if not options.reduce:
        for path in stale_minis(out, dataset):
            path.unlink()
            removed.append(path)
            report("stale", path)
    else:
        profile = "full" if options.samples_dir else "offline"
        for stage, suite, chosen, samples in (
                ("reduce", "plus", profile, options.samples_dir),
                ("reduce-stress", "stress", "stress", None)):
            with bars("reducing" if suite == "plus" else f"reducing {suite}") as progress:
                mini = run_reduce(out, dataset, chosen, samples, options.backend, progress,
                                  status=status, suite=suite)
            minis.append(mini)
            report(stage, mini)
    return ChainSummary(augmented, audited, calibrated, tuple(removed), tuple(minis))
