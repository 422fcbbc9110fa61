"""This checkout against a baseline revision: ``augment`` and ``evaluate`` timed in turn,
in one run, their outputs compared.

What it measures: the wall-clock time of the same two commands run by this checkout and
by ``--baseline`` (any git revision), as a ratio (baseline / this: 1.0 is as fast, above
is faster), and whether the outputs are the same (a change that makes the suite or a
verdict differ is not a speed-up of the same work).

How:

1. The baseline is checked out into a temporary folder (``git worktree add --detach``,
   removed at the end). Each command runs as ``python -m evalplus_ng.cli ...`` with
   ``PYTHONPATH`` at one checkout, the same interpreter, the same user cache.
2. **augment**: ``augment --dataset humaneval --tasks T --seed 0 -j J --no-calibrate``
   (suite, audit and MINIs; calibration measures the machine and differs by design) into
   a fresh folder per run; every file the two write is compared byte for byte.
3. **evaluate**: the plus suite the baseline's augment wrote, judged by each checkout on
   ``--files`` files of ``../shared/samples/humaneval`` (every sixth, concatenated:
   several model families), ``-j J``; every sample's verdicts compared.
4. One untimed round first (the user cache's ground truths and recovered base inputs,
   Python's bytecode), then ``--repeat`` rounds alternating which checkout goes first;
   each side keeps its fastest time (other work on the machine slows a run, never speeds
   it). Run it alone on the machine.

    python benchmarks/versus.py --baseline REV [--tasks 0-40] [--files 12] [-j 2]
                                [--repeat 2] [--only augment|evaluate] [--suite PATH]
                                [--json report.json]

``--suite`` judges with a suite already written (a whole HumanEval+ one: every task's
samples) and skips the augment the suite would otherwise come from.

Exit code 1 when an output differs or a ratio falls under ``--floor`` (default 0.95:
within the noise of one machine).
"""

from __future__ import annotations

import argparse
import contextlib
import filecmp
import gzip
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
SAMPLES = HERE.parent / "shared" / "samples" / "humaneval"


@contextlib.contextmanager
def checkout(revision: str) -> Iterator[Path]:
    """``revision`` of this repository in a temporary worktree."""
    with tempfile.TemporaryDirectory(prefix="versus-") as scratch:
        folder = Path(scratch) / "baseline"
        subprocess.run(["git", "-C", str(HERE), "worktree", "add", "--detach", "-q",
                        str(folder), revision], check=True)
        try:
            yield folder
        finally:
            subprocess.run(["git", "-C", str(HERE), "worktree", "remove", "--force",
                            str(folder)], check=False)


def timed(root: Path, arguments: Sequence[str], log: Path) -> float:
    """Seconds ``evalplus-ng ARGUMENTS`` takes with the package of ``root``; its output
    goes to ``log``; a failure stops the benchmark."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    began = time.perf_counter()
    with log.open("w") as sink:
        done = subprocess.run([sys.executable, "-m", "evalplus_ng.cli", *arguments],
                              env=env, stdout=sink, stderr=subprocess.STDOUT, cwd=log.parent)
    seconds = time.perf_counter() - began
    if done.returncode != 0:
        raise SystemExit(f"{log}: evalplus-ng {' '.join(arguments[:1])} exited "
                         f"{done.returncode}")
    return seconds


def differing_files(left: Path, right: Path) -> list[str]:
    """Files (recursively, caches aside) that differ or exist on one side only."""
    names = {p.relative_to(left) for p in left.rglob("*") if p.is_file()}
    names |= {p.relative_to(right) for p in right.rglob("*") if p.is_file()}
    return sorted(str(n) for n in names if n.parts[0] not in {"checkpoints", "reduction",
                                                                "reduction-stress"}
                  and not ((left / n).is_file() and (right / n).is_file()
                           and filecmp.cmp(left / n, right / n, shallow=False)))


def verdicts(results: Path) -> list[tuple[str, str, str]]:
    """(task, base status, plus status) of every sample of a results file, in order; a
    ``timeout`` status (a baseline before results format 2) read as the ``fail`` it is now."""
    document = json.loads(results.read_text())

    def status(text: str) -> str:
        return "fail" if text == "timeout" else text

    return [(task_id, status(entry["base_status"]), status(entry["plus_status"]))
            for task_id, entries in sorted(document["eval"].items()) for entry in entries]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", required=True, help="git revision to compare with")
    parser.add_argument("--tasks", default="0-40", help="HumanEval tasks augmented")
    parser.add_argument("--files", type=int, default=12, help="samples files judged")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--floor", type=float, default=0.95)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--only", choices=("augment", "evaluate"), default=None,
                        help="time one command (evaluate: on --suite)")
    parser.add_argument("--suite", type=Path, default=None,
                        help="the plus suite evaluate judges with [default: the one the "
                             "baseline's augment writes]")
    options = parser.parse_args()
    files = sorted(SAMPLES.glob("*.jsonl"))[::6][:options.files]
    if not files:
        raise SystemExit(f"{SAMPLES}: no samples files")
    jobs = ["-j", str(options.jobs)]
    with checkout(options.baseline) as baseline, tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        samples = work / "samples.jsonl"
        roots = {"baseline": baseline, "this": HERE}
        best: dict[str, dict[str, float]] = {}
        differences: dict[str, list[str]] = {}

        def augment(side: str, run: int) -> float:
            out = work / f"augment-{side}-{run}"
            return timed(roots[side], ["augment", "--dataset", "humaneval", "--tasks",
                                       options.tasks, "--seed", "0", *jobs, "--no-calibrate",
                                       "--out", str(out)], work / f"augment-{side}-{run}.log")

        def evaluate(side: str, run: int) -> float:
            return timed(roots[side], ["evaluate", "--samples", str(samples), "--suite",
                                       str(suite), "--artifacts", str(suite.parent),
                                       *jobs, "--results",
                                       str(work / f"results-{side}-{run}.json")],
                         work / f"evaluate-{side}-{run}.log")

        commands = [c for c in ("augment", "evaluate") if options.only in (None, c)]
        suite = options.suite or work / "augment-baseline-0" / "HumanEvalPlus.jsonl.gz"
        if options.suite is None:
            augment("baseline", 0)  # the suite evaluate judges with: its tasks' samples only
        with gzip.open(suite, "rt") as lines:
            tasks = {json.loads(line)["task_id"] for line in lines}
        samples.write_text("".join(line for f in files for line in f.open()
                                   if json.loads(line)["task_id"] in tasks))
        for run in range(options.repeat + 1):
            order = ("baseline", "this") if run % 2 == 0 else ("this", "baseline")
            for command, action in (("augment", augment), ("evaluate", evaluate)):
                for side in order:
                    if command not in commands or (command, side, run) == (
                            "augment", "baseline", 0):
                        continue  # not asked for, or run above
                    seconds = action(side, run)
                    print(f"round {run}{' (untimed)' if run == 0 else ''}: {command} "
                          f"{side} {seconds:.1f} s", flush=True)
                    if run:
                        sides = best.setdefault(command, {})
                        sides[side] = min(sides.get(side, seconds), seconds)
            if "augment" in commands:
                differences[f"augment round {run}"] = differing_files(
                    work / f"augment-baseline-{run}", work / f"augment-this-{run}")
            if "evaluate" not in commands:
                continue
            left, right = (verdicts(work / f"results-{side}-{run}.json")
                           for side in ("baseline", "this"))
            differences[f"evaluate round {run}"] = [
                f"{a[0]}: {a[1:]} vs {b[1:]}" for a, b in zip(left, right, strict=True)
                if a != b]
        ratios = {command: sides["baseline"] / sides["this"]
                  for command, sides in best.items()}
        report = {"baseline": options.baseline, "tasks": options.tasks,
                  "samples": sum(1 for _ in samples.open()), "files": len(files),
                  "seconds": best, "ratios": ratios, "differences": differences}
    for command, ratio in ratios.items():
        print(f"{command}: baseline {best[command]['baseline']:.1f} s, this "
              f"{best[command]['this']:.1f} s, ratio {ratio:.3f} (>= 1: no slower)")
    differing = {k: v for k, v in differences.items() if v}
    for name, found in differing.items():
        print(f"{name}: {len(found)} differ, e.g. {found[:3]}")
    judged = options.suite or f"HumanEval tasks {options.tasks}"
    print(f"outputs: {'identical' if not differing else 'DIFFERENT'} "
          f"({report['samples']} samples, suite {judged})")
    if options.json is not None:
        options.json.write_text(json.dumps(report, indent=1) + "\n")
    return int(bool(differing) or any(r < options.floor for r in ratios.values()))


if __name__ == "__main__":
    sys.exit(main())
