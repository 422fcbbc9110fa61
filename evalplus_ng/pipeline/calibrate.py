"""``calibrate``: time the ground truth on every test of the suites in the artifacts
folder and write each test's time limit into them."""

from __future__ import annotations

import contextlib
import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from evalplus_ng.backend.executors import Backend
from evalplus_ng.errors import InputError
from evalplus_ng.oracle.timelimits import CHUNK as CALIBRATION_CHUNK
from evalplus_ng.oracle.timelimits import (
    DEFAULT_FACTOR,
    DEFAULT_FLOOR_SECONDS,
    calibrate_tasks,
)
from evalplus_ng.pipeline.context import Progress, Suites, Workspace
from evalplus_ng.records import Task
from evalplus_ng.sandbox import Limits, Sandbox


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
    space: Workspace, floor: float = DEFAULT_FLOOR_SECONDS, factor: float = DEFAULT_FACTOR,
    progress: Progress | None = None,
    kinds: Sequence[str] = ("mini", "stress", "stress-mini", "edge"), missing_only: bool = False,
    suites: Suites | None = None,
) -> CalibrateSummary:
    """Calibrate the plus suite in ``space`` (and the suites of ``kinds`` present: by
    default the mini, stress, stress-mini and edge suites), in place.

    Each file is rewritten atomically with the same tasks and inputs and a fresh
    calibration per task; only the calibration differs between runs. A MINI written
    from a calibrated suite inherits its tests' units (``augment`` calibrates the plus
    and stress suites before it reduces them: the MINIs' inputs are timed once).
    ``missing_only`` times only the tasks without a calibration (``augment --tasks``
    adding to a calibrated suite); the summary counts the tasks and tests timed.
    On a Ray backend a chunk of tasks is a unit, each unit measuring its node's
    reference workload itself. ``suites``: the suites a chain has in hand (read, written).
    """
    suites = suites or Suites(space)
    dataset, backend = space.dataset, space.backend
    plus = space.suite_file("plus")
    if not plus.is_file():
        raise InputError(str(plus), None,
                         f"no plus suite here: run `evalplus-ng augment --dataset {dataset.name} "
                         f"--out {space.out}` first")
    paths = [plus] + [p for p in map(space.suite_file, kinds) if p.is_file()]
    # (each with the dataset's equality where it records none: kept as they are judged)
    loaded = [suites.load(path) for path in paths]
    total = sum(sum(not missing_only or t.calibration is None for t in tasks)
                for tasks in loaded)
    finished = 0

    def step(done: int, _count: int) -> None:
        if progress is not None:
            progress(finished + done, total)

    tests = 0
    references: list[float] = []
    nodes: Counter[str] = Counter()
    with contextlib.ExitStack() as stack:
        sandbox = None if backend.ray else stack.enter_context(Sandbox(backend.workers))
        for path, tasks in zip(paths, loaded, strict=True):
            todo = [t for t in tasks if not missing_only or t.calibration is None]
            if sandbox is not None:
                timed = calibrate_tasks(todo, sandbox, floor, factor, on_done=step)
            else:
                timed = _calibrate_on_cluster(backend, todo, floor, factor, step, nodes)
            fresh = {t.task_id: t for t in timed}
            calibrated = [fresh.get(t.task_id, t) for t in tasks]
            suites.write(calibrated, path)
            finished += len(todo)
            tests += sum(len(t.base_inputs) + len(t.plus_inputs) for t in todo)
            references += [t.calibration.reference_seconds or 0.0
                           for t in fresh.values() if t.calibration is not None]
    return CalibrateSummary(tuple(paths), finished, tests,
                            statistics.median(references) if references else 0.0, dict(nodes))
