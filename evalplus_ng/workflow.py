"""Thin orchestration: the one layer (with the CLI) that opens files and starts sandboxes."""

from __future__ import annotations

import json
import os
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from evalplus_ng.artifact import write_plus_file
from evalplus_ng.calibrate import (
    DEFAULT_FACTOR,
    DEFAULT_FLOOR_SECONDS,
    calibrate_tasks,
    measure_reference,
)
from evalplus_ng.dataset import load_humaneval, load_plus_file
from evalplus_ng.errors import EvalplusError, InputError
from evalplus_ng.evaluate import (
    EvalConfig,
    SampleResult,
    evaluate_samples,
    pass_at_k,
    results_document,
    results_from_document,
)
from evalplus_ng.groundtruth import run_ground_truth
from evalplus_ng.records import Task, Verdict
from evalplus_ng.samples import read_samples
from evalplus_ng.sandbox import Limits, Sandbox

DATASETS: dict[str, Callable[[], list[Task]]] = {"humaneval": load_humaneval}
#: Where ``augment`` writes, and so where ``--suite plus|mini`` look by default.
DEFAULT_OUT = Path("evalplus-ng-out")
SUITE_FILES = {"plus": "HumanEvalPlus.jsonl.gz", "mini": "HumanEvalPlus-Mini.jsonl.gz"}
CHECKPOINT_SECONDS = 15.0

Progress = Callable[[int, int], None]


def load_dataset(name: str) -> list[Task]:
    """A built-in dataset by name."""
    loader = DATASETS.get(name)
    if loader is None:
        raise EvalplusError(f"unknown dataset {name!r}; known: {', '.join(sorted(DATASETS))}")
    return loader()


def load_suite(dataset: str, suite: str, artifacts: Path = DEFAULT_OUT) -> list[Task]:
    """Tasks of a suite: ``base`` (the dataset's own tests), ``plus``, ``mini`` or a file path."""
    if suite == "base":
        return [replace(task, plus_inputs=()) for task in load_dataset(dataset)]
    if suite in SUITE_FILES:
        path = artifacts / SUITE_FILES[suite]
        if not path.is_file():
            raise InputError(
                str(path), None,
                f"no {suite} suite here: run `evalplus-ng augment --out {artifacts}` "
                "or pass --suite PATH",
            )
        return load_plus_file(path)
    return load_plus_file(Path(suite))


def results_path(samples: Path) -> Path:
    """EvalPlus's convention: ``x.jsonl`` -> ``x_eval_results.json`` beside it."""
    name = samples.name
    stem = name[: -len(".jsonl")] if name.endswith(".jsonl") else samples.stem
    return samples.with_name(f"{stem}_eval_results.json")


def _write_json_atomically(path: Path, document: object) -> None:
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    os.replace(temporary, path)


@dataclass(frozen=True)
class EvaluateRequest:
    """Everything ``evaluate`` needs, gathered by the CLI."""

    samples: Path
    dataset: str = "humaneval"
    suite: str = "base"
    artifacts: Path = DEFAULT_OUT
    workers: int = 2
    resume: bool = False
    config: EvalConfig = field(default_factory=EvalConfig)
    limits: Limits = field(default_factory=Limits)


@dataclass(frozen=True)
class EvaluateSummary:
    """What ``evaluate`` did."""

    results_path: Path
    results: tuple[SampleResult, ...]
    pass_at_k: dict[str, dict[int, float]]
    reused: int

    def count(self, column: str, status: Verdict) -> int:
        """How many samples have ``status`` in ``column`` ("base" or "plus")."""
        if column == "base":
            return sum(r.base_status is status for r in self.results)
        return sum(r.plus_status is status for r in self.results)


def run_evaluate(
    request: EvaluateRequest, progress: Progress | None = None,
    status: Callable[[str], None] | None = None,
) -> EvaluateSummary:
    """Judge a samples file; writes results beside it, checkpointing as it goes."""
    say = status or (lambda _message: None)
    tasks = {task.task_id: task for task in load_suite(request.dataset, request.suite,
                                                       request.artifacts)}
    samples = read_samples(request.samples, tasks)
    out = results_path(request.samples)
    done: dict[int, SampleResult] = {}
    if request.resume and out.is_file():
        try:
            document = json.loads(out.read_text(encoding="utf-8"))
        except ValueError as exc:
            raise InputError(str(out), None, f"cannot resume, invalid JSON: {exc}") from None
        done = results_from_document(document, samples, tasks)
        say(f"resuming: {len(done)} of {len(samples)} samples already judged in {out}")
    needed = sorted({s.task_id for s in samples}, key=lambda t: tasks[t].number)
    with Sandbox(request.workers, request.limits) as sandbox:
        config = request.config
        if config.reference_seconds is None and any(tasks[t].calibration for t in needed):
            # Measured once per run, here, so that calibrated limits follow this machine.
            config = replace(config, reference_seconds=measure_reference(sandbox))
            say(f"calibrated suite: reference workload takes {config.reference_seconds:.4f} s "
                "here")
        say(f"running the ground truth of {len(needed)} task(s)")
        truths = run_ground_truth([tasks[t] for t in needed], sandbox)
        broken = [t for t in needed if any(truths[t].base.failures) or any(truths[t].plus.failures)]
        for task_id in broken:
            say(f"warning: {task_id}: the ground truth fails on some inputs; they are not used")
        results: dict[int, SampleResult] = {}
        last = time.monotonic()
        try:
            for position, result in evaluate_samples(
                tasks, truths, samples, sandbox, config, done
            ):
                results[position] = result
                if progress is not None:
                    progress(len(results), len(samples))
                if time.monotonic() - last > CHECKPOINT_SECONDS:
                    _write_json_atomically(out, results_document(_ordered(results)))
                    last = time.monotonic()
        finally:
            _write_json_atomically(out, results_document(_ordered(results)))
    ordered = _ordered(results)
    return EvaluateSummary(out, tuple(ordered), pass_at_k(ordered), len(done))


def _ordered(results: dict[int, SampleResult]) -> Sequence[SampleResult]:
    return [results[position] for position in sorted(results)]


@dataclass(frozen=True)
class CalibrateSummary:
    """What ``calibrate`` did: the suites rewritten and the reference time measured."""

    paths: tuple[Path, ...]
    tasks: int
    tests: int
    reference_seconds: float


def run_calibrate(
    out_dir: Path, floor: float = DEFAULT_FLOOR_SECONDS, factor: float = DEFAULT_FACTOR,
    workers: int = 2, progress: Progress | None = None,
) -> CalibrateSummary:
    """Calibrate the plus suite in ``out_dir`` (and the mini suite when present), in place.

    Each file is rewritten atomically with the same tasks and inputs and a fresh
    calibration per task; only the calibration differs between runs.
    """
    plus = out_dir / SUITE_FILES["plus"]
    if not plus.is_file():
        raise InputError(str(plus), None,
                         f"no plus suite here: run `evalplus-ng augment --out {out_dir}` first")
    paths = [plus] + [p for p in [out_dir / SUITE_FILES["mini"]] if p.is_file()]
    suites = [load_plus_file(path) for path in paths]
    total = sum(len(tasks) for tasks in suites)
    finished = 0

    def step(done: int, _count: int) -> None:
        if progress is not None:
            progress(finished + done, total)

    tests = 0
    references: list[float] = []
    with Sandbox(workers) as sandbox:
        for path, tasks in zip(paths, suites, strict=True):
            calibrated = calibrate_tasks(tasks, sandbox, floor, factor, on_done=step)
            write_plus_file(calibrated, path)
            finished += len(tasks)
            tests += sum(len(t.base_inputs) + len(t.plus_inputs) for t in tasks)
            references += [t.calibration.reference_seconds or 0.0
                           for t in calibrated if t.calibration is not None]
    return CalibrateSummary(tuple(paths), total, tests, statistics.median(references))
