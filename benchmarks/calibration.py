"""No flaky verdicts: the ground truth passes its own suite under calibrated limits, under load.

Computes expected outputs once, then starts one CPU burner process per core (a
busy loop each) and, ``--runs`` times, judges each task's fixed ground truth
(``Task.solution``) as its one sample the way ``evaluate`` does: the reference
workload measured now, on the loaded machine, then
:func:`evalplus_ng.evaluation.verdicts.evaluate_samples` with the calibrated limits
(``--full-path``: a whole :func:`evalplus_ng.pipeline.evaluate.run_evaluate` per run,
ground truth included, about twice as slow). A run is *flaky* when any sample
gets a verdict other than pass; each non-pass is listed with its input. A task
whose ground truth does not pass even on an idle machine with generous limits
(judged once first) is a defect of the suite, not of its limits: it is listed
apart and not counted.

With ``--idle-reference`` the reference workload is measured once before the
burners start and reused: the harder case of a load that appears after
evaluation began, where only the floor and the factor absorb the slowdown.

    python benchmarks/calibration.py OUT/HumanEvalPlus.jsonl.gz [--runs 100]
        [--tasks 0-9 | --slowest 20 --random 20] [-j 2] [--idle-reference] [--full-path]
        [--out report.json]

The suite must be calibrated (``evalplus-ng calibrate --out OUT``).
"""

from __future__ import annotations

import argparse
import ctypes
import json
import multiprocessing
import os
import random
import signal
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from evalplus_ng.backend.executors import Backend
from evalplus_ng.evaluation.verdicts import EvalConfig, SampleResult, evaluate_samples
from evalplus_ng.judge import JUDGE
from evalplus_ng.oracle.groundtruth import run_ground_truth
from evalplus_ng.oracle.timelimits import measure_reference
from evalplus_ng.pipeline.augment import select_tasks
from evalplus_ng.pipeline.context import Workspace
from evalplus_ng.pipeline.evaluate import EvaluateRequest, run_evaluate
from evalplus_ng.records import Sample, Task
from evalplus_ng.sandbox import Sandbox
from evalplus_ng.tasks.artifact import write_plus_file
from evalplus_ng.tasks.plusfile import load_plus_file
from evalplus_ng.tasks.registry import resolve

#: Limits of the idle baseline run that tells suite defects from flaky limits.
GENEROUS_FLOOR_SECONDS = 5.0
GENEROUS_FACTOR = 100.0


def _burn() -> None:  # pragma: no cover - runs in a burner process
    ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: die with the benchmark
    while True:
        pass


def _statuses(result: SampleResult) -> tuple[str, str | None]:
    return result.base_status.value, result.plus_status.value if result.plus_status else None


def _full_path(tasks: Sequence[Task], jobs: int,
               reference: float | None) -> tuple[list[SampleResult], float]:
    """One whole ``evaluate`` run (files, fresh sandbox, ground truth, reference, verdicts)."""
    with tempfile.TemporaryDirectory(prefix="evalplus-ng-calibration-") as folder:
        suite = Path(folder) / "suite.jsonl.gz"
        write_plus_file(tasks, suite)
        samples = Path(folder) / "samples.jsonl"
        samples.write_text("".join(json.dumps({"task_id": t.task_id, "solution": t.solution})
                                   + "\n" for t in tasks), encoding="utf-8")
        said: list[str] = []
        request = EvaluateRequest(samples=samples, suite=str(suite),
                                  workspace=Workspace(resolve("humaneval"),
                                                      backend=Backend(jobs)),
                                  config=EvalConfig(reference_seconds=reference))
        summary = run_evaluate(request,
                               status=said.append)
    measured = [float(m.split()[5]) for m in said
                if m.startswith("calibrated suite: reference workload takes")]
    return list(summary.results), measured[0] if measured else (reference or 0.0)


def choose(tasks: Sequence[Task], spec: str | None, slowest: int, sampled: int,
           seed: int) -> list[Task]:
    """``--tasks``, else the ``slowest`` tasks by largest calibrated ground-truth time plus
    ``sampled`` others at random, else all."""
    if spec or not (slowest or sampled):
        return select_tasks(tasks, spec)

    def cost(task: Task) -> float:
        return max(task.calibration.units, default=0.0) if task.calibration else 0.0

    ranked = sorted(tasks, key=cost, reverse=True)
    chosen = ranked[:slowest]
    rest = ranked[slowest:]
    chosen += random.Random(seed).sample(rest, min(sampled, len(rest)))
    ids = {task.task_id for task in chosen}
    return [task for task in tasks if task.task_id in ids]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("suite", type=Path, help="A calibrated HumanEvalPlus.jsonl.gz")
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--tasks", default=None, help="ids, numbers or ranges: '0,5,10-20'")
    parser.add_argument("--slowest", type=int, default=0,
                        help="the N tasks with the slowest ground-truth input")
    parser.add_argument("--random", type=int, default=0, help="plus N other tasks at random")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--burners", type=int, default=len(os.sched_getaffinity(0)),
                        help="busy-loop processes [default: one per core]")
    parser.add_argument("--idle-reference", action="store_true",
                        help="measure the reference workload before the burners start")
    parser.add_argument("--full-path", action="store_true",
                        help="each run a whole `evaluate` (files, fresh sandbox, ground truth) "
                             "instead of judging again with expected outputs computed once")
    parser.add_argument("--out", type=Path, default=None, help="write a JSON report here")
    options = parser.parse_args()

    tasks = choose(load_plus_file(options.suite), options.tasks, options.slowest,
                   options.random, options.seed)
    uncalibrated = [task.task_id for task in tasks if task.calibration is None]
    if uncalibrated:
        sys.exit(f"error: {options.suite}: not calibrated ({uncalibrated[0]}...); "
                 "run `evalplus-ng calibrate` first")
    tests = sum(len(t.base_inputs) + len(t.plus_inputs) for t in tasks)
    print(f"{len(tasks)} tasks, {tests} tests, {options.runs} runs, "
          f"{options.burners} burner(s), {options.jobs} worker(s)", file=sys.stderr)

    # Burners die with this process however it ends (they must not outlive the run).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    by_id = {task.task_id: task for task in tasks}
    samples = [Sample(task.task_id, task.solution, line)
               for line, task in enumerate(tasks, start=1)]
    burners = [multiprocessing.Process(target=_burn, daemon=True)
               for _ in range(options.burners)]
    flaky_runs = 0
    problems: list[dict[str, Any]] = []
    references: list[float] = []
    seconds: list[float] = []
    with Sandbox(options.jobs, judge=JUDGE) as sandbox:
        idle_reference = measure_reference(sandbox)
        truths = run_ground_truth(tasks, sandbox)
        # Verdicts on an idle machine with generous limits: a non-pass there is a defect
        # of the suite or its ground truth, not a flaky time limit, and is reported apart.
        generous = EvalConfig(floor_seconds=GENEROUS_FLOOR_SECONDS, factor=GENEROUS_FACTOR)
        defects = {r.task_id: _statuses(r) for _, r in
                   evaluate_samples(by_id, truths, samples, sandbox, generous)
                   if not r.passed_plus}
        for task_id, statuses in defects.items():
            print(f"suite defect (non-pass when idle with generous limits): {task_id} "
                  f"{statuses}", file=sys.stderr)
        for burner in burners:
            burner.start()
        try:
            for run in range(options.runs):
                began = time.monotonic()
                if options.full_path:
                    results, reference = _full_path(
                        tasks, options.jobs, idle_reference if options.idle_reference else None)
                else:
                    # What run_evaluate does once per run: measure the reference here, now.
                    reference = idle_reference if options.idle_reference else \
                        measure_reference(sandbox)
                    config = EvalConfig(reference_seconds=reference)
                    results = [r for _, r in
                               evaluate_samples(by_id, truths, samples, sandbox, config)]
                seconds.append(time.monotonic() - began)
                references.append(reference)
                bad = [r for r in results if r.task_id not in defects and not r.passed_plus]
                flaky_runs += bool(bad)
                for result in bad:
                    problems.append({
                        "run": run, "task_id": result.task_id, "verdicts": _statuses(result),
                        "failing": repr((result.base_fail_tests
                                         + result.plus_fail_tests)[:1])[:200],
                    })
                print(f"run {run + 1}/{options.runs}: {len(bad)} non-pass, "
                      f"t_ref {reference:.4f} s, {seconds[-1]:.1f} s", file=sys.stderr)
        finally:
            for burner in burners:
                if burner.pid is not None:
                    burner.terminate()
                    burner.join()

    report = {
        "suite": str(options.suite), "tasks": len(tasks), "tests": tests,
        "runs": options.runs, "flaky_runs": flaky_runs, "burners": options.burners,
        "workers": options.jobs, "idle_reference": options.idle_reference,
        "full_path": options.full_path,
        "reference_seconds_idle": idle_reference,
        "reference_seconds_loaded": sorted(references),
        "seconds_per_run": {"min": min(seconds), "max": max(seconds),
                            "mean": sum(seconds) / len(seconds)},
        "suite_defects": defects,
        "non_pass_by_task": dict(Counter(p["task_id"] for p in problems)),
        "problems": problems[:50],
    }
    loaded = sorted(references)
    print(f"{flaky_runs} of {options.runs} runs had a non-pass verdict "
          f"({len(problems)} non-pass verdicts in all; {len(defects)} task(s) excluded as "
          "suite defects)")
    print(f"reference workload: {idle_reference:.4f} s idle; under load "
          + (f"median {loaded[len(loaded) // 2]:.4f} s" if loaded else "not measured"))
    print(f"seconds per run: {report['seconds_per_run']}")
    for task_id, count in report["non_pass_by_task"].items():
        print(f"  {task_id}: {count} non-pass")
    if options.out:
        options.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
