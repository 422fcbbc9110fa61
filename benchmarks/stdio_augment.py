"""``augment`` on CodeContests' stdin/stdout tasks (``../shared/datasets/stdio``): the
library's own call (:func:`run_augment_programs`, the input plans of
:mod:`evalplus_ng.generate.programs.planner`) on a spread of tasks, timed.

Prints, per task, the candidates made and where they went (plus, stress, dropped by reason)
and the seconds spent planning and generating (in the parent) and in the reference's runs;
then the totals, the wall time and that wall time scaled to every task without
``multiple_answers_suspected`` (what ``evalplus-ng augment`` runs by default), against a
baseline measured first in the same run: the sandbox's own cost a run (a program that only
copies stdin to stdout, on the tasks' public inputs).

    python benchmarks/stdio_augment.py [../shared/datasets/stdio] [--tasks 16] [-j 2]
                                       [--per-task 300] [--time-limit 1] [--out DIR]
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from evalplus_ng.backend.executors import Backend
from evalplus_ng.jobs import program_job
from evalplus_ng.pipeline.programs.augment import (
    DEFAULT_COUNT,
    DEFAULT_TIME_LIMIT,
    MULTIPLE_ANSWERS_FLAG,
    ProgramAugmentConfig,
    run_augment_programs,
    summary_lines,
    warning_lines,
)
from evalplus_ng.records import ProgramTask
from evalplus_ng.sandbox import Sandbox
from evalplus_ng.tasks.programfile import load_program_records

DEFAULT_FOLDER = Path(__file__).resolve().parents[2] / "shared" / "datasets" / "stdio"
#: The baseline: a program that does nothing but copy stdin to stdout.
ECHO = "import sys\nsys.stdout.write(sys.stdin.read())\n"


def baseline(records: Sequence[tuple[ProgramTask, dict[str, Any]]], workers: int) -> float:
    """Wall seconds a run costs the sandbox itself: :data:`ECHO` on the public inputs of
    ``records``' tasks, 20 times each."""
    jobs = [program_job(task, ECHO, list(task.base_tests) * 20, 10.0, judged=False)
            for task, _record in records]
    began = time.monotonic()
    with Sandbox(workers) as sandbox:
        runs = sum(len(result.outcomes) for result in sandbox.map(jobs))
    return (time.monotonic() - began) / max(runs, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, nargs="?", default=DEFAULT_FOLDER)
    parser.add_argument("--tasks", type=int, default=16,
                        help="tasks taken, spread evenly over the file")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--per-task", type=int, default=DEFAULT_COUNT)
    parser.add_argument("--time-limit", type=float, default=DEFAULT_TIME_LIMIT)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=None,
                        help="keep the artifact here (default: a temporary folder)")
    options = parser.parse_args()
    records = [item for item in load_program_records(options.folder / "tasks.jsonl.gz")
               if MULTIPLE_ANSWERS_FLAG not in item[0].flags]
    step = max(1, len(records) // options.tasks)
    chosen = records[::step][:options.tasks]
    per_run = baseline(chosen, options.jobs)
    print(f"baseline: {1000 * per_run:.1f} ms of wall a run (a program copying stdin to "
          f"stdout, -j {options.jobs})")
    out = options.out or Path(tempfile.mkdtemp(prefix="stdio-augment-"))
    config = ProgramAugmentConfig(count=options.per_task, seed=options.seed,
                                  time_limit=options.time_limit)
    began = time.monotonic()
    summary = run_augment_programs(chosen, config, out, Backend(options.jobs))
    wall = time.monotonic() - began
    print(f"{'task':<48} {'cand':>5} {'plus':>5} {'strs':>5} {'drop':>5} {'gen s':>6} "
          f"{'ref s':>7} {'max s':>6}")
    for report in summary.reports:
        seconds = report.seconds
        print(f"{report.task_id[13:60]:<48} {report.candidates:>5} {report.plus:>5} "
              f"{report.stress:>5} {sum(report.dropped.values()):>5} "
              f"{seconds.get('generate', 0.0):>6.2f} {seconds.get('reference', 0.0):>7.2f} "
              f"{seconds.get('reference_max', 0.0):>6.2f}"
              + (f"  {report.outcome}: {report.reason}" if report.reason else "")
              + (f"  dropped {report.dropped}" if report.dropped else ""))
    for line in summary_lines(summary):
        print(line)
    for line in warning_lines(summary.reports):
        print(f"warning: {line}")
    runs = sum(report.candidates - report.violations - report.repeated
               for report in summary.reports)
    print(f"wall {wall:.1f} s for {len(chosen)} tasks, {runs} reference runs "
          f"({1000 * wall / max(runs, 1):.1f} ms a run, {wall / max(per_run * runs, 1e-9):.1f}x "
          f"the baseline's cost for as many runs); scaled to {len(records)} tasks: "
          f"{wall * len(records) / len(chosen) / 60:.1f} min; artifact "
          f"{summary.artifact.stat().st_size / 1e6:.1f} MB")
    if options.out is None:
        shutil.rmtree(out)


if __name__ == "__main__":
    main()
