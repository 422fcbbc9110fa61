"""What one hostile sample adds to an ``evaluate`` run: the attacks on the parent's own work.

What it measures: the wall time of ``evalplus-ng evaluate`` on a samples file of ordinary
answers, and of the same file with one sample of ``tests/hostile_parent/`` added (a
completion that makes sanitizing blow up, a 4 MB solution, an output set whose members
all hash alike, a forged output of 8 million empty lists), for each attack: the
difference in seconds and the ratio, and the parent's peak memory. Bounded, each attack
costs at most its bound (about a second of CPU for sanitizing; nothing for the others)
on top of the run without it; unbounded they cost minutes to hours (and the huge output
1.2 GB). CPU seconds are reported beside wall seconds: on a busy machine they say more.
The attacks on other tasks (an answer padded for the ``set`` oracle, outputs waiting
behind a slow job, a program flooding a checker task) are measured by their tests.

How: the baseline samples are the reference solutions of the first ``--tasks`` HumanEval
tasks as ``solution``, plus each one's body as a ``completion`` and a wrong answer
(``return None``), judged on the base suite with ``-j 2`` (the CLI in a subprocess, end to
end, so that reading and sanitizing count). Runs alternate baseline and attack ``--repeat``
times; each keeps its fastest (other work on the machine only slows a run down). A run
that exceeds ``--timeout`` seconds is killed and reported as such.

    python benchmarks/hostile_parent.py [--tasks 20] [--repeat 2] [--timeout 600]
"""

# ruff: noqa: E402  (the project's imports follow the sys.path set-up for a plain checkout)
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
import runpy
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if importlib.util.find_spec("evalplus_ng") is None:  # run from a checkout, not installed
    sys.path.insert(0, str(ROOT))

from evalplus_ng.tasks.registry import load_humaneval

FIXTURES = ROOT / "tests" / "hostile_parent"
ATTACKS = ("sanitize_blowup", "huge_source", "colliding_set", "huge_output")
#: The task the hostile samples answer (their code defines ``add(x, y)``).
HOSTILE_TASK = "HumanEval/53"


def baseline_rows(tasks: int) -> list[dict[str, Any]]:
    """Ordinary answers: the reference as a solution and as a body, and a wrong one."""
    rows: list[dict[str, Any]] = []
    chosen = [t for t in load_humaneval() if t.task_id != HOSTILE_TASK][:tasks - 1]
    chosen.append(next(t for t in load_humaneval() if t.task_id == HOSTILE_TASK))
    for task in chosen:
        rows.append({"task_id": task.task_id, "solution": task.solution})
        rows.append({"task_id": task.task_id, "completion": task.canonical_solution})
        rows.append({"task_id": task.task_id, "completion": "    return None\n"})
    return rows


def hostile_row(attack: str) -> dict[str, Any]:
    record: dict[str, Any] = runpy.run_path(str(FIXTURES / f"{attack}.py"))["record"]()
    return {"task_id": HOSTILE_TASK, **record}


#: ``evaluate`` (the arguments after the code), then the parent's own peak memory in KiB
#: on the last line of stderr (not its supervisors' or their children's).
_PEAK = ("import resource, runpy, sys\n"
         "try:\n"
         "    runpy.run_module('evalplus_ng.cli', run_name='__main__', alter_sys=True)\n"
         "finally:\n"
         "    sys.stderr.write(f'\\n{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}\\n')\n")


def timed_run(rows: list[dict[str, Any]], folder: Path,
              timeout: float) -> tuple[float, float, float] | None:
    """Wall and CPU seconds of one ``evaluate`` run in a subprocess (CPU: of every process
    it waited for: supervisors, children, the sanitizing worker) and the parent's peak
    memory in MB; None when killed at ``timeout``."""
    samples = folder / "samples.jsonl"
    samples.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in [str(ROOT), os.environ.get("PYTHONPATH", "")] if p)}
    command = [sys.executable, "-c", _PEAK, "evaluate", "--samples", str(samples),
               "--suite", "base", "-j", "2"]
    before = _children_cpu()
    start = time.monotonic()
    try:
        done = subprocess.run(command, check=True, capture_output=True, timeout=timeout,
                              env=env, text=True)
    except subprocess.TimeoutExpired:
        return None
    peak = int(done.stderr.strip().splitlines()[-1]) / 1024
    return time.monotonic() - start, _children_cpu() - before, peak


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tasks", type=int, default=20, help="HumanEval tasks answered")
    parser.add_argument("--repeat", type=int, default=2, help="runs of each, fastest kept")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds before a kill")
    parser.add_argument("--attacks", nargs="*", default=list(ATTACKS), choices=ATTACKS)
    args = parser.parse_args(argv)
    base = baseline_rows(args.tasks)
    best: dict[str, tuple[float, float, float] | None] = {}
    with tempfile.TemporaryDirectory(prefix="evalplus-ng-hostile-parent-") as scratch:
        folder = Path(scratch)
        for _round in range(args.repeat):
            for name in ["baseline", *args.attacks]:
                rows = base if name == "baseline" else [*base, hostile_row(name)]
                run = timed_run(rows, folder, args.timeout)
                known = best.get(name, (float("inf"),) * 3)
                best[name] = None if run is None or known is None else (
                    min(known[0], run[0]), min(known[1], run[1]), min(known[2], run[2]))
    plain = best["baseline"]
    print(f"{len(base)} ordinary samples of {args.tasks} tasks, -j 2, fastest of "
          f"{args.repeat} run(s) (wall and CPU each; the parent's peak memory, the least)")
    print(f"{'run':<18}{'wall s':>8}{'+ wall s':>10}{'ratio':>7}{'CPU s':>8}{'+ CPU s':>9}"
          f"{'peak MB':>9}")
    for name, run in best.items():
        if run is None:
            print(f"{name:<18}{'killed':>8}  (over {args.timeout:.0f} s)")
        elif plain is None or name == "baseline":
            print(f"{name:<18}{run[0]:>8.2f}{'':>17}{run[1]:>8.2f}{'':>9}{run[2]:>9.0f}")
        else:
            print(f"{name:<18}{run[0]:>8.2f}{run[0] - plain[0]:>+10.2f}"
                  f"{run[0] / plain[0]:>7.2f}{run[1]:>8.2f}{run[1] - plain[1]:>+9.2f}"
                  f"{run[2]:>9.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
