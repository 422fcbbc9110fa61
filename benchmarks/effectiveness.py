"""How many base-passing LLM samples a HumanEval+ artifact marks wrong, and a review of each.

Judges every sample in a folder of samples files against a suite file
(HumanEvalPlus format) with evalplus-ng's evaluator, then reports the samples
that pass the base tests, how many of those fail the plus tests (the "kills"),
per task and per model, and the first failing input of each kill. A sample that
fails the base tests is never counted, in any figure.

    python benchmarks/effectiveness.py ARTIFACT ../shared/samples/humaneval [-j 2] [--out F]
        [--floor SECONDS] [--factor F] [--review] [--verdicts F] [--stress STRESS_ARTIFACT]
    python benchmarks/effectiveness.py OUT/MbppPlus.jsonl.gz ../shared/samples/mbpp
        --dataset mbpp --dataset-file MbppPlus-v0.2.0-tasks.jsonl.gz [--review ...]

``--review`` lists, for every kill, the simplest valid input on which the sample
fails (its failing inputs shrunk under the task's contract, :mod:`evalplus_ng.evaluation.explain`),
the expected and actual outcomes there, and the reviewed verdict and family kept in
``--verdicts`` (default ``benchmarks/review/<dataset>-plus.json``: one entry per
distinct killed program, keyed by task and a hash of its code, with the input it was
reviewed on; ``verdict`` is ``real``, ``false`` or ``disputable``). Kills without a
reviewed verdict are listed as ``UNREVIEWED``, and those whose simplest failing input
is no longer the reviewed one as ``STALE``; the summary counts verdicts and families.

``--stress`` also judges the samples that pass base and plus against the stress tier
(``HumanEvalPlus-Stress.jsonl.gz``) and lists each one that fails it (an efficiency
kill), with the time the task's plain reference takes on the failing input.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from evalplus_ng.evaluation.explain import Explanation, simplest_failure
from evalplus_ng.evaluation.verdicts import (
    TIMEOUT,
    UNCALIBRATED_FLOOR_SECONDS,
    EvalConfig,
    SampleResult,
    evaluate_samples,
)
from evalplus_ng.generate.bounds import beyond
from evalplus_ng.generate.contract import Contract, load_contract
from evalplus_ng.generate.likeness import unlike
from evalplus_ng.judge import JUDGE
from evalplus_ng.oracle.groundtruth import Expected, ground_truth_job, run_ground_truth
from evalplus_ng.pipeline.augment import AugmentConfig, base_likeness, references, task_bounds
from evalplus_ng.records import Job, Outcome, Sample, Status, Task, Verdict
from evalplus_ng.sandbox import Sandbox
from evalplus_ng.serialize import decode, encode
from evalplus_ng.tasks.plusfile import load_plus_file
from evalplus_ng.tasks.registry import resolve
from evalplus_ng.tasks.samples import model_of, read_sample_folder
from evalplus_ng.tasks.spec import Dataset
from evalplus_ng.types import Args

#: find_zero's check() accepts any root; EvalPlus's figures leave it out too.
EXCLUDED = {"HumanEval/32"}
REVIEWS = Path(__file__).resolve().parent / "review"
#: How long the plain reference may take on an efficiency kill's input when timed.
PLAIN_TIMING_SECONDS = 10.0


def kill_key(task_id: str, code: str) -> str:
    """A killed program's identity in the reviewed verdicts: task and code hash."""
    return f"{task_id}:{hashlib.sha256(code.encode()).hexdigest()[:12]}"


def load_verdicts(path: Path) -> dict[str, dict[str, str]]:
    """Reviewed verdicts by :func:`kill_key`; an absent file holds none."""
    if not path.is_file():
        return {}
    entries = json.loads(path.read_text(encoding="utf-8"))
    return {entry["key"]: entry for entry in entries}


def judge(tasks: Mapping[str, Task], samples: Sequence[Sample], sandbox: Sandbox,
          config: EvalConfig) -> tuple[list[SampleResult], list[int], list[int], int]:
    """Results, base-passing positions, kills (timeouts confirmed by a second run) and
    the count of timeouts not confirmed."""
    truths = run_ground_truth(list(tasks.values()), sandbox)
    results = [r for _, r in evaluate_samples(tasks, truths, samples, sandbox, config)]
    base_pass = [i for i, r in enumerate(results)
                 if r.base_status is Verdict.PASS and r.task_id not in EXCLUDED]
    kills = [i for i in base_pass if results[i].plus_status is not Verdict.PASS]
    # A timeout on a busy machine may be the machine: judge those samples once more
    # and count the kill only when the second run does not pass either.
    timed_out = [i for i in kills if results[i].plus_failure == TIMEOUT]
    again = dict(zip(timed_out, (r for _, r in evaluate_samples(
        tasks, truths, [samples[i] for i in timed_out], sandbox, config)), strict=True))
    unconfirmed = {i for i, r in again.items() if r.plus_status is Verdict.PASS}
    return results, base_pass, [i for i in kills if i not in unconfirmed], len(unconfirmed)


def _shown(outcome: Outcome) -> str:
    if outcome.status is Status.OK:
        try:
            return repr(decode(outcome.value))[:200]
        except ValueError:  # an int past CPython's 4,300 digits for str()
            return "<a value holding an integer of more than 4300 digits>"
    return f"{outcome.status.value}: {(outcome.error or '')[:160]}"


def review_seconds(task: Task, config: EvalConfig) -> float:
    """The time limit a kill's failing inputs run again with: the floor ``evaluate`` used
    (the suite's calibrated one unless ``--floor`` is given)."""
    if config.floor_seconds is not None:
        return config.floor_seconds
    if task.calibration is not None:
        return task.calibration.floor_seconds
    return UNCALIBRATED_FLOOR_SECONDS


def _failing(task: Task, truth: Expected, code: str, sandbox: Sandbox,
             seconds: float) -> list[Args]:
    """Up to 32 plus inputs on which ``code`` fails (at most 2 timeouts: each costs a limit)."""
    usable = truth.usable
    inputs = [task.plus_inputs[i] for i in usable]
    job = Job(code=code, entry_point=task.entry_point,
              inputs=[encode(list(args)) for args in inputs],
              time_limits=[seconds] * len(inputs),
              expected=[truth.outputs[i] for i in usable], task_id=task.task_id,
              atol=task.atol, fail_fast=False, max_timeouts=2, max_failures=32)
    result = sandbox.run(job)
    return [inputs[i] for i, ok in enumerate(result.passed) if not ok]


def plus_tier(task: Task, contract: Contract, sandbox: Sandbox) -> Callable[[Args, Any], bool]:
    """Whether the plus tier would hold an input (given the ground truth's answer): within
    the task's bounds and, where its contract is inferred, no edge of its base tests."""
    bounds = task_bounds(task, contract)
    likeness = None if contract.written else base_likeness(task, AugmentConfig(), sandbox)

    def keep(args: Args, answer: Any) -> bool:
        return beyond(bounds, args) is None and (
            likeness is None or unlike(likeness, args, answer) is None)

    return keep


def explain_kills(tasks: Mapping[str, Task], samples: Sequence[Sample], kills: Sequence[int],
                  sandbox: Sandbox, config: EvalConfig, dataset: Dataset,
                  within: bool = True) -> dict[str, Explanation | None]:
    """The simplest failing input of each distinct killed program, by :func:`kill_key`
    (``within``: among inputs the plus tier would hold, :func:`plus_tier`)."""
    keeps: dict[str, Callable[[Args, Any], bool]] = {}
    distinct: dict[str, int] = {}
    for i in kills:
        distinct.setdefault(kill_key(samples[i].task_id, samples[i].code), i)
    truths = run_ground_truth([tasks[t] for t in sorted({samples[i].task_id for i in kills})],
                              sandbox)
    explained: dict[str, Explanation | None] = {}
    for number, (key, position) in enumerate(distinct.items()):
        sample = samples[position]
        task = tasks[sample.task_id]
        contract = load_contract(task, dataset.contract_path(task.task_id))
        seconds = review_seconds(task, config)
        failing = _failing(task, truths[task.task_id].plus, sample.code, sandbox, seconds)
        if within and task.task_id not in keeps:
            keeps[task.task_id] = plus_tier(task, contract, sandbox)
        explained[key] = simplest_failure(task, sample.code, failing, contract.valid, sandbox,
                                          seconds, keep=keeps.get(task.task_id))
        print(f"\rexplained {number + 1}/{len(distinct)}", end="", file=sys.stderr)
    print(file=sys.stderr)
    return explained


def review_rows(tasks: Mapping[str, Task], samples: Sequence[Sample], origin: Sequence[str],
                kills: Sequence[int], explained: Mapping[str, Explanation | None],
                verdicts: Mapping[str, Mapping[str, str]]) -> list[dict[str, Any]]:
    """One row per kill: where it is, its simplest failing input, and its reviewed verdict."""
    rows = []
    for i in kills:
        sample = samples[i]
        key = kill_key(sample.task_id, sample.code)
        found = explained.get(key)
        shown = repr(found.args)[:400] if found else None
        reviewed = verdicts.get(key, {})
        if reviewed and reviewed.get("input") != shown:
            # A verdict holds for the input it was given on; a new simplest input (the
            # suite or the contract changed) needs a new look.
            reviewed = {"verdict": "STALE", "note": f"reviewed on {reviewed.get('input')}"}
        rows.append({
            "key": key, "sample": origin[i], "model": model_of(origin[i].split(":")[0]),
            "task_id": sample.task_id, "entry_point": tasks[sample.task_id].entry_point,
            "input": shown,
            "expected": _shown(found.expected) if found else None,
            "actual": _shown(found.actual) if found else "not reproduced",
            "verdict": reviewed.get("verdict", "UNREVIEWED"),
            "family": reviewed.get("family", ""), "note": reviewed.get("note", ""),
            "code": sample.code,
        })
    return rows


def stress_kills(stress_path: Path, tasks: Mapping[str, Task], samples: Sequence[Sample],
                 origin: Sequence[str], passing: Sequence[int], sandbox: Sandbox,
                 config: EvalConfig, dataset: Dataset) -> list[dict[str, Any]]:
    """Samples that pass base and plus but fail the stress tier, with the plain
    reference's time on the first failing stress input."""
    stress = {task.task_id: task for task in load_plus_file(stress_path, dataset.equality())}
    chosen = [i for i in passing if samples[i].task_id in stress]
    truths = run_ground_truth([stress[t] for t in {samples[i].task_id for i in chosen}],
                              sandbox)
    results = [r for _, r in evaluate_samples(stress, truths, [samples[i] for i in chosen],
                                              sandbox, config)]
    plain = references(dataset.load(), dataset)
    rows = []
    for i, result in zip(chosen, results, strict=True):
        if result.plus_status is Verdict.PASS or not result.plus_fail_tests:
            continue
        task, args = stress[result.task_id], result.plus_fail_tests[0]
        job = ground_truth_job(task, [args], PLAIN_TIMING_SECONDS, code=plain[task.task_id].code)
        timing = sandbox.run(job).outcomes
        seconds = timing[0].seconds if timing and timing[0].status is Status.OK else None
        rows.append({"sample": origin[i], "model": model_of(origin[i].split(":")[0]),
                     "task_id": result.task_id, "status": result.plus_status.value
                     if result.plus_status else None, "input": repr(args)[:200],
                     "plain_reference": plain[task.task_id].origin,
                     "plain_seconds": seconds})
    return rows


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
    parser.add_argument("--review", action="store_true",
                        help="explain every kill and join it with the reviewed verdicts")
    parser.add_argument("--any-tier", action="store_true",
                        help="shrink a kill's input through any valid input, not only those "
                             "the plus tier would hold (for a stress or edge suite)")
    parser.add_argument("--verdicts", type=Path, default=None,
                        help="reviewed verdicts [default: review/<dataset>-plus.json]")
    parser.add_argument("--stress", type=Path, default=None,
                        help="the stress tier: list the efficiency kills apart")
    parser.add_argument("--dataset", choices=("humaneval", "mbpp"), default="humaneval")
    parser.add_argument("--dataset-file", type=Path, default=None)
    options = parser.parse_args()
    config = EvalConfig(floor_seconds=options.floor, factor=options.factor)
    dataset = resolve(options.dataset, dataset_file=options.dataset_file)
    verdicts = options.verdicts or REVIEWS / f"{options.dataset}-plus.json"

    tasks = {task.task_id: task
             for task in load_plus_file(options.artifact, dataset.equality())}
    found = read_sample_folder(options.folder, tasks)
    samples = [sample for _, sample in found]
    origin = [f"{name}:{sample.line}" for name, sample in found]
    print(f"{len(samples)} samples, {len(tasks)} tasks", file=sys.stderr)
    began = time.monotonic()
    report: dict[str, Any] = {}
    with Sandbox(options.jobs, judge=JUDGE) as sandbox:
        results, base_pass, kills, unconfirmed = judge(tasks, samples, sandbox, config)
        print(f"timeouts not confirmed by a second run (dropped): {unconfirmed}")
        print(f"judged in {time.monotonic() - began:.0f}s")
        print(f"base-passing samples (excluding {', '.join(sorted(EXCLUDED))}): "
              f"{len(base_pass)}")
        print(f"killed by the plus inputs: {len(kills)}")
        per_task = Counter(results[i].task_id for i in kills)
        print("kills per task:", ", ".join(f"{t}:{n}" for t, n in per_task.most_common()))
        per_model = Counter(model_of(origin[i].split(":")[0]) for i in kills)
        print("kills per model:", ", ".join(f"{m}:{n}" for m, n in per_model.most_common()))
        report["kills"] = [{"sample": origin[i], "task_id": results[i].task_id,
                            "key": kill_key(results[i].task_id, samples[i].code),
                            "plus_status": results[i].plus_status.value
                            if results[i].plus_status else None,
                            "failing_input": repr(results[i].plus_fail_tests[:1])[:300]}
                           for i in kills]
        if options.review:
            explained = explain_kills(tasks, samples, kills, sandbox, config, dataset,
                                      within=not options.any_tier)
            rows = review_rows(tasks, samples, origin, kills, explained,
                               load_verdicts(verdicts))
            report["review"] = rows
            for row in rows:
                print(f"{row['verdict']:<11} {row['family'][:28]:<28} {row['sample']}  "
                      f"{row['entry_point']}{row['input']}: expected {row['expected']}, "
                      f"got {row['actual']}")
            print("verdicts:", dict(Counter(row["verdict"] for row in rows)))
            print("families (real):", ", ".join(
                f"{f}:{n}" for f, n in Counter(r["family"] for r in rows
                                               if r["verdict"] == "real").most_common()))
        if options.stress is not None:
            killed = set(kills)
            passing = [i for i in base_pass if i not in killed]
            rows = stress_kills(options.stress, tasks, samples, origin, passing, sandbox, config,
                                dataset)
            report["stress"] = rows
            print(f"efficiency kills (pass base and plus, fail stress): {len(rows)}")
            for row in rows:
                took = row["plain_seconds"]
                shown = f"over {PLAIN_TIMING_SECONDS:.0f} s" if took is None else f"{took:.4f} s"
                print(f"  {row['task_id']} {row['sample']} {row['status']} on {row['input']}; "
                      f"plain reference ({row['plain_reference']}): {shown}")
    if options.out:
        options.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
