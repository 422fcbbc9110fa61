"""Judge agreement on CodeContests' stdin/stdout tasks (``../shared/datasets/stdio``).

Two checks, both through the library's own call (:func:`judge_programs`, the sandbox's
program jobs, the ``lines`` rule of :mod:`evalplus_ng.textjudge`):

1. every reference (``canonical_solution``) on every one of its task's tests (all of them
   run, no stopping at a failure): each must pass; the wall time of the whole run is
   printed (``-j`` workers), against a baseline measured first in the same run: the
   sandbox's own cost a test (a program that only copies stdin to stdout);
2. every rewrite of ``solutions.jsonl.gz`` on its task's tests in file order, stopping at
   the first failure, as the dataset's builder judged them: our verdict and first failure
   (index and status) against the recorded ``verdict`` and ``first_failure``.

Each disagreement is judged again alone (one worker, nothing else in this run) before it
is reported as one, with both runs' results. Timeouts depend on the machine's load: the
default limit is the builder's 10 s a test.

    python benchmarks/stdio_agreement.py [../shared/datasets/stdio] [-j 2] [--time-limit 10]
                                         [--only references|rewrites] [--out report.json]
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from evalplus_ng.evaluation.program_verdicts import (
    ProgramConfig,
    ProgramResult,
    RunStatus,
    judge_programs,
)
from evalplus_ng.jobs import program_job
from evalplus_ng.judge import JUDGE
from evalplus_ng.records import ProgramTask, Sample, Verdict
from evalplus_ng.sandbox import Sandbox
from evalplus_ng.tasks.programfile import load_program_tasks

DEFAULT_FOLDER = Path(__file__).resolve().parents[2] / "shared" / "datasets" / "stdio"
#: CodeContests' status names of ours, one for every :class:`RunStatus`; an output over
#: the cap is a runtime error there. A broken checker (a task's own checker program) has
#: no name there, the dataset having no checkers: it keeps ours, so it shows as a
#: disagreement, never a verdict of the program's.
CODECONTESTS = {RunStatus.PASS: "pass", RunStatus.WRONG_ANSWER: "wrong_answer",
                RunStatus.RUNTIME_ERROR: "runtime_error", RunStatus.TIMEOUT: "timeout",
                RunStatus.OUTPUT_LIMIT: "runtime_error",
                RunStatus.CHECKER_ERROR: RunStatus.CHECKER_ERROR.value}


def verdict_of(result: ProgramResult) -> tuple[str, dict[str, Any] | None]:
    """Our verdict and first failure in the dataset's terms."""
    failure = result.first_failure
    if failure is None:
        return "pass", None
    status = CODECONTESTS[failure.status]
    return status, {"index": failure.index, "status": status}


def judge(tasks: dict[str, ProgramTask], samples: Sequence[Sample], workers: int,
          config: ProgramConfig) -> tuple[list[ProgramResult], float]:
    """Results of ``samples`` and the wall seconds they took (the sandbox's start-up
    included)."""
    began = time.monotonic()
    with Sandbox(workers, judge=JUDGE) as sandbox:
        results = judge_programs(tasks, samples, sandbox, config)
    return results, time.monotonic() - began


#: The baseline: a program that does nothing but copy stdin to stdout.
ECHO = "import sys\nsys.stdout.write(sys.stdin.read())\n"


def overhead(tasks: dict[str, ProgramTask], workers: int, count: int) -> float:
    """Wall seconds a test costs the sandbox itself: :data:`ECHO` on the first ``count``
    tests' inputs (one job per task, a fresh process per input, as for any program)."""
    jobs, taken = [], 0
    for task in tasks.values():
        tests = task.tests[:count - taken]
        if not tests:
            break
        jobs.append(program_job(task, ECHO, tests, 10.0, judged=False))
        taken += len(tests)
    began = time.monotonic()
    with Sandbox(workers, judge=JUDGE) as sandbox:
        runs = sum(len(result.outcomes) for result in sandbox.map(jobs))
    seconds = time.monotonic() - began
    print(f"baseline: {runs} runs of a program copying stdin to stdout, {seconds:.1f} s wall "
          f"with -j {workers}: {1000 * seconds / runs:.1f} ms a test")
    return seconds / runs


def references(tasks: dict[str, ProgramTask], workers: int, limit: float,
               per_test: float) -> dict[str, Any]:
    """Every reference on all its tests; failures judged again alone."""
    samples = [Sample(task_id, task.solution, number)
               for number, (task_id, task) in enumerate(tasks.items(), start=1)]
    config = ProgramConfig(time_limit=limit, details=True)
    results, seconds = judge(tasks, samples, workers, config)
    failing = [r for r in results if r.full is not Verdict.PASS]
    runs = Counter(run.status for r in results for run in r.tests)
    tests = sum(len(task.tests) for task in tasks.values())
    print(f"references: {len(tasks)} tasks, {tests} tests; {len(results) - len(failing)} pass "
          f"every test; test runs {dict((s.value, n) for s, n in runs.items())}; "
          f"{seconds:.1f} s wall with -j {workers} ({seconds / (per_test * tests):.1f}x the "
          f"baseline's cost for as many tests)")
    slowest = sorted(((run.seconds, r.task_id, run.index) for r in results for run in r.tests),
                     reverse=True)[:5]
    print("  slowest runs: " + ", ".join(f"{task_id} #{index} {s:.2f} s"
                                         for s, task_id, index in slowest))
    again: list[dict[str, Any]] = []
    if failing:
        rerun, _ = judge(tasks, [Sample(r.task_id, r.code, r.line) for r in failing], 1, config)
        for first, second in zip(failing, rerun, strict=True):
            entry = {"task_id": first.task_id,
                     "failures": [(run.index, run.status.value, run.error[:80])
                                  for run in first.tests if run.status is not RunStatus.PASS],
                     "alone": [(run.index, run.status.value, run.error[:80])
                               for run in second.tests if run.status is not RunStatus.PASS]}
            again.append(entry)
            print(f"  FAIL {entry}")
    return {"tasks": len(tasks), "tests": tests, "passing": len(results) - len(failing),
            "wall_seconds": round(seconds, 1), "workers": workers, "failing": again}


def rewrites(tasks: dict[str, ProgramTask], folder: Path, workers: int,
             limit: float) -> dict[str, Any]:
    """Every rewrite, stopping at its first failure, against its recorded verdict."""
    with gzip.open(folder / "solutions.jsonl.gz", "rt", encoding="utf-8") as handle:
        records = [json.loads(line) for line in handle]
    samples = [Sample(record["task_id"], record["code"], number)
               for number, record in enumerate(records, start=1)]
    config = ProgramConfig(time_limit=limit)
    results, seconds = judge(tasks, samples, workers, config)
    ours = [verdict_of(result) for result in results]
    differ = [k for k, record in enumerate(records)
              if ours[k] != (record["verdict"], record["first_failure"])]
    again, _ = judge(tasks, [samples[k] for k in differ], 1, config)
    disagreements = []
    for k, second in zip(differ, again, strict=True):
        record = records[k]
        first_run = results[k].first_failure
        entry = {"solution_id": record["solution_id"], "task_id": record["task_id"],
                 "recorded": [record["verdict"], record["first_failure"]],
                 "ours": list(ours[k]), "alone": list(verdict_of(second)),
                 "error": first_run.error[:120] if first_run else ""}
        disagreements.append(entry)
    recorded = Counter(record["verdict"] for record in records)
    print(f"rewrites: {len(records)} ({dict(recorded)} recorded); "
          f"{len(records) - len(differ)} agree on verdict and first failure; "
          f"{len(differ)} differ; {seconds:.1f} s wall with -j {workers}")
    for entry in disagreements:
        persists = entry["alone"] == entry["ours"]
        print(f"  {'DIFFERS' if persists else 'load-dependent'} {entry}")
    return {"rewrites": len(records), "agree": len(records) - len(differ),
            "wall_seconds": round(seconds, 1), "disagreements": disagreements}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, nargs="?", default=DEFAULT_FOLDER)
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--only", choices=("references", "rewrites"), default=None)
    parser.add_argument("--baseline", type=int, default=2000,
                        help="tests the baseline program runs on")
    parser.add_argument("--out", type=Path, default=None)
    options = parser.parse_args()
    tasks = {task.task_id: task
             for task in load_program_tasks(options.folder / "tasks.jsonl.gz")}
    report: dict[str, Any] = {"time_limit": options.time_limit}
    if options.only != "rewrites":
        per_test = overhead(tasks, options.jobs, options.baseline)
        report["baseline_ms_per_test"] = round(1000 * per_test, 2)
        report["references"] = references(tasks, options.jobs, options.time_limit, per_test)
    if options.only != "references":
        report["rewrites"] = rewrites(tasks, options.folder, options.jobs, options.time_limit)
    if options.out is not None:
        options.out.write_text(json.dumps(report, indent=1) + "\n")
    persisting = [entry for entry in report.get("references", {}).get("failing", [])
                  if entry["alone"]]
    persisting += [entry for entry in report.get("rewrites", {}).get("disagreements", [])
                   if entry["alone"] == entry["ours"]]
    sys.exit(1 if persisting else 0)


if __name__ == "__main__":
    main()
