"""The MINI of program tasks against its whole tiers: tests per task, and slips of the
references killed by each, on the slips that chose the MINI and on held-out ones.

For the first ``--tasks`` tasks of ``augment``'s ``ProgramsPlus.jsonl.gz`` that have new
tests: their MINI (:mod:`evalplus_ng.pipeline.programs.minimize`, checkpointed in ``--out``,
so a second run only judges), then two sets of slips of each reference
(:func:`evalplus_ng.reduce.programs.kills.slip_order`, the task's seeded order):

* **in-sample**: the slips that chose the MINI (up to 40 passing the public tests); the
  whole tiers' kills are the MINI's stats, and each slip is judged again on the MINI;
* **held-out**, two families, each judged on the whole tiers and on the MINI: the first
  ``--held-out`` slips in that order that pass the public tests and were not sampled
  (``slips``; few tasks have more than 40 such slips), and the first ``--held-out``
  mutants of mutmut's operators (:func:`evalplus_ng.reduce.mutants.mutant_sources`: inside
  functions only) in a seeded shuffle that pass the public tests (``mutmut``).

Judged as ``evaluate --suite plus`` (and ``--suite stress``) judges: public tests first, a
kill is a program that passes them and fails the suite, each stopping at its first
failure, within ``--time-limit`` seconds a test.

    python benchmarks/program_mini.py OUT/ProgramsPlus.jsonl.gz --out DIR [--tasks 20]
        [--held-out 40] [-j 1] [--time-limit 5] [--seed 0]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from evalplus_ng.backend.executors import Backend
from evalplus_ng.evaluation.program_verdicts import BASE, ProgramConfig, judge_programs
from evalplus_ng.pipeline.programs.minimize import (
    MINI_ARTIFACT,
    TIERS,
    ProgramMiniConfig,
    run_mini_programs,
    summary_lines,
)
from evalplus_ng.protocols import Executor
from evalplus_ng.records import ProgramTask, Sample, Verdict
from evalplus_ng.reduce.mutants import mutant_sources
from evalplus_ng.reduce.programs.kills import SCREENED, slip_order
from evalplus_ng.sandbox import Limits
from evalplus_ng.tasks.programfile import load_program_records, load_program_tasks
from evalplus_ng.types import TaskId

Programs = list[tuple[TaskId, str]]


def judge(tasks: Mapping[TaskId, ProgramTask], programs: Programs, suite: str,
          executor: Executor, time_limit: float) -> list[bool]:
    """Whether each program is killed by ``suite`` (passes the public tests, fails it); for
    the ``base`` suite, whether it passes the public tests."""
    samples = [Sample(task_id, code, k + 1) for k, (task_id, code) in enumerate(programs)]
    results = judge_programs(tasks, samples, executor,
                             ProgramConfig(time_limit=time_limit, suite=suite))
    if suite == BASE:
        return [result.base is Verdict.PASS for result in results]
    return [result.base is Verdict.PASS and result.full is Verdict.FAIL for result in results]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("suite", type=Path, help="augment's ProgramsPlus.jsonl.gz")
    parser.add_argument("--out", type=Path, required=True, help="where the MINI goes")
    parser.add_argument("--tasks", type=int, default=20)
    parser.add_argument("--held-out", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("-j", "--jobs", type=int, default=1)
    parser.add_argument("--time-limit", type=float, default=5.0)
    options = parser.parse_args()
    records = [(task, record) for task, record in load_program_records(options.suite)
               if any(test.origin for test in task.tests)][:options.tasks]
    began = time.monotonic()
    backend = Backend(options.jobs)
    summary = run_mini_programs(records, ProgramMiniConfig(seed=options.seed), options.out,
                                backend, lambda done, total: print(f"  MINI {done}/{total}",
                                                                   flush=True))
    for line in summary_lines(summary):
        print(line)
    whole = {task.task_id: task for task, _record in records}
    mini = {task.task_id: task for task in load_program_tasks(options.out / MINI_ARTIFACT)}
    sampled: Programs = []
    families: dict[str, Programs] = {"slips": [], "mutmut": []}
    for report in summary.reports:
        source = whole[report.task_id].solution
        order = slip_order(source, report.task_id, options.seed)
        sampled += [(report.task_id, order[place].mutant.code) for place in report.sample]
        chosen = set(report.sample)
        families["slips"] += [(report.task_id, slip.mutant.code)
                              for place, slip in enumerate(order) if place not in chosen]
        mutants = [m.code for m in mutant_sources(source)]
        random.Random(f"{options.seed}:{report.task_id}").shuffle(mutants)
        families["mutmut"] += [(report.task_id, code) for code in mutants[:SCREENED]]
    kills: dict[str, dict[str, list[bool]]] = {"sample": {}}
    held: dict[str, Programs] = {}
    with backend.executor(Limits(), [options.suite]) as executor:
        for family, candidates in families.items():
            passing = judge(whole, candidates, BASE, executor, options.time_limit)
            taken: dict[TaskId, int] = {}
            held[family] = []
            for program, ok in zip(candidates, passing, strict=True):
                if ok and taken.get(program[0], 0) < options.held_out:
                    held[family].append(program)
                    taken[program[0]] = taken.get(program[0], 0) + 1
            print(f"{family}: {len(held[family])} held-out programs passing the public "
                  f"tests ({time.monotonic() - began:.0f} s)", flush=True)
        for tier in TIERS:
            kills["sample"][f"mini_{tier}"] = judge(mini, sampled, tier, executor,
                                                    options.time_limit)
            for family, programs in held.items():
                rows = kills.setdefault(family, {})
                rows[f"whole_{tier}"] = judge(whole, programs, tier, executor,
                                              options.time_limit)
                rows[f"mini_{tier}"] = judge(mini, programs, tier, executor,
                                             options.time_limit)
            print(f"  judged {tier} ({time.monotonic() - began:.0f} s)", flush=True)
    document = measure(summary.reports, whole, mini, held, kills, len(sampled))
    document["wall_seconds"] = round(time.monotonic() - began, 1)
    (options.out / "program-mini-power.json").write_text(json.dumps(document, indent=1) + "\n")
    for key, value in document.items():
        if key != "per_task":
            print(f"{key}: {json.dumps(value)}")


def _either(rows: Mapping[str, list[bool]], side: str) -> list[bool]:
    return [any(values) for values in zip(*(rows[f"{side}_{tier}"] for tier in TIERS),
                                          strict=True)]


def measure(reports: Sequence[Any], whole: Mapping[TaskId, ProgramTask],
            mini: Mapping[TaskId, ProgramTask], held: Mapping[str, Programs],
            kills: Mapping[str, Mapping[str, list[bool]]], sampled: int) -> dict[str, Any]:
    """Tests per task, and kills of the whole tiers and of the MINI."""
    def new(task: ProgramTask, tier: str) -> int:
        return sum(test.origin == tier for test in task.tests)

    per_task = []
    for report in reports:
        row = {"task_id": report.task_id}
        for tier in TIERS:
            row[tier] = [new(whole[report.task_id], tier), new(mini[report.task_id], tier)]
        row["killed_sample"] = report.killed
        per_task.append(row)
    counts: dict[str, Any] = {}
    for tier in TIERS:
        whole_n = [row[tier][0] for row in per_task]
        mini_n = [row[tier][1] for row in per_task]
        counts[tier] = {"whole_total": sum(whole_n), "mini_total": sum(mini_n),
                        "whole_median": statistics.median(whole_n),
                        "mini_median": statistics.median(mini_n)}
    counts["mini_new_tests_median"] = statistics.median(
        sum(row[tier][1] for tier in TIERS) for row in per_task)
    counts["whole_new_tests_median"] = statistics.median(
        sum(row[tier][0] for tier in TIERS) for row in per_task)
    sample = kills["sample"]
    document: dict[str, Any] = {
        "tasks": len(per_task),
        "tests": counts,
        "in_sample": {
            "programs": sampled,
            **{f"whole_{tier}": sum(report.killed.get(tier, 0) for report in reports)
               for tier in TIERS},
            "whole_either": sum(report.killed.get("any", 0) for report in reports),
            **{f"mini_{tier}": sum(sample[f"mini_{tier}"]) for tier in TIERS},
            "mini_either": sum(_either(sample, "mini")),
        },
    }
    for family, programs in held.items():
        rows = kills[family]
        document[f"held_out_{family}"] = {
            "programs": len(programs),
            "tasks": len({task_id for task_id, _code in programs}),
            **{key: sum(values) for key, values in rows.items()},
            "whole_either": sum(_either(rows, "whole")),
            "mini_either": sum(_either(rows, "mini")),
            "missed_by_mini": [
                {"task_id": task_id, "code": code,
                 "tiers": [tier for tier in TIERS if rows[f"whole_{tier}"][k]
                           and not rows[f"mini_{tier}"][k]]}
                for k, (task_id, code) in enumerate(programs)
                if any(rows[f"whole_{tier}"][k] and not rows[f"mini_{tier}"][k]
                       for tier in TIERS)],
        }
    document["per_task"] = per_task
    return document


if __name__ == "__main__":
    main()
