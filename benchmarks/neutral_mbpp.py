"""evalplus 0.3.1 judges samples with our MbppPlus suite (``MBPP_OVERRIDE_PATH``); so do we.

For a neutral check of the MBPP+ artifact: the samples are, per task, the reference
solution and up to ``--mutants`` of mutmut's mutants of it (deterministic: the first
ones that compile), written as full solutions. Both tools judge them with the same limits
(1 s floor, 4 x the ground truth): evalplus 0.3.1 (in a scratch venv, its own sandbox,
its own ground-truth run of the suite's ``canonical_solution`` on its own deserialized
inputs) through ``MBPP_OVERRIDE_PATH``, and ``evalplus-ng evaluate --dataset mbpp --suite
SUITE``. Printed: base and plus pass counts of each, and every sample whose verdicts
differ.

    python benchmarks/neutral_mbpp.py OUT/MbppPlus.jsonl.gz --dataset-file F [--tasks 2-100]
        [--mutants 3] [-j 2] [--venv DIR] [--json F]
"""

from __future__ import annotations

import argparse
import gzip
import json
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from evaluate import (
    DEFAULT_VENV,
    MIN_TIME_LIMIT,
    TIME_FACTOR,
    Verdicts,
    load_verdicts,
    run_evalplus,
    venv_python,
)

from evalplus_ng.pipeline.augment import select_tasks
from evalplus_ng.reduce.mutants import mutant_sources
from evalplus_ng.tasks.plusfile import load_plus_file


def subset(suite: Path, tasks_spec: str | None, out: Path) -> Path:
    """``suite`` cut down to the selected tasks, its lines unchanged (evalplus wants samples
    of every task of its suite)."""
    wanted = {task.task_id for task in select_tasks(load_plus_file(suite), tasks_spec)}
    with gzip.open(suite, "rt", encoding="utf-8") as source, \
            gzip.open(out, "wt", encoding="utf-8") as target:
        for line in source:
            if json.loads(line)["task_id"] in wanted:
                target.write(line)
    return out


def write_samples(suite: Path, per_task: int, out: Path) -> int:
    """The reference and ``per_task`` mutants of each task of ``suite``, as full solutions."""
    count = 0
    with out.open("w", encoding="utf-8") as handle:
        for task in load_plus_file(suite):
            codes = [task.solution, *(m.code for m in mutant_sources(task.solution)[:per_task])]
            for code in codes:
                handle.write(json.dumps({"task_id": task.task_id, "solution": code}) + "\n")
                count += 1
    return count


def run_ours(samples: Path, suite: Path, dataset_file: Path, jobs: int) -> Path:
    """``evalplus-ng evaluate`` on the same samples and suite, with evalplus's limits."""
    results = samples.with_name(samples.name.replace(".jsonl", ".evalplus-ng.json"))
    command = [sys.executable, "-m", "evalplus_ng.cli", "evaluate", "--dataset", "mbpp",
               "--no-sanitize",  # solutions as written, as evalplus.evaluate runs them
               "--dataset-file", str(dataset_file), "--suite", str(suite), "--samples",
               str(samples), "-j", str(jobs), "--min-time-limit", str(MIN_TIME_LIMIT),
               "--time-factor", str(TIME_FACTOR), "--results", str(results)]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return results


def compare(ours: Verdicts, theirs: Verdicts,
            ) -> tuple[dict[str, Counter[str]], list[dict[str, Any]]]:
    """Base and base+plus pass counts of each tool, and the samples they judge apart."""
    counts: dict[str, Counter[str]] = {"evalplus 0.3.1": Counter(), "evalplus-ng": Counter()}
    differ = []
    for task_id, entries in ours.items():
        for rank, (mine, other) in enumerate(zip(entries, theirs[task_id], strict=True)):
            for name, entry in (("evalplus-ng", mine), ("evalplus 0.3.1", other)):
                counts[name]["base"] += entry["base_status"] == "pass"
                counts[name]["plus"] += (entry["base_status"] == "pass"
                                         and entry["plus_status"] == "pass")
            pair = ((mine["base_status"], mine["plus_status"]),
                    (other["base_status"], other["plus_status"]))
            if pair[0] != pair[1]:
                differ.append({"task_id": task_id, "rank": rank, "evalplus-ng": pair[0],
                               "evalplus 0.3.1": pair[1]})
    return counts, differ


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("suite", type=Path, help="our MbppPlus.jsonl.gz")
    parser.add_argument("--dataset-file", type=Path, required=True,
                        help="the MBPP+ v0.2.0 tasks (for evalplus-ng's base tests)")
    parser.add_argument("--tasks", default=None)
    parser.add_argument("--mutants", type=int, default=3)
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--venv", type=Path, default=DEFAULT_VENV)
    parser.add_argument("--json", type=Path, default=None)
    options = parser.parse_args()
    python = venv_python(options.venv)
    folder = Path(tempfile.mkdtemp(prefix="neutral-mbpp-"))  # kept on failure, for its logs
    (folder / "ours").mkdir()
    suite = subset(options.suite.resolve(), options.tasks, folder / "MbppPlus.jsonl.gz")
    samples = folder / "ours" / "samples.jsonl"
    total = write_samples(suite, options.mutants, samples)
    theirs = load_verdicts(run_evalplus(python, samples, suite, options.jobs,
                                        folder / "evalplus", folder / "cache", "evalplus",
                                        dataset="mbpp").results)
    ours = load_verdicts(run_ours(samples, suite, options.dataset_file.resolve(),
                                  options.jobs))
    shutil.rmtree(folder)
    counts, differ = compare(ours, theirs)
    print(f"{total} samples of {len(ours)} tasks")
    for name, counted in counts.items():
        print(f"{name:15s} base pass {counted['base']:5d}   base+plus pass {counted['plus']:5d}")
    print(f"samples whose verdicts differ: {len(differ)}")
    for row in differ:
        print(f"  {row['task_id']} #{row['rank']}: ours {row['evalplus-ng']}, "
              f"evalplus {row['evalplus 0.3.1']}")
    if options.json is not None:
        options.json.write_text(json.dumps({"samples": total, "counts": counts,
                                            "differ": differ}, indent=1) + "\n")


if __name__ == "__main__":
    main()
