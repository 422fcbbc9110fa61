"""Mutation score of a suite: mutmut's mutants of every reference, killed by the base tests
alone and by base + plus.

For each task of ``OUT``'s plus suite, the mutants are mutmut's operators applied to the
ground truth (:func:`evalplus_ng.reduce.mutants.mutant_sources`), judged in the sandbox on every
test as ``reduce`` judges them (:data:`evalplus_ng.reduce.requirements.MUTANT_KILLS`: a wrong
output, an exception or a confirmed timeout kills; the rows are the ones ``augment`` cached in
``OUT/reduction/mutants``, computed here where missing).

A mutant that survives base + plus may be equivalent to the reference. It counts as
**non-equivalent-looking** when independent inputs tell it apart: the stress tier
(``OUT/...-Stress``) or ``--extra`` new inputs per task from another fuzz stream (the same
pipeline with seed ``--seed`` + 1, judged by the same oracle). The score of a test set is
the share of non-equivalent-looking mutants it kills; tasks where base + plus kills fewer
than ``--threshold`` of them are listed, each with one surviving mutant's changed line.

    python benchmarks/mutation_score.py OUT [--dataset mbpp --dataset-file F] [-j 2]
        [--tasks 2-20] [--extra 1000] [--json F]
"""

from __future__ import annotations

import argparse
import difflib
import json
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from evalplus_ng.judge import JUDGE
from evalplus_ng.oracle.groundtruth import run_ground_truth
from evalplus_ng.pipeline.augment import AugmentConfig, augment_task, references, select_tasks
from evalplus_ng.records import Task
from evalplus_ng.reduce.found import rows_from_wire
from evalplus_ng.reduce.kills import kill_rows, suite_tests
from evalplus_ng.reduce.mini import requirement
from evalplus_ng.reduce.mutants import mutant_sources
from evalplus_ng.reduce.requirements import MUTANT_KILLS
from evalplus_ng.sandbox import Sandbox
from evalplus_ng.tasks.plusfile import load_plus_file
from evalplus_ng.tasks.registry import resolve
from evalplus_ng.tasks.spec import Dataset


def _changed_line(original: str, mutant: str) -> str:
    """The mutant's changed line, for a reader."""
    for line in difflib.unified_diff(original.splitlines(), mutant.splitlines(), lineterm="",
                                     n=0):
        if line.startswith("+") and not line.startswith("+++"):
            return line[1:].strip()
    return "?"


def _killed_by(task: Task, inputs: tuple[Any, ...], codes: list[str],
               sandbox: Sandbox) -> list[bool]:
    """Which of ``codes`` some of ``inputs`` kills (the ground truth answers them here)."""
    if not codes or not inputs:
        return [False] * len(codes)
    # Other inputs than the suite's: its calibration does not describe them (limits then
    # come from the ground truth's times here).
    probe = replace(task, base_inputs=(), plus_inputs=inputs, calibration=None)
    truth = run_ground_truth([probe], sandbox)[task.task_id]
    return [row.killed for row in kill_rows(probe, truth, codes, sandbox, MUTANT_KILLS)]


def score_task(task: Task, stress: Task | None, dataset: Dataset, out: Path, extra: int,
               seed: int, sandbox: Sandbox) -> dict[str, Any]:
    """One task's mutants: killed by base, by base + plus, and by the independent inputs."""
    truth = run_ground_truth([task], sandbox)[task.task_id]
    tests = suite_tests(task, truth)
    document = requirement("mutants", task, truth, tests, out / "reduction", sandbox)
    rows = rows_from_wire(document["rows"])
    mutants = mutant_sources(task.solution)
    if len(mutants) != len(rows):
        raise SystemExit(f"{task.task_id}: {len(rows)} cached rows for {len(mutants)} mutants")
    n_base = len(task.base_inputs)
    by_base = [any(t < n_base for t in row.killers) for row in rows]
    by_suite = [row.killed for row in rows]
    survivors = [i for i, killed in enumerate(by_suite) if not killed]
    independent = [False] * len(rows)
    if survivors and stress is not None and stress.plus_inputs:
        for i, killed in zip(survivors, _killed_by(task, stress.plus_inputs,
                                                   [mutants[i].code for i in survivors],
                                                   sandbox), strict=True):
            independent[i] = killed
    left = [i for i in survivors if not independent[i]]
    if left and extra:
        config = AugmentConfig(dataset=dataset.name, per_task=extra, seed=seed + 1)
        reference = references([task], dataset)[task.task_id]
        fresh = augment_task(replace(task, plus_inputs=()), config, reference, dataset).plus
        for i, killed in zip(left, _killed_by(task, tuple(fresh),
                                              [mutants[i].code for i in left], sandbox),
                             strict=True):
            independent[i] = killed
    distinguishable = [s or i for s, i in zip(by_suite, independent, strict=True)]
    alive = [i for i in range(len(rows)) if distinguishable[i] and not by_suite[i]]
    return {
        "task_id": task.task_id, "mutants": len(rows),
        "non_equivalent_looking": sum(distinguishable),
        "killed_base": sum(b and d for b, d in zip(by_base, distinguishable, strict=True)),
        "killed_suite": sum(by_suite),
        "equivalent_looking": len(rows) - sum(distinguishable),
        "missed": [_changed_line(task.solution, mutants[i].code) for i in alive],
    }


def _share(part: int, whole: int) -> float:
    return part / whole if whole else 1.0


def report(rows: list[dict[str, Any]], threshold: float) -> str:
    """The totals, the per-task distribution and the tasks under ``threshold``."""
    mutants = sum(r["mutants"] for r in rows)
    distinct = sum(r["non_equivalent_looking"] for r in rows)
    base = sum(r["killed_base"] for r in rows)
    suite = sum(r["killed_suite"] for r in rows)
    per_base = [_share(r["killed_base"], r["non_equivalent_looking"]) for r in rows]
    per_suite = [_share(r["killed_suite"], r["non_equivalent_looking"]) for r in rows]
    lines = [
        f"{len(rows)} tasks, {mutants} mutants, {distinct} non-equivalent-looking "
        f"({mutants - distinct} survive every input we have: equivalent-looking)",
        f"killed by base:        {base:6d}  {_share(base, distinct):7.2%}   "
        f"per-task median {statistics.median(per_base):.2%}",
        f"killed by base + plus: {suite:6d}  {_share(suite, distinct):7.2%}   "
        f"per-task median {statistics.median(per_suite):.2%}",
    ]
    low = sorted((r for r in rows
                  if _share(r["killed_suite"], r["non_equivalent_looking"]) < threshold),
                 key=lambda r: _share(r["killed_suite"], r["non_equivalent_looking"]))
    lines.append(f"tasks where base + plus kills < {threshold:.0%} of the non-equivalent-looking "
                 f"mutants: {len(low)}")
    for r in low:
        lines.append(f"  {r['task_id']}: {r['killed_suite']}/{r['non_equivalent_looking']} "
                     f"(base {r['killed_base']}); a survivor: {r['missed'][0]!r}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="the folder `augment` wrote")
    parser.add_argument("--dataset", default="humaneval")
    parser.add_argument("--dataset-file", type=Path, default=None)
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--tasks", default=None, help="ids, numbers or ranges")
    parser.add_argument("--extra", type=int, default=1000,
                        help="independent inputs per task with survivors (0: none)")
    parser.add_argument("--seed", type=int, default=0, help="the suite's seed")
    parser.add_argument("--threshold", type=float, default=0.9)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    dataset = resolve(args.dataset, args.out / "data", args.dataset_file)
    tasks = select_tasks(load_plus_file(args.out / dataset.suite_file("plus")), args.tasks)
    stress_path = args.out / dataset.suite_file("stress")
    stress = {t.task_id: t for t in load_plus_file(stress_path)} if stress_path.is_file() else {}
    began = time.perf_counter()
    rows = []
    with Sandbox(args.jobs, judge=JUDGE) as sandbox:
        for number, task in enumerate(tasks, 1):
            rows.append(score_task(task, stress.get(task.task_id), dataset, args.out,
                                   args.extra, args.seed, sandbox))
            print(f"\r{number}/{len(tasks)} tasks", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(report(rows, args.threshold))
    print(f"({time.perf_counter() - began:.0f} s)")
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
