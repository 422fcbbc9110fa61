"""Default verdicts of evalplus-ng against EvalPlus's documented workflow, sample by sample.

EvalPlus's workflow is ``evalplus.sanitize`` on the samples, then ``evalplus.evaluate``
on the sanitized file; ``evalplus-ng evaluate`` with default flags must give each sample
the same verdicts (base, and base + plus) on the same suite. This runs both on the same
samples file and compares:

1. **Samples.** The chosen samples files concatenated as they are (``completion`` or
   ``solution``), then, for each task of the suite without a sample, its reference as a
   ``solution`` (a filler: evalplus wants every task; fillers are not compared).
2. **evalplus 0.3.1** (scratch venv, ``--venv``): ``evalplus.sanitize``'s own script on that
   file (the dataset it does not judge replaced by an empty one: the script loads both
   HumanEval+ and MBPP+ only for entry points and prompts), then ``evalplus.evaluate`` on
   the ``-sanitized`` file through ``HUMANEVAL_OVERRIDE_PATH`` / ``MBPP_OVERRIDE_PATH``,
   ``HOME``/``XDG_CACHE_HOME`` in a scratch folder, ``--min_time_limit 1
   --gt_time_limit_factor 4``.
3. **evalplus-ng**, default flags, ``--suite SUITE``, the same limits; then again with
   ``--repair`` (unless ``--no-repair``), for how many verdicts the repairs change.
4. **Compare** by (task, rank within the task): the program each ran (the ``solution`` of
   each results file) and the verdicts. A sample judged apart is judged again alone (the
   suite cut to its task, both tools, the same limits): time limits under load are flaky.
   What is left is listed with both programs' first differing line or both failing inputs.

    python benchmarks/sanitize_agreement.py --suite HumanEvalPlus.jsonl.gz \\
        [--samples-dir ../shared/samples/humaneval] [--files 12 | --all] [-j 2] [--json F]
    python benchmarks/sanitize_agreement.py --dataset mbpp --suite MbppPlus.jsonl.gz \\
        --dataset-file MbppPlus-v0.2.0-tasks.jsonl.gz --samples-dir ../shared/samples/mbpp --all
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from evaluate import (
    DEFAULT_VENV,
    MIN_TIME_LIMIT,
    OVERRIDE_VARIABLES,
    ROOT,
    TIME_FACTOR,
    Verdicts,
    load_verdicts,
    run_evalplus,
    venv_python,
)

from evalplus_ng.tasks.plusfile import load_plus_file

FILLER = "(filler)"
#: Samples judged apart that are judged again alone (each costs two short runs).
MOST_RERUNS = 40

# ``evalplus.sanitize``'s script, with the dataset not judged replaced by an empty one.
_SANITIZE_DRIVER = r"""
import sys
import evalplus.sanitize as sanitize
judged = sys.argv.pop(1)
if judged == "humaneval":
    sanitize.get_mbpp_plus = lambda **kwargs: {}
else:
    sanitize.get_human_eval_plus = lambda **kwargs: {}
sys.argv[0] = "evalplus.sanitize"
sanitize.main()
"""


@dataclass(frozen=True)
class Origin:
    """A sample of the concatenated file: where it came from, its task, its record."""

    file: str
    line: int
    task_id: str
    record: dict[str, Any]


def write_samples(files: Sequence[Path], suite: Path, out: Path) -> list[Origin]:
    """Every record of ``files`` as written, then a filler per task of ``suite`` without one."""
    tasks = {task.task_id: task for task in load_plus_file(suite)}
    origins: list[Origin] = []
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                record = json.loads(line)
                answer = {key: record[key] for key in ("solution", "completion")
                          if key in record}
                origins.append(Origin(path.name, number, record["task_id"],
                                      {"task_id": record["task_id"], **answer}))
    seen = {origin.task_id for origin in origins}
    origins += [Origin(FILLER, 0, task_id, {"task_id": task_id, "solution": task.solution})
                for task_id, task in tasks.items() if task_id not in seen]
    out.write_text("".join(json.dumps(o.record) + "\n" for o in origins), encoding="utf-8")
    return origins


def _env(dataset: str, suite: Path, cache: Path) -> dict[str, str]:
    (cache / "home").mkdir(parents=True, exist_ok=True)
    env = dict(os.environ)
    env.pop("EVALPLUS_TIMEOUT_PER_TASK", None)
    env.pop("EVALPLUS_MAX_MEMORY_BYTES", None)
    env.update({OVERRIDE_VARIABLES[dataset]: str(suite), "HOME": str(cache / "home"),
                "XDG_CACHE_HOME": str(cache / "xdg"), "TOKENIZERS_PARALLELISM": "false"})
    return env


def evalplus_workflow(python: Path, samples: Path, suite: Path, dataset: str, jobs: int,
                      folder: Path, cache: Path) -> tuple[Verdicts, float]:
    """``evalplus.sanitize`` then ``evalplus.evaluate`` on its output: the verdicts, seconds."""
    folder.mkdir(parents=True, exist_ok=True)
    began = time.perf_counter()
    with (folder / "sanitize.log").open("w") as log:
        subprocess.run([str(python), "-c", _SANITIZE_DRIVER, dataset, "--samples",
                        str(samples)], stdout=log, stderr=subprocess.STDOUT, check=True,
                       stdin=subprocess.DEVNULL, env=_env(dataset, suite, cache), cwd=folder)
    sanitized = samples.with_name(samples.name.replace(".jsonl", "-sanitized.jsonl"))
    run = run_evalplus(python, sanitized, suite, jobs, folder / "evaluate", cache,
                       "evalplus", dataset)
    assert run.results is not None
    return load_verdicts(run.results), time.perf_counter() - began


def ours(samples: Path, suite: Path, options: argparse.Namespace, results: Path,
         *flags: str) -> tuple[Verdicts, str]:
    """``evalplus-ng evaluate`` with default flags (and ``flags``): verdicts, its output."""
    command = [sys.executable, "-m", "evalplus_ng.cli", "evaluate", "--samples", str(samples),
               "--suite", str(suite), "-j", str(options.jobs), "--min-time-limit",
               str(MIN_TIME_LIMIT), "--time-factor", str(TIME_FACTOR), "--results",
               str(results), "--dataset", options.dataset, *flags]
    if options.dataset_file is not None:
        command += ["--dataset-file", str(options.dataset_file)]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    done = subprocess.run(command, capture_output=True, text=True, env=env,
                          stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        raise SystemExit(f"evalplus-ng failed ({done.returncode}):\n{done.stderr}")
    return load_verdicts(results), done.stdout


def passes(entry: dict[str, Any]) -> tuple[bool, bool]:
    """Base pass, and base and plus pass."""
    base = entry["base_status"] == "pass"
    return base, base and entry["plus_status"] == "pass"


def paired(origins: Sequence[Origin], *tables: Verdicts) -> list[list[dict[str, Any]]]:
    """Each sample's entry in each table (same task, same rank within the task)."""
    rank: Counter[str] = Counter()
    rows = []
    for origin in origins:
        rows.append([table[origin.task_id][rank[origin.task_id]] for table in tables])
        rank[origin.task_id] += 1
    return rows


def cut_suite(suite: Path, task_id: str, out: Path) -> Path:
    """``suite`` with the one task ``task_id``, its line unchanged."""
    with gzip.open(suite, "rt", encoding="utf-8") as source, \
            gzip.open(out, "wt", encoding="utf-8") as target:
        target.writelines(line for line in source if json.loads(line)["task_id"] == task_id)
    return out


def alone(python: Path, origin: Origin, suite: Path, options: argparse.Namespace,
          folder: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """One sample judged again by both tools, the suite cut to its task."""
    folder.mkdir(parents=True, exist_ok=True)
    small = cut_suite(suite, origin.task_id, folder / suite.name)
    samples = folder / "samples.jsonl"
    samples.write_text(json.dumps(origin.record) + "\n", encoding="utf-8")
    theirs, _ = evalplus_workflow(python, samples, small, options.dataset, options.jobs,
                                  folder / "evalplus", folder / "cache")
    mine, _ = ours(samples, small, options, folder / "ours.json")
    return mine[origin.task_id][0], theirs[origin.task_id][0]


def first_difference(mine: str, theirs: str) -> str:
    """The first line where two programs differ, each side shortened."""
    a, b = mine.split("\n"), theirs.split("\n")
    for index in range(max(len(a), len(b))):
        left = a[index] if index < len(a) else "<end>"
        right = b[index] if index < len(b) else "<end>"
        if left != right:
            return f"line {index + 1}: ours {left[:60]!r} / evalplus {right[:60]!r}"
    return "same text"


def _repair_line(output: str) -> str:
    return "; ".join(line for line in output.splitlines()
                     if re.match(r"(repairs|without repairs)", line))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--suite", type=Path, required=True)
    parser.add_argument("--dataset", choices=sorted(OVERRIDE_VARIABLES), default="humaneval")
    parser.add_argument("--dataset-file", type=Path, default=None)
    parser.add_argument("--samples-dir", type=Path,
                        default=Path("/work/shared/samples/humaneval"))
    parser.add_argument("--files", type=int, default=12,
                        help="how many samples files, spread evenly over the sorted list")
    parser.add_argument("--all", action="store_true", help="every samples file")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--venv", type=Path, default=DEFAULT_VENV)
    parser.add_argument("--work", type=Path, default=None, help="scratch folder (kept)")
    parser.add_argument("--no-repair", action="store_true", help="skip the --repair run")
    parser.add_argument("--reuse", action="store_true",
                        help="reuse evalplus's results already in --work (same samples)")
    parser.add_argument("--json", type=Path, default=None)
    options = parser.parse_args(argv)
    options.suite = options.suite.resolve()
    if options.dataset_file is not None:
        options.dataset_file = options.dataset_file.resolve()
    files = sorted(options.samples_dir.glob("*.jsonl"))
    if not options.all and len(files) > options.files:
        step = len(files) / options.files
        files = [files[int(index * step)] for index in range(options.files)]
    work = (options.work or Path(tempfile.mkdtemp(prefix="sanitize-agreement-"))).resolve()
    work.mkdir(parents=True, exist_ok=True)
    python = venv_python(options.venv)
    samples = work / "samples.jsonl"
    origins = write_samples(files, options.suite, samples)
    judged = [o for o in origins if o.file != FILLER]
    print(f"{len(judged)} samples from {len(files)} file(s) (+{len(origins) - len(judged)} "
          f"fillers); scratch {work}", file=sys.stderr)

    earlier = sorted((work / "evalplus" / "evaluate").glob("*_eval_results.json"))
    if options.reuse and earlier:
        theirs = load_verdicts(earlier[0])
        print(f"evalplus sanitize + evaluate: reused {earlier[0]}", file=sys.stderr)
    else:
        theirs, seconds = evalplus_workflow(python, samples, options.suite, options.dataset,
                                            options.jobs, work / "evalplus", work / "cache")
        print(f"evalplus sanitize + evaluate: {seconds:.0f}s", file=sys.stderr)
    began = time.perf_counter()
    mine, _ = ours(samples, options.suite, options, work / "ours.json")
    print(f"evalplus-ng evaluate: {time.perf_counter() - began:.0f}s", file=sys.stderr)
    tables = [mine, theirs]
    repair_summary = ""
    if not options.no_repair:
        repaired, output = ours(samples, options.suite, options, work / "ours-repair.json",
                                "--repair")
        tables.append(repaired)
        repair_summary = _repair_line(output)

    same_code = 0
    agree: Counter[str] = Counter()
    differ: list[dict[str, Any]] = []
    repair_changed: list[str] = []
    for origin, entries in zip(origins, paired(origins, *tables), strict=True):
        if origin.file == FILLER:
            continue
        where = f"{origin.file}:{origin.line}"
        mine_entry, their_entry = entries[0], entries[1]
        same_code += mine_entry["solution"] == their_entry["solution"]
        if len(entries) > 2 and passes(entries[2]) != passes(mine_entry):
            repair_changed.append(f"{where} {origin.task_id}: default {passes(mine_entry)}, "
                                  f"--repair {passes(entries[2])}")
        if passes(mine_entry) == passes(their_entry):
            agree["first run"] += 1
            continue
        differ.append({"sample": where, "task_id": origin.task_id, "origin": origin,
                       "ours": passes(mine_entry), "evalplus": passes(their_entry),
                       "program": first_difference(mine_entry["solution"],
                                                   their_entry["solution"])})
    for number, row in enumerate(differ):
        if number >= MOST_RERUNS:
            row["alone"] = "not run again"
            continue
        again_mine, again_theirs = alone(python, row["origin"], options.suite, options,
                                         work / f"alone-{number}")
        row["alone"] = {"ours": [again_mine["base_status"], again_mine["plus_status"]],
                        "evalplus": [again_theirs["base_status"], again_theirs["plus_status"]],
                        "agree": passes(again_mine) == passes(again_theirs),
                        "ours_fail": [again_mine.get("base_fail_tests"),
                                      again_mine.get("plus_fail_tests")],
                        "evalplus_fail": [again_theirs.get("base_fail_tests"),
                                          again_theirs.get("plus_fail_tests")]}
        if row["alone"]["agree"]:
            agree["run again alone"] += 1
        del row["origin"]
    for row in differ:
        row.pop("origin", None)
    left = [row for row in differ if not (isinstance(row["alone"], dict)
                                          and row["alone"]["agree"])]
    report = {
        "dataset": options.dataset, "suite": str(options.suite),
        "files": [path.name for path in files], "samples": len(judged),
        "same_program_text": same_code, "agree": dict(agree),
        "judged_apart_first": len(differ), "disagreements": left,
        "flaky": [row for row in differ if row not in left],
        "repair": {"summary": repair_summary, "verdicts_changed": len(repair_changed),
                   "samples": repair_changed},
    }
    print(f"{options.dataset}: {len(judged)} samples of {len(files)} file(s); same program "
          f"text as evalplus.sanitize's: {same_code}")
    print(f"verdicts (base, base+plus) equal: {agree['first run']} at first, "
          f"{agree['run again alone']} more when run again alone; apart: {len(left)}")
    for row in left:
        print(f"  {row['sample']} {row['task_id']}: ours {row['ours']}, evalplus "
              f"{row['evalplus']}; {row['program']}; alone: {row['alone']}")
    if repair_summary:
        print(f"--repair: {repair_summary}")
        print(f"  verdicts changed by --repair (from the two results files): "
              f"{len(repair_changed)}")
    if options.json is not None:
        options.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
