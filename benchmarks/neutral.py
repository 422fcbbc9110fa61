"""Kills counted by a neutral judge: evalplus 0.3.1 on our artifact, compared with ours.

Our own evaluator agreeing with our own suite proves little. This judges every
sample of a folder with evalplus 0.3.1 (its own sandbox, its own output comparison,
its default limits: 1 s floor, 4 x the ground truth) pointed at our suite through
``HUMANEVAL_OVERRIDE_PATH`` (``MBPP_OVERRIDE_PATH`` with ``--dataset mbpp``), and counts
its kills: samples that pass the base tests and fail the plus tests (HumanEval/32 left
out, as EvalPlus's figures do). With ``--ours`` (the ``--out`` file of
``benchmarks/effectiveness.py``), it lists the kills only one of the two judges counts.
``--out`` keeps each kill with evalplus's first failing plus input, for review.

    python benchmarks/neutral.py ARTIFACT ../shared/samples/humaneval [-j 2] [--ours F]
        [--venv DIR] [--out F]
    python benchmarks/neutral.py OUT/MbppPlus.jsonl.gz ../shared/samples/mbpp --dataset mbpp

HumanEval samples are sanitized to a fixed point first and given to both tools as full
code (``benchmarks/evaluate.py``'s ``write_samples``); MBPP's samples are complete
programs already and are given as they are. A task of the suite without a sample gets its
own reference as a filler (evalplus wants every task), never counted. evalplus lives in a
scratch venv.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from effectiveness import EXCLUDED, model_of
from evaluate import (
    DEFAULT_VENV,
    Origin,
    load_verdicts,
    run_evalplus,
    venv_python,
    write_samples,
)

from evalplus_ng.records import Task
from evalplus_ng.tasks.plusfile import load_plus_file

FILLER = "(filler)"


def write_raw(files: list[Path], tasks: dict[str, Task], out: Path) -> list[Origin]:
    """Every solution of ``files`` as it is, then the reference of each task without one."""
    origins: list[Origin] = []
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                record = json.loads(line)
                code = record.get("solution", record.get("completion", ""))
                origins.append(Origin(path.name, number, record["task_id"], code, 1))
    with out.open("w", encoding="utf-8") as handle:
        seen = {origin.task_id for origin in origins}
        origins += [Origin(FILLER, 0, task_id, task.solution, 1)
                    for task_id, task in tasks.items() if task_id not in seen]
        for origin in origins:
            handle.write(json.dumps({"task_id": origin.task_id,
                                     "solution": origin.solution}) + "\n")
    return origins


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("artifact", type=Path)
    parser.add_argument("folder", type=Path)
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--venv", type=Path, default=DEFAULT_VENV)
    parser.add_argument("--ours", type=Path, default=None,
                        help="benchmarks/effectiveness.py --out file to compare with")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--dataset", choices=("humaneval", "mbpp"), default="humaneval")
    options = parser.parse_args()

    tasks = {task.task_id: task for task in load_plus_file(options.artifact)}
    python = venv_python(options.venv)
    with tempfile.TemporaryDirectory(prefix="neutral-") as scratch:
        folder = Path(scratch)
        samples = folder / "samples.jsonl"
        files = sorted(options.folder.glob("*.jsonl"))
        origins = (write_raw(files, tasks, samples) if options.dataset == "mbpp"
                   else write_samples(files, tasks, samples))
        run = run_evalplus(python, samples, options.artifact.resolve(), options.jobs,
                           folder / "evalplus", folder / "cache", "evalplus", options.dataset)
        table = load_verdicts(run.results)
    rank: Counter[str] = Counter()
    base_pass, kills, witnesses = 0, [], []
    for origin in origins:
        entry = table[origin.task_id][rank[origin.task_id]]
        rank[origin.task_id] += 1
        if (origin.task_id in EXCLUDED or origin.file == FILLER
                or entry["base_status"] != "pass"):
            continue
        base_pass += 1
        if entry["plus_status"] != "pass":
            kills.append(f"{origin.file}:{origin.line}")
            witnesses.append({"sample": kills[-1], "task_id": origin.task_id,
                              "status": entry["plus_status"],
                              "input": (entry.get("plus_fail_tests") or [None])[0],
                              "solution": origin.solution})
    print(f"evalplus 0.3.1 on {options.artifact}: {run.seconds:.0f}s")
    print(f"base-passing samples (excluding {', '.join(sorted(EXCLUDED))}): {base_pass}")
    print(f"killed by the plus inputs: {len(kills)}")
    per_model = Counter(model_of(k.split(":")[0]) for k in kills)
    print("kills per model:", ", ".join(f"{m}:{n}" for m, n in per_model.most_common()))
    report: dict[str, object] = {"base_pass": base_pass, "kills": kills,
                                 "witnesses": witnesses}
    if options.ours is not None:
        ours = {row["sample"] for row in json.loads(options.ours.read_text())["kills"]}
        theirs = set(kills)
        report["only_ours"] = sorted(ours - theirs)
        report["only_evalplus"] = sorted(theirs - ours)
        print(f"both judges: {len(ours & theirs)}, only ours: {len(ours - theirs)}, "
              f"only evalplus: {len(theirs - ours)}")
        for name in ("only_ours", "only_evalplus"):
            for sample in report[name]:  # type: ignore[attr-defined]
                print(f"  {name}: {sample}")
    if options.out:
        options.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
