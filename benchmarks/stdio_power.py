"""Test power on CodeContests' stdin/stdout tasks: kills by ``augment``'s suite against
kills by CodeContests' own hidden tests (private + generated), on programs that pass the
public tests.

The tasks: every one whose statement does not suggest several right answers (those need a
checker). The programs: mutants of every reference (:func:`evalplus_ng.reduce.slips.slip_sources`
with every kind, module-level code included: operator, bound, constant slips and the
rest), up to ``--per-task`` a task chosen evenly over the kinds (a seeded shuffle); and the
agents' rewrites in ``solutions.jsonl.gz``, right and wrong (a right one our suite fails is
a false kill, found without review). Each is judged on the public tests first; those that
pass are judged on CodeContests' hidden tests (``original``), on ``augment``'s plus tier
(correctness) and, where the plus tier missed, on its stress tier (efficiency), each
stopping at its first failure.

A kill is a program that passes the public tests and fails a suite. Every disagreement
(killed by one side only) is written to ``--review``: the changed line, the simplest
failing input of the killing side (fewest characters), the expected output and the
program's, for a reader to decide whether the input is valid per the statement and the
program really wrong there. Survivors of both (missed, or equivalent mutants) are counted,
not reviewed.

Tasks are judged one at a time, each (its rows and review entries) appended as one JSON
line to a progress file beside ``--out`` (``power.json.partial.jsonl``) as soon as it is
done, and progress (tasks done of all, elapsed seconds) goes to stderr: a run stopped
part way and started again with the same arguments skips the tasks recorded already. A
record is reused only for the same programs, the same record of the task in the suite
file (its tests, expected outputs and limits) and the same time limit, else the task is
judged again: a suite made afresh, where most tasks come out the same, re-judges only the
tasks that changed (name the old progress file with ``--resume-from``). Delete the file to
measure afresh. ``--out`` and ``--review`` are written
at the end, in the same order as a run in one go.

    python benchmarks/stdio_power.py OUT/ProgramsPlus.jsonl.gz [--dataset ../shared/datasets/stdio]
        [--tasks N] [--every N] [--per-task 16] [-j 2] [--time-limit 4] [--out power.json]
        [--review power.md] [--resume-from OLD.json.partial.jsonl]
"""

from __future__ import annotations

import argparse
import ast
import difflib
import gzip
import hashlib
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evalplus_ng.backend.executors import Backend
from evalplus_ng.evaluation.program_verdicts import (
    BASE,
    ORIGINAL,
    ProgramConfig,
    ProgramResult,
    RunStatus,
    judge_programs,
)
from evalplus_ng.jobs import program_job
from evalplus_ng.pipeline.programs.augment import MULTIPLE_ANSWERS_FLAG
from evalplus_ng.protocols import Executor
from evalplus_ng.records import (
    PLUS_ORIGIN,
    STRESS_ORIGIN,
    ProgramTask,
    ProgramTest,
    Sample,
    Verdict,
)
from evalplus_ng.reduce.slips import KINDS, slip_sources
from evalplus_ng.sandbox import Limits
from evalplus_ng.tasks.programfile import load_program_tasks
from evalplus_ng.types import TaskId

DEFAULT_DATASET = Path(__file__).resolve().parents[2] / "shared" / "datasets" / "stdio"
SHOWN = 400  #: characters of an input or output shown in the review
PROGRESS_SUFFIX = ".partial.jsonl"  #: the progress file: ``--out``'s name and this
REVIEW_HEADER = ["# Disagreements: kills by one side only", ""]


@dataclass(frozen=True)
class Program:
    """One program judged: a mutant of the reference (``kind`` its slip) or a rewrite
    (``kind`` ``rewrite``, ``recorded`` its verdict in the dataset's README's sense)."""

    task_id: TaskId
    kind: str
    code: str
    change: str = ""
    recorded: str = ""


def chosen_mutants(task: ProgramTask, per_task: int, seed: int) -> list[Program]:
    """Up to ``per_task`` distinct mutants of ``task``'s reference, taken in turn from each
    kind's shuffled list (kind order of :data:`KINDS`)."""
    rng = random.Random(f"{seed}:{task.task_id}")
    seen: set[str] = set()
    by_kind: list[list[Program]] = []
    original = ast.unparse(ast.parse(task.solution)).splitlines()
    for kind in KINDS:
        found = []
        for mutant in slip_sources(task.solution, (kind,), module=True):
            if mutant.code not in seen:
                seen.add(mutant.code)
                found.append(Program(task.task_id, kind, mutant.code,
                                     _change(original, mutant.code)))
        rng.shuffle(found)
        by_kind.append(found)
    taken: list[Program] = []
    while len(taken) < per_task and any(by_kind):
        for found in by_kind:
            if found and len(taken) < per_task:
                taken.append(found.pop())
    return taken


def _change(original: list[str], code: str) -> str:
    """The lines a mutant changed: ``- old`` and ``+ new``."""
    diff = difflib.unified_diff(original, code.splitlines(), lineterm="", n=0)
    return "\n".join(line for line in diff
                     if line[:1] in "+-" and not line.startswith(("+++", "---")))


def rewrites(path: Path, tasks: Mapping[TaskId, ProgramTask]) -> list[Program]:
    """The agents' rewrites of the chosen tasks, with their recorded verdicts."""
    out = []
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            if record["task_id"] in tasks:
                out.append(Program(record["task_id"], "rewrite", record["code"],
                                   record["solution_id"], record["verdict"]))
    return out


def judge(tasks: Mapping[TaskId, ProgramTask], programs: Sequence[Program], suite: str,
          executor: Executor, time_limit: float) -> list[ProgramResult]:
    """Each program's result on ``suite`` (its first failure stops it)."""
    samples = [Sample(p.task_id, p.code, k + 1) for k, p in enumerate(programs)]
    return judge_programs(tasks, samples, executor,
                          ProgramConfig(time_limit=time_limit, suite=suite))


def failing_tests(task: ProgramTask, program: Program, suite: str, executor: Executor,
                  time_limit: float) -> list[tuple[int, RunStatus]]:
    """Every hidden test of ``suite`` the program fails (all run), with its status."""
    [full] = judge_programs({task.task_id: task}, [Sample(task.task_id, program.code, 1)],
                            executor, ProgramConfig(time_limit=time_limit, suite=suite,
                                                    details=True))
    return [(run.index, run.status) for run in full.tests
            if not run.public and run.status is not RunStatus.PASS]


def output_of(task: ProgramTask, code: str, text: str, executor: Executor,
              time_limit: float) -> str:
    """What ``code`` prints on ``text`` (or its failure), for the review."""
    job = program_job(task, code, [ProgramTest(text, "", False)], time_limit, judged=False)
    [result] = list(executor.map([job]))
    if not result.outcomes:
        return f"(did not load: {result.load.error})"
    outcome = result.outcomes[0]
    if isinstance(outcome.value, str):
        return outcome.value
    return f"({outcome.status.value}: {outcome.error})"


def _short(text: str) -> str:
    return text if len(text) <= SHOWN else text[:SHOWN] + f"... ({len(text)} characters)"


def verdict(result: ProgramResult | None) -> str:
    """``pass``, or the status of the first hidden test failed; ``not_run`` (None) where
    the side was not needed."""
    if result is None:
        return "not_run"
    if result.full is Verdict.PASS:
        return "pass"
    failure = result.first_failure
    return failure.status.value if failure is not None else "fail"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("suite", type=Path, help="augment's ProgramsPlus.jsonl.gz")
    parser.add_argument("--dataset", type=Path, default=DEFAULT_DATASET)
    parser.add_argument("--tasks", type=int, default=0, help="the first N tasks (0: all)")
    parser.add_argument("--every", type=int, default=1,
                        help="every Nth task only (a spread subset)")
    parser.add_argument("--per-task", type=int, default=16)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--time-limit", type=float, default=4.0)
    parser.add_argument("--out", type=Path, default=Path("power.json"))
    parser.add_argument("--review", type=Path, default=Path("power.md"))
    parser.add_argument("--resume-from", type=Path, action="append", default=[],
                        help="another run's progress file: its records of tasks judged "
                             "from the same programs, task record and time limit are "
                             "taken (repeatable; this run's own file wins)")
    options = parser.parse_args()
    # A "print any" task's outputs need a checker: no suite can judge its programs by
    # comparing with the reference's answer.
    every = [task for task in load_program_tasks(options.suite)
             if MULTIPLE_ANSWERS_FLAG not in task.flags][::options.every]
    if options.tasks:
        every = every[:options.tasks]
    tasks = {task.task_id: task for task in every}
    has_plus = {task.task_id for task in every
                if any(test.origin == PLUS_ORIGIN for test in task.tests)}
    programs = [m for task in every for m in chosen_mutants(task, options.per_task,
                                                             options.seed)]
    programs += rewrites(options.dataset / "solutions.jsonl.gz", tasks)
    began = time.monotonic()
    print(f"{len(tasks)} tasks ({len(has_plus)} with plus tests), {len(programs)} programs "
          f"({sum(p.kind == 'rewrite' for p in programs)} rewrites)", flush=True)
    places: dict[TaskId, list[int]] = {task_id: [] for task_id in tasks}
    for k, program in enumerate(programs):
        places[program.task_id].append(k)
    task_hashes = task_record_hashes(options.suite)
    progress = progress_path(options.out)
    recorded = read_progress(progress)
    taken = {path: read_progress(path) for path in options.resume_from}
    done: dict[TaskId, dict[str, Any]] = {}
    for task_id, ks in places.items():
        key = fingerprint([programs[k] for k in ks], task_hashes[task_id],
                          options.time_limit)
        for records in (recorded, *taken.values()):
            record = records.get(task_id)
            if record is not None and record["fingerprint"] == key:
                done[task_id] = record
                break
    resumed_seconds = sum(record["seconds"] for record in done.values())
    if done:
        where = ", ".join(str(path) for path in (progress, *options.resume_from))
        print(f"resuming: {len(done)} of {len(tasks)} tasks recorded ({where})",
              file=sys.stderr, flush=True)
    hidden = [options.suite, options.dataset]
    with Backend(options.jobs).executor(Limits(), hidden) as executor, \
            progress.open("a", encoding="utf-8") as log:
        if log.tell() and not progress.read_bytes().endswith(b"\n"):
            log.write("\n")  # after a line cut short, a record starts on a line of its own
        for task_id, record in done.items():
            if recorded.get(task_id) is not record:  # taken from another run: kept here
                log.write(json.dumps(record) + "\n")
        log.flush()
        for task_id, ks in places.items():
            if task_id in done:
                continue
            task_began = time.monotonic()
            mine = [programs[k] for k in ks]
            judged = judge_task(tasks[task_id], mine, task_id in has_plus, executor,
                                options.time_limit)
            record = {"task_id": task_id,
                      "fingerprint": fingerprint(mine, task_hashes[task_id],
                                                 options.time_limit),
                      "seconds": round(time.monotonic() - task_began, 1), "rows": judged}
            log.write(json.dumps(record) + "\n")
            log.flush()
            done[task_id] = record
            print(f"{len(done)}/{len(tasks)} tasks ({time.monotonic() - began:.0f} s): "
                  f"{task_id}, {len(mine)} programs, {len(judged)} passing public",
                  file=sys.stderr, flush=True)
    # Rows (and review entries) in the order of ``programs``, as one run in one go.
    entries = sorted(((places[task_id][entry["at"]], entry)
                      for task_id, record in done.items() for entry in record["rows"]),
                     key=lambda placed: placed[0])
    rows = [entry["row"] for _k, entry in entries]
    review_lines = REVIEW_HEADER + [line for _k, entry in entries for line in entry["review"]]
    summary = summarise(rows)
    # This run's wall and the judging time of the tasks it took from the progress file.
    summary["wall_seconds"] = round(time.monotonic() - began + resumed_seconds, 1)
    summary["programs"] = len(programs)
    summary["mutants_made"] = sum(p.kind != "rewrite" for p in programs)
    options.out.write_text(json.dumps({"summary": summary, "programs": rows}, indent=1) + "\n")
    options.review.write_text("\n".join(review_lines) + "\n")
    for key, value in summary.items():
        print(f"{key}: {value}")


def judge_task(task: ProgramTask, programs: Sequence[Program], plus_tests: bool,
               executor: Executor, time_limit: float) -> list[dict[str, Any]]:
    """One task's programs judged: for each that passes the public tests, ``at`` (its
    place in ``programs``), its ``row`` (:func:`table`) and its ``review`` entry (lines,
    none where the sides agree)."""
    tasks = {task.task_id: task}
    base = judge(tasks, programs, BASE, executor, time_limit)
    at = [k for k, result in enumerate(base) if result.base is Verdict.PASS]
    passing = [programs[k] for k in at]
    sides: dict[str, list[ProgramResult | None]] = {
        side: list(judge(tasks, passing, side, executor, time_limit))
        for side in (ORIGINAL, PLUS_ORIGIN)}
    # The stress tier only matters where the plus tier missed: a program it kills is
    # killed by our suite already.
    missed = [k for k, result in enumerate(sides[PLUS_ORIGIN])
              if result is not None and result.full is Verdict.PASS]
    stressed = judge(tasks, [passing[k] for k in missed], STRESS_ORIGIN, executor, time_limit)
    by_place = dict(zip(missed, stressed, strict=True))
    sides[STRESS_ORIGIN] = [by_place.get(k) for k in range(len(passing))]
    rows = table(passing, sides, {task.task_id} if plus_tests else set())
    return [{"at": k, "row": row, "review": review_entry(task, program, row, executor,
                                                         time_limit)}
            for k, program, row in zip(at, passing, rows, strict=True)]


def progress_path(out: Path) -> Path:
    """The progress file of a run writing ``out``: beside it, ``out``'s name and
    :data:`PROGRESS_SUFFIX`."""
    return out.with_name(out.name + PROGRESS_SUFFIX)


def read_progress(path: Path) -> dict[TaskId, dict[str, Any]]:
    """The task records of a progress file, the last one of a task winning; none if there
    is no file. A line cut short (the run killed while writing it) is skipped."""
    if not path.exists():
        return {}
    records: dict[TaskId, dict[str, Any]] = {}
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue
            records[record["task_id"]] = record
    return records


def fingerprint(programs: Sequence[Program], task_hash: str, time_limit: float) -> str:
    """What a task's record was judged from: its programs, its record in the suite file,
    the time limit. A record is reused only where this is the same."""
    what = [task_hash, time_limit, [[p.kind, p.code, p.change, p.recorded] for p in programs]]
    return hashlib.sha256(json.dumps(what).encode("utf-8", "surrogateescape")).hexdigest()


def task_record_hashes(path: Path) -> dict[TaskId, str]:
    """Each task's record in the suite file (one JSON line a task), hashed as written."""
    hashes: dict[TaskId, str] = {}
    with gzip.open(path, "rb") as handle:
        for line in handle:
            hashes[json.loads(line)["task_id"]] = hashlib.sha256(line).hexdigest()
    return hashes


def table(passing: Sequence[Program], sides: Mapping[str, Sequence[ProgramResult | None]],
          has_plus: set[TaskId]) -> list[dict[str, Any]]:
    """One row a program: what it is and each side's verdict (``pass`` or the status of
    its first failure)."""
    rows = []
    for k, program in enumerate(passing):
        row = {"task_id": program.task_id, "kind": program.kind, "change": program.change,
               "recorded": program.recorded, "plus_tests": program.task_id in has_plus,
               "cc": verdict(sides[ORIGINAL][k])}
        for side in (PLUS_ORIGIN, STRESS_ORIGIN):
            row[side] = verdict(sides[side][k])
        rows.append(row)
    return rows


def killed(row: Mapping[str, Any], side: str) -> bool:
    return bool(row[side] not in ("pass", "not_run"))


def summarise(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The counts: mutants by who kills them, rewrites by recorded verdict and ours."""
    mutants = [r for r in rows if r["kind"] != "rewrite"]
    table: Counter[str] = Counter()
    by_kind: dict[str, Counter[str]] = {}
    for row in mutants:
        cc, ours = killed(row, "cc"), killed(row, PLUS_ORIGIN) or killed(row, STRESS_ORIGIN)
        cell = {(True, True): "both", (True, False): "cc_only", (False, True): "ours_only",
                (False, False): "neither"}[cc, ours]
        table[cell] += 1
        by_kind.setdefault(row["kind"], Counter())[cell] += 1
        if ours and not killed(row, PLUS_ORIGIN):
            table["ours_by_stress_only"] += 1
        if killed(row, PLUS_ORIGIN) and row[PLUS_ORIGIN] == RunStatus.TIMEOUT.value:
            table["plus_kills_by_timeout"] += 1
    written = [r for r in rows if r["kind"] == "rewrite"]
    right = [r for r in written if r["recorded"] == "pass"]
    wrong = [r for r in written if r["recorded"] != "pass"]
    return {
        "mutants_passing_public": len(mutants),
        "kills": dict(sorted(table.items())),
        "cc_kills": table["both"] + table["cc_only"],
        "our_kills": table["both"] + table["ours_only"],
        "by_kind": {kind: dict(sorted(c.items())) for kind, c in sorted(by_kind.items())},
        "rewrites_passing_public": len(written),
        "right_rewrites_we_fail": sum(killed(r, PLUS_ORIGIN) or killed(r, STRESS_ORIGIN)
                                      for r in right),
        "right_rewrites": len(right),
        "wrong_rewrites_passing_public": len(wrong),
        "wrong_rewrites_cc_kills": sum(killed(r, "cc") for r in wrong),
        "wrong_rewrites_our_kills": sum(killed(r, PLUS_ORIGIN) or killed(r, STRESS_ORIGIN)
                                        for r in wrong),
    }


def review_entry(task: ProgramTask, program: Program, row: Mapping[str, Any],
                 executor: Executor, time_limit: float) -> list[str]:
    """Markdown for one program passing the public tests: nothing where both sides agree
    (and it is no right rewrite our suite fails); else the simplest failing input of the
    side that kills it, with the expected output and the program's."""
    cc = killed(row, "cc")
    ours_side = next((s for s in (PLUS_ORIGIN, STRESS_ORIGIN) if killed(row, s)), "")
    false_kill = program.kind == "rewrite" and program.recorded == "pass" and ours_side
    if cc == bool(ours_side) and not false_kill:
        return []
    side = ours_side or ORIGINAL
    failures = failing_tests(task, program, side, executor, time_limit)
    if not failures:
        return []  # flaky: passed when all run
    index, status = min(failures, key=lambda f: (len(task.tests[f[0]].input), f[0]))
    test = task.tests[index]
    got = output_of(task, program.code, test.input, executor, time_limit)
    who = "ours only" if ours_side else "CodeContests only"
    return [f"## {program.task_id} ({program.kind}): {who}, by {side} "
            f"({status.value}; {len(failures)} failing tests)", "",
            "```", program.change or program.recorded, "```", "",
            "input:", "```", _short(test.input).rstrip("\n"), "```",
            "expected:", "```", _short(test.output).rstrip("\n"), "```",
            "program:", "```", _short(got).rstrip("\n"), "```", "",
            "verdict: ", ""]


if __name__ == "__main__":
    main()
