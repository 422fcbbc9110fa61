"""The MINI of program tasks (stdin/stdout): the set cover of a tier on literal goals, the
seeded order of the reference's slips, the reference's coverage measured apart from this
process, and ``augment`` end to end on a one-task file of our own (a fake input plan, as in
tests/test_augment_programs.py): the MINI keeps every slip kill and every line of the
whole tiers, reads back and judges with ``evaluate --suite plus``, is byte-identical on a
rerun whatever ``-j`` and resumes from its checkpoints.

Nothing reads ``../shared``.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from programfixtures import augment, use_plan, write_jsonl, write_samples

from evalplus_ng.backend.executors import Backend
from evalplus_ng.cli import main
from evalplus_ng.evaluation.program_verdicts import ProgramConfig, judge_programs
from evalplus_ng.generate.programs.planner import LARGE, RANDOM, ProgramInput
from evalplus_ng.pipeline.programs.augment import ARTIFACT
from evalplus_ng.pipeline.programs.minimize import MINI_ARTIFACT, MINI_STATS, checkpoint_path
from evalplus_ng.protocols import Executor
from evalplus_ng.records import PLUS_ORIGIN, STRESS_ORIGIN, ProgramTask, Sample, Verdict
from evalplus_ng.reduce.kills import KillRow
from evalplus_ng.reduce.programs.cover import program_coverage
from evalplus_ng.reduce.programs.kills import slip_order
from evalplus_ng.reduce.programs.mini import reduce_tier, requirements
from evalplus_ng.reduce.slips import KINDS, slip_sources
from evalplus_ng.sandbox import Limits
from evalplus_ng.tasks.programfile import load_program_tasks

#: The reference: how many of n integers are positive (or "all"), and the largest.
REFERENCE = """\
n = int(input())
xs = list(map(int, input().split()))
best = xs[0]
positive = 0
for x in xs:
    if x > best:
        best = x
    if x > 0:
        positive += 1
if positive == n:
    print("all", best)
else:
    print(positive, best)
"""


# --------------------------------------------------------------------------- pure parts


def test_a_tier_is_covered_on_its_own_smaller_inputs_first() -> None:
    named = {1: "b", 2: "b", 3: "cd", 4: "c", 5: "a"}
    goals: dict[int, set[Any]] = {test: {("cover", goal) for goal in names}
                                  for test, names in named.items()}
    goals[4].add(("mutant", 0))
    goals[3].add(("mutant", 0))
    sizes = {1: 5, 2: 3, 3: 9, 4: 2, 5: 1}
    mini = reduce_tier([1, 2, 3, 4, 5], goals, sizes)
    # 3 meets c, d and the kill at once; b goes to 2, smaller than 1; a to 5
    assert mini.chosen == (2, 3, 5)
    assert mini.tests == (1, 2, 3, 4, 5)
    assert mini.goals == {"cover": 4, "mutant": 1, "largest": 0}
    assert reduce_tier([], {}, {}).chosen == ()


def test_requirements_are_lines_kills_and_in_stress_the_largest_input() -> None:
    coverage = {1: frozenset({("line", 1)}), 2: frozenset({("line", 1), ("line", 2)}),
                3: frozenset()}
    rows = [KillRow(frozenset({2, 3})), KillRow(frozenset()), KillRow(frozenset({9}))]
    sizes = {1: 10, 2: 30, 3: 30}
    assert requirements([1, 2, 3], coverage, rows, sizes) == {
        1: {("cover", ("line", 1))},
        2: {("cover", ("line", 1)), ("cover", ("line", 2)), ("mutant", 0)},
        3: {("mutant", 0)}}
    largest = requirements([1, 2, 3], coverage, rows, sizes, largest=True)
    assert [test for test, goals in largest.items() if ("largest",) in goals] == [2, 3]
    mini = reduce_tier([1, 2, 3], largest, sizes)
    assert mini.chosen == (2,) and mini.goals == {"cover": 2, "mutant": 1, "largest": 1}


def test_slips_are_in_a_seeded_order_taking_each_kind_in_turn() -> None:
    order = slip_order(REFERENCE, "cc/pos", 0)
    every = slip_sources(REFERENCE, tuple(KINDS), module=True)
    assert sorted(s.mutant.code for s in order) == sorted(m.code for m in every)
    assert order == slip_order(REFERENCE, "cc/pos", 0)
    assert order != slip_order(REFERENCE, "cc/pos", 1)
    assert order != slip_order(REFERENCE, "cc/other", 0)
    kinds = [s.kind for s in order]
    present = [kind for kind in KINDS if kind in kinds]
    assert kinds[:len(present)] == present  # one of each kind first, in kind order


def test_coverage_runs_the_reference_apart_from_this_process() -> None:
    program = ("import sys\n"
               "n = int(sys.stdin.readline())\n"
               "if n == 1:\n"
               "    print('one')\n"
               "    exit()\n"
               "if n == 2:\n"
               "    raise ValueError(n)\n"
               "while n == 3:\n"
               "    pass\n"
               "print(n)\n")
    streams = (sys.stdin, sys.stdout, sys.argv)
    one, two, three, four = program_coverage(program, ["1\n", "2\n", "3\n", "4\n"],
                                             seconds=0.3)
    lines = [{goal[1] for goal in found if goal[0] == "line"}
             for found in (one, two, three, four)]
    assert lines == [{1, 2, 3, 4, 5}, {1, 2, 3, 6, 7}, {1, 2, 3, 6, 8, 9}, {1, 2, 3, 6, 8, 10}]
    arcs = {goal[1:] for goal in four if goal[0] == "arc"}
    assert arcs == {(3, 6), (6, 8), (8, 10)}  # branch arcs only
    assert (sys.stdin, sys.stdout, sys.argv) == streams  # ours, untouched


# --------------------------------------------------------------------------- end to end


@dataclass(frozen=True)
class PositivePlan:
    """"n, then n integers in -3..3" (1 <= n <= 300)."""

    task_id: str
    contract: dict[str, Any] | None = None
    reason: str = ""

    def violation(self, text: str) -> str | None:
        lines = text.split("\n")
        if len(lines) != 3 or lines[2] != "" or not lines[0].isdigit():
            return "n, then a line"
        numbers = lines[1].split(" ")
        if not 1 <= int(lines[0]) <= 300 or len(numbers) != int(lines[0]):
            return "not n numbers"
        return None if all(x in {"-3", "-2", "-1", "0", "1", "2", "3"}
                           for x in numbers) else "a number out of range"


def _inputs(plan: Any, seeds: Sequence[str], rng: random.Random,
            count: int) -> list[ProgramInput]:
    """Distinct inputs, none a seed; every tenth one large (n = 300: the stress tier)."""
    made: list[ProgramInput] = []
    seen = set(seeds)
    while len(made) < count:
        large = len(made) % 10 == 9
        n = 300 if large else rng.randint(1, 5)
        low = rng.choice((-3, 0, 1))
        text = f"{n}\n{' '.join(str(rng.randint(low, 3)) for _ in range(n))}\n"
        if text not in seen:
            seen.add(text)
            made.append(ProgramInput(text, LARGE if large else RANDOM))
    return made


@pytest.fixture()
def tasks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A one-task file (one public test, one dataset test) and the fake plan in place."""
    use_plan(monkeypatch, lambda task: PositivePlan(task.task_id, {"grammar": "n, n integers"}),
             _inputs)
    record = {"task_id": "cc/pos", "prompt": "Count the positive ones.",
              "canonical_solution": REFERENCE, "source": "ours",
              "tests": [{"input": "3\n1 -2 3\n", "output": "2 3\n", "public": True},
                        {"input": "2\n5 5\n", "output": "all 5\n"}]}
    return write_jsonl(tmp_path / "tasks.jsonl.gz", [record])


def _augment(tasks: Path, out: Path, *flags: str) -> str:
    return augment(tasks, out, "--mini", *flags, per_task=20).output


def _plain_augment(tasks: Path, out: Path, *flags: str) -> str:
    return augment(tasks, out, *flags, per_task=20).output


def _kills(task: ProgramTask, codes: Sequence[str], suite: str,
           sandbox: Executor) -> set[int]:
    """The programs (places in ``codes``) that pass the public tests and fail ``suite``."""
    samples = [Sample(task.task_id, code, k + 1) for k, code in enumerate(codes)]
    results = judge_programs({task.task_id: task}, samples, sandbox,
                             ProgramConfig(time_limit=5.0, suite=suite))
    return {k for k, result in enumerate(results)
            if result.base is Verdict.PASS and result.full is Verdict.FAIL}


def _covered(task: ProgramTask, origin: str) -> set[Any]:
    """The lines and arcs of the reference the ``origin`` tier runs."""
    texts = [t.input for t in task.tests if t.origin == origin]
    return set().union(*program_coverage(task.solution, texts))


def test_augment_writes_a_mini_as_strong_as_its_whole_tiers(tmp_path: Path,
                                                             tasks: Path) -> None:
    out = tmp_path / "one"
    output = _augment(tasks, out, "-j", "1")
    assert "MINI of 1 task(s) with new tests (0 from checkpoints)" in output
    [whole] = load_program_tasks(out / ARTIFACT)
    [mini] = load_program_tasks(out / MINI_ARTIFACT)
    # the same line, its public and dataset tests kept, a subset of the new ones, in order
    assert mini.tests[:2] == whole.tests[:2] and mini.solution == whole.solution
    assert set(mini.tests) < set(whole.tests)
    assert [t for t in whole.tests if t in set(mini.tests)] == list(mini.tests)
    stats = json.loads((out / MINI_STATS).read_text())
    [report] = stats["tasks"]
    for origin in (PLUS_ORIGIN, STRESS_ORIGIN):
        chosen = [whole.tests[i] for i in report["tiers"][origin]["chosen"]]
        assert [t for t in mini.tests if t.origin == origin] == chosen
        assert 0 < len(chosen) < sum(t.origin == origin for t in whole.tests)
    assert report["sampled"] > 0 and report["killed"]["plus"] > 0

    # every sampled slip that passes the public tests and fails a whole tier fails the
    # MINI's too, judged as evaluate judges; and the MINI's tier alone runs every line and
    # arc the whole tier runs
    order = slip_order(REFERENCE, "cc/pos", 0)
    codes = [order[place].mutant.code for place in report["sample"]]
    kills: dict[str, set[int]] = {}
    with Backend(1).executor(Limits(), []) as sandbox:
        for origin in (PLUS_ORIGIN, STRESS_ORIGIN):
            kills[origin] = _kills(whole, codes, origin, sandbox)
            assert kills[origin] == _kills(mini, codes, origin, sandbox)
            assert len(kills[origin]) == report["killed"][origin]
            assert _covered(mini, origin) == _covered(whole, origin)
    assert report["tiers"]["plus"]["goals"]["mutant"] == report["killed"]["plus"]

    # evaluate --suite plus on the MINI: the reference passes; a slip the plus tier kills
    # fails there too
    killed = min(kills[PLUS_ORIGIN])
    samples = write_samples(tmp_path / "s.jsonl", "cc/pos", [REFERENCE, codes[killed]])
    run = CliRunner().invoke(main, ["evaluate", "--dataset-file", str(out / MINI_ARTIFACT),
                                    "--samples", str(samples), "--suite", "plus", "-j", "1"])
    assert run.exit_code == 0, run.output
    # and on the whole suite: its results beside the MINI's, neither overwriting the other
    whole_run = CliRunner().invoke(main, ["evaluate", "--dataset-file", str(out / ARTIFACT),
                                          "--samples", str(samples), "--suite", "plus",
                                          "-j", "1"])
    assert whole_run.exit_code == 0, whole_run.output
    named = sorted(tmp_path.glob("s.evalplus-ng.plus-*.json"))
    assert len(named) == 2
    mini_digest = hashlib.sha256((out / MINI_ARTIFACT).read_bytes()).hexdigest()[:12]
    document = json.loads((tmp_path / f"s.evalplus-ng.plus-{mini_digest}.json").read_text())
    assert [(e["base_status"], e["plus_status"]) for e in document["eval"]["cc/pos"]] == [
        ("pass", "pass"), ("pass", "fail")]

    # the same seed, the same bytes, whatever -j; a rerun resumes from the checkpoint
    _augment(tasks, tmp_path / "two", "-j", "2")
    for name in (MINI_ARTIFACT, MINI_STATS):
        assert (out / name).read_bytes() == (tmp_path / "two" / name).read_bytes()
    assert checkpoint_path(out, "cc/pos").is_file()
    again = _augment(tasks, out, "-j", "1")
    assert "MINI of 1 task(s) with new tests (1 from checkpoints)" in again
    assert json.loads((out / MINI_STATS).read_text()) == stats
    # without --mini, a MINI of the same suite is kept, one of another removed
    _plain_augment(tasks, out, "-j", "1")
    assert (out / MINI_ARTIFACT).is_file()
    other = _plain_augment(tasks, out, "-j", "1", "--seed", "1")
    assert "reduced from another suite" in other
    assert not (out / MINI_ARTIFACT).exists() and not (out / MINI_STATS).exists()
