"""``augment`` on program tasks (stdin/stdout): the pure parts (candidates screened, the
reference's outcomes sorted into tiers and drops), the ``origin`` field of a tasks file, and
the command end to end on a two-task file of our own with a fake input plan ("n, then n
integers"): byte-identical reruns whatever ``-j``, resumption from checkpoints, flags that
do not apply, and ``evaluate`` on the artifact's suites.

The plan, its generator and the tasks file are tests/programfixtures.py's (the real plan
and generator are :mod:`evalplus_ng.generate.programs.planner`'s); nothing reads ``../shared``.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from programfixtures import (
    SUM,
    NoRuns,
    SumPlan,
    augment,
    fake_inputs,
    fake_plan,
    gz_lines,
    sum_tasks,
    use_plan,
    write_samples,
)

from evalplus_ng.backend.executors import Backend
from evalplus_ng.cli import main
from evalplus_ng.errors import InputError
from evalplus_ng.evaluation.program_verdicts import PROGRAM_SUITES, run_order
from evalplus_ng.generate.programs.planner import LARGE, RANDOM, ProgramInput
from evalplus_ng.oracle.programs.answers import (
    UNRUN,
    Drop,
    Stressed,
    aligned,
    answers,
    batches,
    drop_reason,
    screen,
    stress_why,
)
from evalplus_ng.oracle.programs.defects import refutations
from evalplus_ng.pipeline.programs.augment import (
    ARTIFACT,
    ProgramAugmentConfig,
    checkpoint_path,
    run_augment_programs,
    summary_lines,
    task_rng,
)
from evalplus_ng.records import Fault, Outcome, ProgramTask, ProgramTest, Status
from evalplus_ng.tasks.programfile import augmented_record, load_program_tasks

# --------------------------------------------------------------------------- a fake plan

#: A reference that raises on n == 7, an input the plan admits: it refutes the plan.
PICKY = SUM.replace("print(", "assert n != 7\nprint(", 1)


@pytest.fixture()
def fake(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The fake plan in place of the planner's; returns the ids planned, in order."""
    planned: list[str] = []

    def plan(task: ProgramTask) -> Any:
        planned.append(task.task_id)
        return fake_plan(task)

    use_plan(monkeypatch, plan)
    return planned


# --------------------------------------------------------------------------- pure parts


def test_screen_drops_violations_repeats_and_seeds() -> None:
    plan = SumPlan("cc/sum")
    made = [ProgramInput("2\n1 2\n", RANDOM), ProgramInput("2\n1 2\n", RANDOM),
            ProgramInput("1\n5\n", RANDOM), ProgramInput("3\n1 2\n", RANDOM),
            ProgramInput("1\n9999\n", RANDOM)]
    screened = screen(made, ["1\n5\n"], plan.violation)
    assert [c.text for c in screened.inputs] == ["2\n1 2\n"]
    assert (screened.violations, screened.repeated) == (2, 2)
    assert screened.shown[0].endswith("not n numbers")


def test_what_the_reference_did_decides_drops_and_tiers() -> None:
    ok = Outcome(Status.OK, "3\n", seconds=0.01)
    slow = Outcome(Status.OK, "4\n", seconds=0.9)
    outcomes = [ok, Outcome(Status.TIMEOUT, error="t"),
                Outcome(Status.ERROR, error="e", fault=Fault.RAISED),
                Outcome(Status.ERROR, error="big", fault=Fault.TOO_LARGE),
                Outcome(Status.CRASH, error="killed"), slow, ok]
    assert [drop_reason(o) for o in outcomes] == [
        None, Drop.TIMEOUT, Drop.RUNTIME_ERROR, Drop.OUTPUT_LIMIT, Drop.RUNTIME_ERROR, None,
        None]
    kinds = [RANDOM] * 6 + [LARGE]
    candidates = [ProgramInput(f"{k}\n", kind) for k, kind in enumerate(kinds)]
    # one more candidate than outcomes: its job stopped before it
    got = answers([*candidates, ProgramInput("x\n", RANDOM)], outcomes)
    # the tier follows how an input was made, never the reference's time: the slow
    # answer stays in plus (its limit is calibrated from that time)
    assert [(t.test.input, t.test.output, t.test.origin) for t in got.tests] == [
        ("0\n", "3\n", "plus"), ("5\n", "4\n", "plus"), ("6\n", "3\n", "stress")]
    assert all(not t.test.public for t in got.tests) and got.tests[1].seconds == 0.9
    assert got.dropped == {"not_run": 1, "output_limit": 1, "runtime_error": 2, "timeout": 1}
    assert got.stressed == {"large": 1}
    assert stress_why(RANDOM) is None and stress_why(LARGE) is Stressed.LARGE
    # the large inputs in jobs of their own, after the others; a stopped job's rest unrun
    mixed = [ProgramInput("a", LARGE), ProgramInput("b", RANDOM), ProgramInput("c", LARGE),
             ProgramInput("d", RANDOM), ProgramInput("e", RANDOM), ProgramInput("f", LARGE)]
    jobs = batches(mixed, 2, 1)
    assert jobs == [[1, 3], [4], [0], [2], [5]]
    assert aligned(jobs, [[ok, slow], [ok], [], [ok], [slow]], 6) == [
        UNRUN, ok, ok, slow, ok, slow]


# --------------------------------------------------------------------------- the tasks file


def test_origin_round_trips_and_is_checked(tmp_path: Path) -> None:
    record = gz_lines(sum_tasks(tmp_path / "t.jsonl.gz"))[0]
    new = [ProgramTest("1\n4\n", "4\n", False, "plus"), ProgramTest("1\n5\n", "5\n", False,
                                                                     "stress")]
    line = augmented_record(record, new, {"grammar": "g"})
    assert list(line) == [*record, "contract"] and line["tags"] == ["math"]
    assert line["tests"][2:] == [
        {"input": "1\n4\n", "output": "4\n", "public": False, "origin": "plus"},
        {"input": "1\n5\n", "output": "5\n", "public": False, "origin": "stress"}]
    # augmenting again replaces the earlier new tests, never stacks them
    assert augmented_record(line, new[:1], None)["tests"] == [*record["tests"],
                                                              line["tests"][2]]
    path = tmp_path / "a.jsonl"
    path.write_text(json.dumps(line) + "\n")
    (task,) = load_program_tasks(path)
    assert [t.origin for t in task.tests] == ["", "", "plus", "stress"]
    assert {suite: [task.tests[i].input for i in run_order(task, suite)]
            for suite in PROGRAM_SUITES} == {
        "base": ["3\n1 2 3\n"], "original": ["3\n1 2 3\n", "2\n5 5\n"],
        "plus": ["3\n1 2 3\n", "1\n4\n"], "stress": ["3\n1 2 3\n", "1\n5\n"],
        "full": ["3\n1 2 3\n", "2\n5 5\n", "1\n4\n", "1\n5\n"]}
    cases: list[tuple[dict[str, Any], str]] = [
        ({"origin": "edge"}, "unknown origin 'edge'"), ({"origin": ""}, "unknown origin ''"),
        ({"origin": "plus", "public": True}, "never public")]
    for test, problem in cases:
        bad = {**line, "tests": [{"input": "1\n", "output": "1\n", **test}]}
        path.write_text(json.dumps(bad) + "\n")
        with pytest.raises(InputError, match=problem):
            load_program_tasks(path)


# --------------------------------------------------------------------------- the command


def _augment(tasks: Path, out: Path, *flags: str) -> Any:
    """``augment`` without its MINI (tests/test_program_mini.py has it)."""
    return augment(tasks, out, *flags, per_task=40)


def test_augment_programs_end_to_end(tmp_path: Path, fake: list[str]) -> None:
    tasks = sum_tasks(tmp_path / "tasks.jsonl.gz", [
        {"task_id": "cc/any", "prompt": "Print any.", "canonical_solution": "print(1)\n",
         "multiple_answers_suspected": True,
         "tests": [{"input": "1\n", "output": "1\n", "public": True}]}])
    result = _augment(tasks, tmp_path / "one", "-j", "1")
    assert fake == ["cc/sum", "cc/echo"]  # never the task flagged multiple answers
    assert "3 tasks: 1 augmented (0 from checkpoints), 1 without an input grammar, 0 with " \
           "no new input made, 0 whose plan the reference refuted" in result.output
    assert "1 skipped as multiple answers" in result.output
    assert "no input grammar: the statement names no input format (1)" in result.output
    sums, echo, anyone = gz_lines(tmp_path / "one" / ARTIFACT)
    assert sums["contract"] == {"grammar": "n then n integers"}
    assert (echo["contract"], anyone["contract"]) == (None, None)
    assert echo["tests"] == [{"input": "a\n", "output": "a\n", "public": True}]
    new = sums["tests"][2:]
    assert sums["tests"][:2] == gz_lines(tasks)[0]["tests"] and sums["source"] == "ours"
    for test in new:  # the reference's own answer, nothing the plan refuses
        n, numbers = test["input"].split("\n")[:2]
        assert SumPlan("x").violation(test["input"]) is None
        assert test["output"] == f"{sum(map(int, numbers.split()))}\n"
        assert test["origin"] == ("stress" if n == "200" else "plus")
    stats = json.loads((tmp_path / "one" / "stats.json").read_text())
    report = stats["tasks"][0]
    assert (report["candidates"], report["violations"], report["stress"]) == (40, 0, 4)
    assert report["plus"] == 36 and report["dropped"] == {}
    assert report["plus"] == sum(t["origin"] == "plus" for t in new)
    seconds = json.loads((tmp_path / "one" / "reference-seconds.json").read_text())
    assert len(seconds["tasks"]["cc/sum"]["seconds"]) == len(new)
    assert set(seconds["tasks"]) == {"cc/sum"} and seconds["format"] == 2

    # the same seed, the same bytes, whatever -j; another seed, other inputs
    _augment(tasks, tmp_path / "two", "-j", "2")
    assert (tmp_path / "one" / ARTIFACT).read_bytes() == (tmp_path / "two" / ARTIFACT
                                                          ).read_bytes()
    _augment(tasks, tmp_path / "other", "--seed", "1", "-j", "2")
    assert gz_lines(tmp_path / "other" / ARTIFACT)[0]["tests"] != sums["tests"]

    # evaluate on the artifact: the public tests pass a program wrong past n = 100; the
    # plus suite does not catch it (its large inputs are in stress), stress does
    wrong = "n = int(input())\nxs = input().split()\nprint(sum(map(int, xs[:100])))\n"
    samples = write_samples(tmp_path / "s.jsonl", "cc/sum", [SUM, wrong])
    verdicts = {}
    for suite in ("plus", "stress", "original", "full", "base"):
        run = CliRunner().invoke(main, ["evaluate", "--dataset-file",
                                        str(tmp_path / "one" / ARTIFACT), "--samples",
                                        str(samples), "--suite", suite, "-j", "1"])
        assert run.exit_code == 0, run.output
        # results named by the suite, and beyond the dataset's own tests by the tasks file
        digest = hashlib.sha256((tmp_path / "one" / ARTIFACT).read_bytes()).hexdigest()[:12]
        named = suite if suite in ("base", "original") else f"{suite}-{digest}"
        document = json.loads((tmp_path / f"s.evalplus-ng.{named}.json").read_text())
        assert document["evalplus_ng"]["suite"] == suite
        verdicts[suite] = [e.get(f"{suite}_status", e["base_status"])
                           for e in document["eval"]["cc/sum"]]
    assert verdicts == {"plus": ["pass", "pass"], "stress": ["pass", "fail"],
                        "original": ["pass", "pass"], "full": ["pass", "fail"],
                        "base": ["pass", "pass"]}
    plain = CliRunner().invoke(main, ["evaluate", "--dataset-file", str(tasks), "--samples",
                                      str(samples), "--suite", "plus"])
    assert plain.exit_code == 2 and "no plus tests here" in plain.output


def test_augment_programs_resumes_from_checkpoints(tmp_path: Path, fake: list[str]) -> None:
    tasks = sum_tasks(tmp_path / "tasks.jsonl.gz")
    out = tmp_path / "out"
    first = _augment(tasks, out, "--tasks", "cc/sum", "-j", "1")
    assert "1 tasks: 1 augmented (0 from checkpoints)" in first.output
    assert len(gz_lines(out / ARTIFACT)) == 1
    fake.clear()
    again = _augment(tasks, out, "--tasks", "0-1", "-j", "1")  # numbers: places in the file
    assert fake == ["cc/echo"]  # the task checkpointed is not planned again
    assert "2 tasks: 1 augmented (1 from checkpoints)" in again.output
    whole = gz_lines(out / ARTIFACT)
    alone = tmp_path / "alone"
    _augment(tasks, alone, "-j", "1")
    assert (alone / ARTIFACT).read_bytes() == (out / ARTIFACT).read_bytes()
    # another setting is another checkpoint: the task is made again
    fake.clear()
    _augment(tasks, out, "--time-limit", "3", "-j", "1")
    assert fake == ["cc/sum", "cc/echo"] and len(whole) == 2
    assert checkpoint_path(out, "cc/sum").is_file()


def test_flags_of_the_other_kind_of_task_are_one_line_errors(tmp_path: Path) -> None:
    tasks = sum_tasks(tmp_path / "tasks.jsonl.gz")
    for flags, problem in [(["--dataset-file", str(tasks), "--budget", "5", "--no-audit"],
                            "--budget, --no-audit: not for program tasks"),
                           (["--dataset", "humaneval", "--time-limit", "1"],
                            "--time-limit: not for function tasks"),
                           (["--dataset-file", str(tasks), "--tasks", "5"],
                            "unknown task number 5")]:
        result = CliRunner().invoke(main, ["augment", "--out", str(tmp_path / "o"), *flags])
        assert result.exit_code == 2, result.output
        assert problem in result.output and len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "o").exists()


def test_a_reference_looping_on_large_inputs_costs_two_time_limits(tmp_path: Path) -> None:
    looping = SUM.replace("print(", "while n == 200:\n    pass\nprint(", 1)
    records = [(task, record) for task, record in zip(
        load_program_tasks(sum_tasks(tmp_path / "t.jsonl.gz")), gz_lines(tmp_path / "t.jsonl.gz"),
        strict=True)][:1]
    task, record = records[0]
    record = {**record, "canonical_solution": looping}
    task = ProgramTask(task.task_id, task.prompt, looping, task.tests)
    summary = run_augment_programs([(task, record)], ProgramAugmentConfig(count=40,
                                   time_limit=0.2), tmp_path / "out", Backend(1),
                                   planner=fake_plan, generator=fake_inputs)
    (report,) = summary.reports
    assert report.dropped == {"not_run": 2, "timeout": 2}  # one job of the four large ones
    assert (report.plus, report.stress) == (36, 0)


def test_a_reference_raising_on_an_admitted_input_refutes_the_plan(tmp_path: Path) -> None:
    """The reference passes the dataset's tests, so it answers every valid input: one it
    raises on shows the plan admits what it should not, and no new test is kept."""
    (task, record), *_ = zip(load_program_tasks(sum_tasks(tmp_path / "t.jsonl.gz")),
                             gz_lines(tmp_path / "t.jsonl.gz"), strict=True)
    task = ProgramTask(task.task_id, task.prompt, PICKY, task.tests)
    summary = run_augment_programs([(task, {**record, "canonical_solution": PICKY})],
                                   ProgramAugmentConfig(count=40), tmp_path / "out",
                                   Backend(1), planner=fake_plan, generator=fake_inputs)
    (report,) = summary.reports
    assert report.outcome == "refuted" and (report.plus, report.stress) == (0, 0)
    raised = report.dropped["runtime_error"]
    assert raised > 0 and report.reason.startswith(f"the reference raised on {raised} of 40")
    assert report.witness.startswith("7\n")
    made = fake_inputs(None, [test.input for test in task.base_tests],
                       task_rng(0, task.task_id), 40)
    sevens = [item.text for item in made if item.text.startswith("7\n")]
    assert report.witness == min(sevens, key=lambda text: (len(text), text))
    (line,) = gz_lines(tmp_path / "out" / ARTIFACT)
    assert line["tests"] == record["tests"]  # the dataset's tests, nothing added
    assert any("refuted" in text for text in summary_lines(summary))


def test_a_reference_raising_where_its_statement_admits_the_input_is_wrong(
        tmp_path: Path) -> None:
    """A plan keeping nothing but the statement's bounds (``"stated"`` in its contract)
    admits only inputs the statement does: a reference raising on one is wrong there.
    Those inputs are no test, the others are, and the audit names the witness."""
    (task, record), *_ = zip(load_program_tasks(sum_tasks(tmp_path / "t.jsonl.gz")),
                             gz_lines(tmp_path / "t.jsonl.gz"), strict=True)
    task = ProgramTask(task.task_id, task.prompt, PICKY, task.tests)

    def stated_plan(task: ProgramTask) -> Any:
        plan = fake_plan(task)
        return replace(plan, contract={**plan.contract, "stated": True})

    summary = run_augment_programs([(task, {**record, "canonical_solution": PICKY})],
                                   ProgramAugmentConfig(count=40), tmp_path / "out",
                                   Backend(1), planner=stated_plan, generator=fake_inputs)
    (report,) = summary.reports
    raised = report.dropped["runtime_error"]
    assert report.outcome == "augmented" and raised > 0
    assert report.plus + report.stress == 40 - raised
    assert report.witness.startswith("7\n") and "wrong reference" in report.reason
    (line,) = gz_lines(tmp_path / "out" / ARTIFACT)
    new = [test for test in line["tests"] if test not in record["tests"]]
    assert len(new) == 40 - raised and not any(t["input"].startswith("7\n") for t in new)
    assert any("statement admits" in text for text in summary_lines(summary))
    stats = json.loads((tmp_path / "out" / "stats.json").read_text(encoding="utf-8"))
    (finding,) = refutations(stats)
    assert finding.witness == report.witness and "reference is wrong" in finding.explanation


def test_a_plan_the_generator_finds_no_input_for_keeps_its_tests(tmp_path: Path) -> None:
    path = sum_tasks(tmp_path / "t.jsonl.gz")
    records = list(zip(load_program_tasks(path), gz_lines(path), strict=True))
    summary = run_augment_programs(records, ProgramAugmentConfig(count=5), tmp_path / "out",
                                   planner=fake_plan, generator=lambda *_args: [],
                                   executor=NoRuns())
    assert [(r.outcome, r.reason) for r in summary.reports] == [
        ("no_inputs", "the generator made no input the plan admits"),
        ("no_grammar", "the statement names no input format")]
    sums, echo = gz_lines(summary.artifact)
    assert sums["tests"] == records[0][1]["tests"] and sums["contract"] is not None
    assert echo["tests"] == records[1][1]["tests"] and echo["contract"] is None
