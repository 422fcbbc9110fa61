"""A program task's own checker program ("print any valid answer", :mod:`evalplus_ng.checker`):
reading it from a tasks file, reading its verdict, judging samples with it in the sandbox
(another valid answer passes, a wrong one is a wrong answer, a broken checker a checker
error) and ``augment`` on such tasks (augmented although flagged; refused where the checker
rejects the reference).

The fixture is "print any divisor d of n with 1 < d < n, or -1 if there is none", written
here; nothing reads ``../shared``. One sandbox for the module (conftest's
``program_sandbox``; a few seconds in all).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from programfixtures import write_jsonl

from evalplus_ng.checker import STDIN_BYTES, checker_stdin, stdin_bytes
from evalplus_ng.cli import main
from evalplus_ng.errors import InputError
from evalplus_ng.evaluation.program_verdicts import (
    ProgramConfig,
    ProgramResult,
    RunStatus,
    judge_programs,
)
from evalplus_ng.generate.programs.planner import RANDOM, ProgramInput
from evalplus_ng.judge import check
from evalplus_ng.oracle.programs.answers import checker_refusal
from evalplus_ng.pipeline.programs.augment import (
    AUGMENTED,
    BAD_CHECKER,
    MULTIPLE_ANSWERS,
    ProgramAugmentConfig,
    run_augment_programs,
    summary_lines,
    warning_lines,
)
from evalplus_ng.records import (
    CHECKER_VERDICT,
    Fault,
    JobResult,
    Outcome,
    ProgramTask,
    ProgramTest,
    Sample,
    Status,
    Verdict,
)
from evalplus_ng.sandbox import Limits, Sandbox
from evalplus_ng.tasks.programfile import augmented_record, load_program_records, load_program_tasks
from evalplus_ng.textjudge import accepts

#: The reference: the smallest proper divisor.
SMALLEST = ("n = int(input())\n"
            "print(next((d for d in range(2, int(n ** 0.5) + 1) if n % d == 0), -1))\n")
#: Another right program: the largest proper divisor.
LARGEST = ("n = int(input())\n"
           "d = next((d for d in range(2, int(n ** 0.5) + 1) if n % d == 0), -1)\n"
           "print(-1 if d == -1 else n // d)\n")
#: Wrong: n // 2 is a divisor of 12 (accepted) but not of 9 (rejected).
HALF = "print(int(input()) // 2)\n"
#: Right where it answers (12: 6, accepted by the checker), then raises on 9.
HALF_THEN_RAISES = "n = int(input())\nassert n != 9\nprint(n // 2)\n"
#: The checker of docs/how-to/program-tasks.md (and :mod:`evalplus_ng.checker`'s).
CHECKER = """\
import json, sys
case = json.load(sys.stdin)
n, got = int(case["input"]), case["output"].split()
if len(got) != 1 or not got[0].lstrip("-").isdigit():
    print("wrong: one integer expected")
elif int(got[0]) == -1:
    print("ok" if case["answer"].split() == ["-1"] else "wrong: a divisor exists")
else:
    d = int(got[0])
    print("ok" if 1 < d < n and n % d == 0 else f"wrong: {d} is no proper divisor of {n}")
"""
TESTS = (ProgramTest("12\n", "2\n", True), ProgramTest("9\n", "3\n"),
         ProgramTest("7\n", "-1\n"), ProgramTest("10\n", "2\n"), ProgramTest("35\n", "5\n"))
TASK = ProgramTask("cc/div", "Print any divisor d of n with 1 < d < n, or -1.", SMALLEST,
                   TESTS, flags=frozenset({"multiple_answers_suspected"}), checker=CHECKER)
LIMIT = 2.0

# --------------------------------------------------------------------------- the verdict


def test_a_checker_accepts_by_a_first_token_ok_in_any_case() -> None:
    for verdict in ("ok", "OK\n", "  Ok 6 divides 12\n", "oK"):
        assert accepts(verdict), verdict
    for verdict in ("", "\n", "okay", "ok,", "wrong", "no ok", "\uff4f\uff4b", "o\u212a"):
        assert not accepts(verdict), verdict
    assert not accepts(None)  # type: ignore[arg-type]
    # the judge reads it for a checker's job, whatever the expected output
    assert check("", [], "ok", "ok fine\n", 0.0, CHECKER_VERDICT)
    assert not check("", [], "ok", "wrong\n", 0.0, CHECKER_VERDICT)


def test_the_checker_reads_one_ascii_line_of_json() -> None:
    text = checker_stdin("é\n", "2\n", "6\udcff\n")  # a lone surrogate stays escaped
    assert text.isascii() and text.endswith("}\n") and text.count("\n") == 1
    assert json.loads(text) == {"input": "é\n", "answer": "2\n", "output": "6\udcff\n"}


def test_a_checker_stdin_is_measured_without_being_built() -> None:
    long = "a\x00\"\\\té\u20ac\U0001f600" * 20_000  # pieces end inside no escape
    for texts in [("", "", ""), ("12\n", "2\n", "6\n"), ("é\n", "2\n", "6\udcff\n"),
                  (long, "x" * 70_000, long[1:])]:
        assert stdin_bytes(*texts) == len(checker_stdin(*texts)), texts[0][:10]
    assert Limits().file_bytes == STDIN_BYTES  # what the sandbox's child may be given


# --------------------------------------------------------------------------- the tasks file


def _record(task_id: str = "cc/div", **fields: Any) -> dict[str, Any]:
    return {"task_id": task_id, "prompt": TASK.prompt, "canonical_solution": SMALLEST,
            "tests": [{"input": t.input, "output": t.output, "public": t.public}
                      for t in TESTS],
            "multiple_answers_suspected": True, "checker": CHECKER, **fields}


def test_a_tasks_file_gives_a_task_its_checker_and_keeps_it(tmp_path: Path) -> None:
    absent = {name: value for name, value in _record("cc/none").items() if name != "checker"}
    path = write_jsonl(tmp_path / "t.jsonl", [_record(), _record("cc/plain", checker=None), absent])
    (div, record), (plain, _), (none, _) = load_program_records(path)
    assert div.checker == CHECKER and div.tests == TESTS
    assert plain.checker == none.checker == ""
    line = augmented_record(record, [ProgramTest("4\n", "2\n", False, "plus")], None)
    assert line["checker"] == CHECKER  # augment's artifact keeps it
    again = write_jsonl(tmp_path / "a.jsonl", [line])
    assert load_program_tasks(again)[0].checker == CHECKER


@pytest.mark.parametrize(("checker", "problem"), [
    ("print(", "'checker' does not compile: '(' was never closed (its line 1)"),
    ("import json\n  x = 1\n", "'checker' does not compile: unexpected indent (its line 2)"),
    ("print(1)\0", "'checker' does not compile:"),
    (5, "'checker' must be a non-empty string"),
    ("  \n", "'checker' must be a non-empty string"),
])
def test_a_checker_that_does_not_compile_is_a_one_line_error(
        tmp_path: Path, checker: Any, problem: str) -> None:
    path = write_jsonl(tmp_path / "tasks.jsonl", [_record("cc/first"), _record(checker=checker)])
    with pytest.raises(InputError) as caught:
        load_program_tasks(path)
    assert str(caught.value).startswith(f"{path}:2: {problem}")
    assert "\n" not in str(caught.value)


def test_a_checker_refusal_names_the_public_test_and_what_the_checker_said() -> None:
    ok = JobResult(Outcome(Status.OK), (Outcome(Status.OK, "2\n"),), ())
    said = {
        "rejects": JobResult(Outcome(Status.OK), (Outcome(Status.OK, "wrong: no\n"),), (False,)),
        "raises": JobResult(Outcome(Status.OK), (Outcome(Status.ERROR, error="ValueError: x",
                                                         fault=Fault.RAISED),), (False,)),
        "accepts": JobResult(Outcome(Status.OK), (Outcome(Status.OK, "ok\n"),), (True,)),
    }
    task = ProgramTask("cc/div", "", SMALLEST, TESTS[1:] + TESTS[:1], checker=CHECKER)
    assert checker_refusal(task, ok, said["rejects"]) == (
        "its checker rejects the reference's output on public test 4: 'wrong: no'")
    assert checker_refusal(task, ok, said["raises"]) == (
        "its checker failed on public test 4: ValueError: x")
    assert checker_refusal(task, ok, said["accepts"]) == ""
    timed_out = JobResult(Outcome(Status.OK), (Outcome(Status.TIMEOUT, error="t"),), ())
    assert checker_refusal(task, timed_out, None).startswith(
        "the reference did not answer public test 4 (timeout)")
    hidden = ProgramTask("cc/div", "", SMALLEST, TESTS[1:], checker=CHECKER)
    assert checker_refusal(hidden, JobResult(Outcome(Status.OK), ()), None) == (
        "no public test to try its checker on")


# --------------------------------------------------------------------------- judging


def _judge(sandbox: Sandbox, task: ProgramTask, codes: Sequence[str],
           details: bool = False) -> list[ProgramResult]:
    samples = [Sample(task.task_id, code, line) for line, code in enumerate(codes, start=1)]
    return judge_programs({task.task_id: task}, samples, sandbox,
                          ProgramConfig(time_limit=LIMIT, details=details))


def _statuses(result: ProgramResult) -> list[tuple[int, str]]:
    return [(run.index, run.status.value) for run in result.tests]


def test_another_valid_answer_passes_and_a_wrong_one_is_a_wrong_answer(
        program_sandbox: Sandbox) -> None:
    reference, largest, half, raises = _judge(program_sandbox, TASK, [
        SMALLEST, LARGEST, HALF, HALF_THEN_RAISES])
    assert (reference.base, reference.full) == (Verdict.PASS, Verdict.PASS)
    assert (largest.base, largest.full) == (Verdict.PASS, Verdict.PASS)
    assert _statuses(largest) == [(k, "pass") for k in range(5)]
    # 12: 6, another answer the checker accepts; 9: 4, the first reject ends the sample
    assert (half.base, half.full) == (Verdict.PASS, Verdict.FAIL)
    assert _statuses(half) == [(0, "pass"), (1, "wrong_answer")]
    assert half.tests[1].error == "checker: wrong: 4 is no proper divisor of 9"
    assert _statuses(raises) == [(0, "pass"), (1, "runtime_error")]
    # the same without a checker: another answer is a wrong answer, as before
    plain = ProgramTask(TASK.task_id, TASK.prompt, SMALLEST, TESTS)
    (largest_plain,) = _judge(program_sandbox, plain, [LARGEST])
    assert _statuses(largest_plain) == [(0, "wrong_answer")]
    assert largest_plain.tests[0].error == ""
    # every test asked for: the checker judges every output the equality does not pass
    (every,) = _judge(program_sandbox, TASK, [HALF], details=True)
    assert _statuses(every) == [(0, "pass"), (1, "wrong_answer"), (2, "wrong_answer"),
                                (3, "pass"), (4, "wrong_answer")]


@pytest.mark.parametrize("broken", [
    "raise ValueError('broken checker')\n",
    "import sys\nprint('ok')\nsys.exit(3)\n",  # accepting needs a normal end
])
def test_a_checker_that_breaks_is_a_checker_error_not_a_wrong_answer(
        program_sandbox: Sandbox, broken: str) -> None:
    task = ProgramTask(TASK.task_id, TASK.prompt, SMALLEST, TESTS, checker=broken)
    reference, largest = _judge(program_sandbox, task, [SMALLEST, LARGEST])
    assert reference.full is Verdict.PASS  # equal outputs pass unchecked
    assert (largest.base, largest.full) == (Verdict.FAIL, Verdict.FAIL)
    assert largest.first_failure is not None
    assert largest.first_failure.status is RunStatus.CHECKER_ERROR
    assert largest.first_failure.error.startswith("checker: ")
    assert ("ValueError: broken checker" in largest.first_failure.error
            or "SystemExit: 3" in largest.first_failure.error)


# --------------------------------------------------------------------------- augment


@dataclass(frozen=True)
class DivisorPlan:
    """"n" (2 <= n <= 1000), one line."""

    task_id: str
    contract: dict[str, Any] | None = None
    reason: str = ""

    def violation(self, text: str) -> str | None:
        body = text.removesuffix("\n")
        return None if body.isdigit() and 2 <= int(body) <= 1000 else "n out of 2..1000"


def _inputs(plan: Any, seeds: Sequence[str], rng: random.Random,
            count: int) -> list[ProgramInput]:
    made = {f"{rng.randint(2, 1000)}\n" for _ in range(count)} - set(seeds)
    return [ProgramInput(text, RANDOM) for text in sorted(made)]


def test_augment_trusts_a_checker_only_once_it_accepts_the_reference(
        tmp_path: Path, program_sandbox: Sandbox) -> None:
    path = write_jsonl(tmp_path / "tasks.jsonl.gz", [
        _record(),
        _record("cc/strict", checker="print('wrong: I accept nothing')\n"),
        _record("cc/flagged", checker=None)])
    planned: list[str] = []

    def planner(task: ProgramTask) -> Any:
        planned.append(task.task_id)
        return DivisorPlan(task.task_id, {"grammar": "n"})

    summary = run_augment_programs(load_program_records(path), ProgramAugmentConfig(count=12),
                                   tmp_path / "out", planner=planner, generator=_inputs,
                                   executor=program_sandbox)
    div, strict, flagged = summary.reports
    assert planned == ["cc/div"]  # neither the refused task nor the one without a checker
    assert (div.outcome, flagged.outcome) == (AUGMENTED, MULTIPLE_ANSWERS)
    assert (strict.outcome, strict.reason) == (BAD_CHECKER, (
        "its checker rejects the reference's output on public test 0: "
        "'wrong: I accept nothing'"))
    assert any(line.startswith("cc/strict: skipped: its checker rejects")
               for line in warning_lines(summary.reports))
    assert "1 skipped as their checker did not accept" in summary_lines(summary)[0]
    stats = json.loads(summary.stats.read_text())
    assert stats["totals"]["tasks"][BAD_CHECKER] == 1
    assert stats["tasks"][1]["reason"] == strict.reason
    # the artifact: the checker kept, the reference's answers as the new tests' outputs
    tasks = {task.task_id: task for task in load_program_tasks(summary.artifact)}
    made = [test for test in tasks["cc/div"].tests if test.origin]
    assert len(made) == div.plus + div.stress > 0 and tasks["cc/div"].checker == CHECKER
    assert tasks["cc/strict"].tests == TESTS
    for test in made:
        n = int(test.input)
        smallest = next((d for d in range(2, int(n ** 0.5) + 1) if n % d == 0), -1)
        assert test.output == f"{smallest}\n"
    # judged on the augmented task, another valid answer still passes; a wrong one fails
    largest, half = _judge(program_sandbox, tasks["cc/div"], [LARGEST, HALF])
    assert largest.full is Verdict.PASS and half.full is Verdict.FAIL


def test_evaluate_reports_a_broken_checker_apart(tmp_path: Path) -> None:
    tasks = write_jsonl(tmp_path / "tasks.jsonl", [
        _record(), _record("cc/broken", checker="raise ValueError('broken checker')\n")])
    samples = write_jsonl(tmp_path / "s.jsonl", [{"task_id": task_id, "solution": LARGEST}
                                            for task_id in ("cc/div", "cc/broken")])
    result = CliRunner().invoke(main, ["evaluate", "--dataset-file", str(tasks), "--samples",
                                       str(samples), "-j", "1", "--min-time-limit", "2"])
    assert result.exit_code == 0, result.output
    assert "full: pass@1 50.0" in result.output
    assert ("warning: 1 sample(s) failed where their task's checker broke" in result.output
            and "cc/broken (1)" in result.output)
    named = f"s.evalplus-ng.full-{hashlib.sha256(tasks.read_bytes()).hexdigest()[:12]}.json"
    document = json.loads((tmp_path / named).read_text())
    div, broken = document["eval"]["cc/div"][0], document["eval"]["cc/broken"][0]
    assert (div["full_status"], div["first_failure"]) == ("pass", None)
    assert broken["first_failure"] == {"index": 0, "status": "checker_error", "tier": "public"}
    assert broken["tests"][0]["error"].startswith("checker: ValueError: broken checker")
