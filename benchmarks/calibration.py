"""No flaky verdicts: the ground truth passes its own suite under calibrated limits, under load.

Starts one CPU burner process per core (a busy loop each), then runs the normal
``evaluate`` path (:func:`evalplus_ng.workflow.run_evaluate`: fresh sandbox,
ground truth, reference workload measured on the loaded machine, verdicts) with
each task's fixed ground truth (``Task.solution``) as its one sample, ``--runs``
times. A run is *flaky* when any sample gets a verdict other than pass. Prints
the count and every non-pass with its input and limit.

With ``--idle-reference`` the reference workload is measured once before the
burners start and reused: the harder case of a load that appears after
evaluation began, where only the floor and the factor absorb the slowdown.

    python benchmarks/calibration.py OUT/HumanEvalPlus.jsonl.gz [--runs 100]
        [--tasks 0-9 | --slowest 20 --random 20] [-j 2] [--out report.json]

The suite must be calibrated (``evalplus-ng calibrate --out OUT``).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from evalplus_ng.artifact import write_plus_file
from evalplus_ng.augment import select_tasks
from evalplus_ng.calibrate import measure_reference
from evalplus_ng.dataset import load_plus_file
from evalplus_ng.evaluate import EvalConfig
from evalplus_ng.records import Task, Verdict
from evalplus_ng.sandbox import Sandbox
from evalplus_ng.workflow import EvaluateRequest, run_evaluate


def _burn() -> None:  # pragma: no cover - runs in a burner process
    while True:
        pass


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

    with Sandbox(1) as sandbox:
        idle_reference = measure_reference(sandbox)
    config = EvalConfig(reference_seconds=idle_reference if options.idle_reference else None)
    work = Path(tempfile.mkdtemp(prefix="evalplus-ng-calibration-"))
    suite = work / "suite.jsonl.gz"
    write_plus_file(tasks, suite)
    samples = work / "samples.jsonl"
    samples.write_text("".join(json.dumps({"task_id": t.task_id, "solution": t.solution}) + "\n"
                               for t in tasks), encoding="utf-8")
    burners = [multiprocessing.Process(target=_burn, daemon=True)
               for _ in range(options.burners)]
    for burner in burners:
        burner.start()
    flaky_runs = 0
    problems: list[dict[str, Any]] = []
    references: list[float] = []
    seconds: list[float] = []
    try:
        for run in range(options.runs):
            said: list[str] = []
            began = time.monotonic()
            summary = run_evaluate(
                EvaluateRequest(samples=samples, suite=str(suite), workers=options.jobs,
                                config=config),
                status=said.append,
            )
            seconds.append(time.monotonic() - began)
            references += [float(m.split()[5]) for m in said
                           if m.startswith("calibrated suite: reference workload takes")]
            bad = [r for r in summary.results
                   if r.base_status is not Verdict.PASS or r.plus_status is not Verdict.PASS]
            flaky_runs += bool(bad)
            for result in bad:
                problems.append({
                    "run": run, "task_id": result.task_id,
                    "base": result.base_status.value,
                    "plus": result.plus_status.value if result.plus_status else None,
                    "failing": repr((result.base_fail_tests + result.plus_fail_tests)[:1])[:200],
                })
            print(f"run {run + 1}/{options.runs}: {len(bad)} non-pass, "
                  f"{seconds[-1]:.1f} s", file=sys.stderr)
    finally:
        for burner in burners:
            burner.terminate()
        for burner in burners:
            burner.join()
        for path in (suite, samples, work / "samples_eval_results.json"):
            path.unlink(missing_ok=True)
        work.rmdir()

    report = {
        "suite": str(options.suite), "tasks": len(tasks), "tests": tests,
        "runs": options.runs, "flaky_runs": flaky_runs, "burners": options.burners,
        "workers": options.jobs, "idle_reference": options.idle_reference,
        "reference_seconds_idle": idle_reference,
        "reference_seconds_loaded": sorted(references),
        "seconds_per_run": {"min": min(seconds), "max": max(seconds),
                            "mean": sum(seconds) / len(seconds)},
        "non_pass_by_task": dict(Counter(p["task_id"] for p in problems)),
        "problems": problems[:50],
    }
    loaded = sorted(references)
    print(f"{flaky_runs} of {options.runs} runs had a non-pass verdict "
          f"({len(problems)} non-pass verdicts in all)")
    print(f"reference workload: {idle_reference:.4f} s idle; under load "
          + (f"median {loaded[len(loaded) // 2]:.4f} s" if loaded else "not measured"))
    print(f"seconds per run: {report['seconds_per_run']}")
    for task_id, count in report["non_pass_by_task"].items():
        print(f"  {task_id}: {count} non-pass")
    if options.out:
        options.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
