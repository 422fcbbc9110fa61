"""How many base-passing LLM samples a HumanEval+ artifact marks wrong.

Judges every sample in a folder of samples files against a suite file
(HumanEvalPlus format) with evalplus-ng's evaluator, then reports the samples
that pass the base tests, how many of those fail the plus tests (the "kills"),
per task and per model, and the first failing input of each kill.

    python benchmarks/effectiveness.py ARTIFACT ../shared/samples/humaneval [-j 2] [--out F]
        [--floor SECONDS] [--factor F]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

from evalplus_ng.dataset import load_plus_file
from evalplus_ng.evaluate import EvalConfig, evaluate_samples
from evalplus_ng.groundtruth import run_ground_truth
from evalplus_ng.records import Verdict
from evalplus_ng.samples import read_sample_folder
from evalplus_ng.sandbox import Sandbox

#: find_zero's check() accepts any root; EvalPlus's figures leave it out too.
EXCLUDED = {"HumanEval/32"}


def model_of(file_name: str) -> str:
    """Files sharing the part before the prompt template come from one model."""
    stem = file_name.removesuffix(".jsonl")
    parts = stem.split("_")
    for index, part in enumerate(parts):
        if part.isupper() and index > 1:
            return "_".join(parts[:index])
    return stem


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("artifact", type=Path)
    parser.add_argument("folder", type=Path)
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--floor", type=float, default=None,
                        help="least time limit, seconds [default: the suite's calibration, "
                             "else 1 s]; 1 matches EvalPlus's own default")
    parser.add_argument("--factor", type=float, default=None,
                        help="time limit as a multiple of the ground truth's time")
    options = parser.parse_args()
    config = EvalConfig(floor_seconds=options.floor, factor=options.factor)

    tasks = {task.task_id: task for task in load_plus_file(options.artifact)}
    found = read_sample_folder(options.folder, tasks)
    samples = [sample for _, sample in found]
    origin = [f"{name}:{sample.line}" for name, sample in found]
    print(f"{len(samples)} samples, {len(tasks)} tasks", file=sys.stderr)
    began = time.monotonic()
    with Sandbox(options.jobs) as sandbox:
        truths = run_ground_truth(list(tasks.values()), sandbox)
        results = [r for _, r in evaluate_samples(tasks, truths, samples, sandbox, config)]
        base_pass = [i for i, r in enumerate(results)
                     if r.base_status is Verdict.PASS and r.task_id not in EXCLUDED]
        kills = [i for i in base_pass if results[i].plus_status is not Verdict.PASS]
        # A timeout on a busy machine may be the machine: judge those samples once more
        # and count the kill only when the second run does not pass either.
        timed_out = [i for i in kills if results[i].plus_status is Verdict.TIMEOUT]
        again = {index: result for index, (_, result) in zip(timed_out, evaluate_samples(
            tasks, truths, [samples[i] for i in timed_out], sandbox, config), strict=True)}
    unconfirmed = [i for i, r in again.items() if r.plus_status is Verdict.PASS]
    kills = [i for i in kills if i not in set(unconfirmed)]
    seconds = time.monotonic() - began
    print(f"timeouts re-judged: {len(timed_out)}, not confirmed (dropped): {len(unconfirmed)}")
    print(f"judged in {seconds:.0f}s")
    print(f"base-passing samples (excluding {', '.join(sorted(EXCLUDED))}): {len(base_pass)}")
    print(f"killed by the plus inputs: {len(kills)}")
    per_task = Counter(results[i].task_id for i in kills)
    print("kills per task:", ", ".join(f"{t}:{n}" for t, n in per_task.most_common()))
    per_model = Counter(model_of(origin[i].split(":")[0]) for i in kills)
    print("kills per model:", ", ".join(f"{m}:{n}" for m, n in per_model.most_common()))
    rows = []
    for i in kills:
        result = results[i]
        rows.append({"sample": origin[i], "task_id": result.task_id,
                     "plus_status": result.plus_status.value if result.plus_status else None,
                     "failing_input": repr(result.plus_fail_tests[:1])[:300]})
    if options.out:
        options.out.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
