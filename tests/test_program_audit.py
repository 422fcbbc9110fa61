"""The audit of program tasks: the jury of samples on an augmented suite's new tests
(evalplus_ng/oracle/programs/defects.py, evalplus_ng/pipeline/programs/audit.py), the tests it
holds out, and the commands (``audit``, ``augment --samples``).

The fixture: "print |n|", whose reference forgets the sign of a negative n; its public test
is positive, so it passes. Two fake families of samples (files ``alpha`` and ``beta``)
print the right answer. Nothing reads ``../shared``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from programfixtures import (
    SUM,
    NoRuns,
    fake_plan,
    gz_lines,
    sum_tasks,
    use_plan,
    write_jsonl,
    write_samples,
)

from evalplus_ng.cli import main
from evalplus_ng.oracle.jury import Vote, majority
from evalplus_ng.oracle.programs.defects import (
    ProgramSample,
    disputes,
    refutations,
    split_held,
)
from evalplus_ng.pipeline.programs.audit import held_path, run_program_audit
from evalplus_ng.pipeline.programs.augment import ARTIFACT
from evalplus_ng.records import Outcome, ProgramTask, ProgramTest, Status
from evalplus_ng.sandbox import Sandbox
from evalplus_ng.tasks.samples import parse_families
from evalplus_ng.textjudge import same_output

#: The reference: wrong on a negative n (prints n).
WRONG_ABS = "n = int(input())\nprint(n if n > 0 else n)\n"
RIGHT_ABS = "n = int(input())\nprint(-n if n < 0 else n)\n"
OTHER_ABS = "print(abs(int(input())))\n"
#: Right where the reference is wrong, but it fails the public test (3).
FAILS_BASE = "n = int(input())\nprint(0 if n == 3 else abs(n))\n"


#: New tests of "print |n|" on which its reference is right, beyond those of ``_abs_suite``.
RIGHT_NEW = [(f"{n}\n", f"{n}\n", "plus") for n in range(10, 35)]


def _abs_suite(path: Path, right: Sequence[tuple[str, str, str]] = RIGHT_NEW,
               **fields: Any) -> Path:
    """An augmented tasks file of "print |n|": one public test, one of the dataset's, and
    new tests (two plus and one stress where the reference is wrong, two where it is
    right, then ``right``: 3 wrong of 30, the most the jury holds without review), as
    ``augment`` writes them; ``stats.json`` beside it."""
    new = [("5\n", "5\n", "plus"), ("-17\n", "-17\n", "plus"), ("-2\n", "-2\n", "plus"),
           ("0\n", "0\n", "plus"), ("-300\n", "-300\n", "stress"), *right]
    path.parent.mkdir(parents=True, exist_ok=True)
    write_jsonl(path, [{
        "task_id": "cc/abs", "prompt": "Print |n|.", "canonical_solution": WRONG_ABS,
        "tests": [{"input": "3\n", "output": "3\n", "public": True},
                  {"input": "7\n", "output": "7\n", "public": False},
                  *({"input": i, "output": o, "public": False, "origin": origin}
                    for i, o, origin in new)], **fields}])
    (path.parent / "stats.json").write_text(json.dumps({"kind": "programs", "tasks": [
        {"task_id": "cc/abs", "outcome": "augmented"}]}))
    return path


def _samples(folder: Path, **files: list[str]) -> Path:
    """A samples folder: one file per model (its name), each of programs for cc/abs."""
    folder.mkdir(parents=True, exist_ok=True)
    for model, codes in files.items():
        write_samples(folder / f"{model}.jsonl", "cc/abs", codes)
    return folder


# --------------------------------------------------------------------------- the vote


def _ok(text: str) -> Outcome:
    return Outcome(Status.OK, text)


TASK = ProgramTask("cc/abs", "", WRONG_ABS, (ProgramTest("-2\n", "-2\n", False, "plus"),))


def test_two_families_agreeing_against_the_suite_dispute_a_test_one_family_does_not() -> None:
    tests = TASK.tests
    two = [ProgramSample("cc/abs", "a", "alpha", "alpha"),
           ProgramSample("cc/abs", "b", "beta", "beta")]
    ballots = [[(_ok("2\n"), False)], [(_ok("2  \n\n"), False)]]  # the same by the lines rule
    [found] = disputes(TASK, tests, two, ballots, 2)
    assert (found.answer, found.families) == ("2\n", (("alpha", 1), ("beta", 1)))
    one = [ProgramSample("cc/abs", "a", "alpha", "alpha"),
           ProgramSample("cc/abs", "b", "alpha2", "alpha")]
    assert disputes(TASK, tests, one, ballots, 2) == []
    # two families that print different wrong answers agree on nothing
    assert disputes(TASK, tests, two, [[(_ok("2\n"), False)], [(_ok("3\n"), False)]], 2) == []
    # samples that print the suite's answer count against the majority: a tie keeps it
    suite_side = [(_ok("-2\n"), True)]
    three = [*two, ProgramSample("cc/abs", "c", "gamma", "gamma")]
    assert disputes(TASK, tests, three, [*ballots, suite_side], 2) != []
    four = [*three, ProgramSample("cc/abs", "d", "delta", "delta")]
    assert disputes(TASK, tests, four, [*ballots, suite_side, suite_side], 2) == []
    # a test a sample's job never reached is no answer (the other family alone is not enough)
    assert disputes(TASK, tests, two, [[(_ok("2\n"), False)], []], 2) == []


def test_the_majority_rule_is_the_function_jurys() -> None:
    votes = [Vote("alpha", False, _ok("2\n")), Vote("beta", False, _ok("2\n"))]
    found = majority(votes, lambda a, b: same_output(a, b), 2)
    assert found is not None and found.value == "2\n"
    assert majority(votes, lambda a, b: same_output(a, b), 3) is None


def test_refuted_plans_are_raises_findings_and_split_held_keeps_the_rest() -> None:
    stats = {"kind": "programs", "tasks": [
        {"task_id": "cc/a", "outcome": "refuted", "reason": "raised on 3 of 9",
         "witness": "0\n"},
        {"task_id": "cc/b", "outcome": "augmented"}]}
    [found] = refutations(stats)
    assert (found.task_id, found.signal, found.witness) == ("cc/a", "raises", "0\n")
    assert refutations(stats, ["cc/b"]) == [] and refutations({"tasks": []}) == []
    record = {"task_id": "x", "tests": [{"input": "1\n", "output": "1\n", "public": True},
                                        {"input": "1\n", "output": "1\n", "origin": "plus"},
                                        {"input": "2\n", "output": "2\n", "origin": "plus"}]}
    kept, held = split_held(record, frozenset({("plus", "1\n")}))
    assert [t["input"] for t in kept["tests"]] == ["1\n", "2\n"] and kept["task_id"] == "x"
    assert held is not None and held["tests"] == [record["tests"][1]]
    assert split_held(record, frozenset()) == (record, None)


# --------------------------------------------------------------------------- in the sandbox


def test_the_jury_finds_the_wrong_reference_and_holds_its_tests(
        tmp_path: Path, program_sandbox: Sandbox) -> None:
    suite = _abs_suite(tmp_path / "aug" / ARTIFACT)
    before = suite.read_bytes()
    samples = _samples(tmp_path / "s", alpha=[RIGHT_ABS], beta=[OTHER_ABS],
                       gamma=[FAILS_BASE])
    out = tmp_path / "report"
    summary = run_program_audit(suite, samples, out, executor=program_sandbox)
    [lead] = summary.findings
    assert (lead.signal, lead.task_id, lead.status) == ("samples", "cc/abs", "unreviewed")
    # the shortest disputed input is the witness; the suite's and the samples' outputs
    assert (lead.witness, lead.expected, lead.actual) == ("-2\n", "-2\n", "2\n")
    # each file is a family (gamma failed base: no vote)
    assert lead.families == (("alpha.jsonl", 1), ("beta.jsonl", 1))
    assert [d.test.input for d in lead.disputes] == ["-2\n", "-17\n", "-300\n"]
    assert (summary.samples, summary.passing, summary.judged) == (3, 2, 1)
    assert summary.held == {"cc/abs": 3} and suite.read_bytes() == before  # no hold
    [record] = json.loads((out / "audit.json").read_text())
    assert record["held_tests"] == 3 and record["held_origins"] == {"plus": 2, "stress": 1}
    assert (record["disputed_tests"], record["checked_tests"]) == (3, 30)
    assert record["disputed"][0] == {"input": "-2\n", "origin": "plus", "expected": "-2\n",
                                     "samples": "2\n",
                                     "families": {"alpha.jsonl": 1, "beta.jsonl": 1}}
    assert ("| cc/abs | `-2⏎` | `-2⏎` | `2⏎` | alpha.jsonl (1), beta.jsonl (1) | 3 of 30 "
            "| 3 |") in (out / "audit.md").read_text()

    # checkpointed: the same audit again runs nothing and finds the same
    resumed = run_program_audit(suite, samples, out, executor=NoRuns())
    assert resumed.resumed == 1 and resumed.findings == summary.findings
    assert (resumed.passing, resumed.runs) == (summary.passing, summary.runs) == (2, 60)

    # held: the suite loses the disputed tests, the held file has them, stats counts them
    held = run_program_audit(suite, samples, out, executor=program_sandbox, hold=True)
    assert held.held == {"cc/abs": 3}
    [task] = gz_lines(suite)
    assert [t["input"] for t in task["tests"]] == ["3\n", "7\n", "5\n", "0\n",
                                                  *(i for i, _o, _origin in RIGHT_NEW)]
    [out_task] = gz_lines(held_path(suite))
    assert held_path(suite).name == "ProgramsPlus-Held.jsonl.gz"
    assert [t["input"] for t in out_task["tests"]] == ["-17\n", "-2\n", "-300\n"]
    assert json.loads((suite.parent / "stats.json").read_text())["held_by_audit"] == {
        "tests": 3, "tasks": {"cc/abs": 3}}
    # the standalone audit reads the held file, so the lead stays listed
    again = run_program_audit(suite, samples, out, executor=program_sandbox)
    assert again.held == {"cc/abs": 3} and len(again.findings[0].disputes) == 3


def test_one_family_alone_or_base_failing_samples_find_nothing(
        tmp_path: Path, program_sandbox: Sandbox) -> None:
    suite = _abs_suite(tmp_path / "aug" / ARTIFACT)
    alone = _samples(tmp_path / "one", alpha=[RIGHT_ABS, OTHER_ABS])
    summary = run_program_audit(suite, alone, tmp_path / "r1", executor=program_sandbox)
    assert summary.findings == () and summary.skipped == {
        "samples of fewer than two families": 1}
    failing = _samples(tmp_path / "two", alpha=[RIGHT_ABS], gamma=[FAILS_BASE])
    summary = run_program_audit(suite, failing, tmp_path / "r2", executor=program_sandbox)
    assert summary.findings == () and summary.passing == 1 and summary.skipped == {
        "samples of fewer than two families pass the public tests": 1}


def test_most_tests_disputed_are_suspect_samples_more_than_a_tenth_hold_nothing(
        tmp_path: Path, program_sandbox: Sandbox) -> None:
    samples = _samples(tmp_path / "s", alpha=[RIGHT_ABS], beta=[OTHER_ABS])
    # 3 of 5 new tests: the samples are suspect, not the reference; nothing held.
    suite = _abs_suite(tmp_path / "few" / ARTIFACT, right=())
    before = suite.read_bytes()
    out = tmp_path / "r1"
    summary = run_program_audit(suite, samples, out, executor=program_sandbox, hold=True)
    [found] = summary.findings
    assert (found.signal, found.held, found.checked) == ("suspect-samples", (), 5)
    assert summary.held == {} and suite.read_bytes() == before
    assert not held_path(suite).exists()
    [record] = json.loads((out / "audit.json").read_text())
    assert (record["held_tests"], record["disputed_tests"]) == (0, 3)
    assert "## Suspect samples" in (out / "audit.md").read_text()
    # 3 of 10: a lead, more than the jury holds without review: nothing held.
    suite = _abs_suite(tmp_path / "ten" / ARTIFACT, right=RIGHT_NEW[:5])
    before = suite.read_bytes()
    summary = run_program_audit(suite, samples, tmp_path / "r2", executor=program_sandbox,
                                hold=True)
    [lead] = summary.findings
    assert (lead.signal, lead.held, len(lead.disputes)) == ("samples", (), 3)
    assert "none held" in lead.explanation and suite.read_bytes() == before
    # Declared one family (every file matches), the samples are no jury.
    summary = run_program_audit(suite, samples, tmp_path / "r3", executor=program_sandbox,
                                families=parse_families(["*=one"]))
    assert summary.findings == () and summary.skipped == {
        "samples of fewer than two families": 1}


def test_a_review_releases_the_tests_and_a_checker_task_is_not_judged(
        tmp_path: Path, program_sandbox: Sandbox) -> None:
    suite = _abs_suite(tmp_path / "aug" / ARTIFACT)
    samples = _samples(tmp_path / "s", alpha=[RIGHT_ABS], beta=[OTHER_ABS])
    review = tmp_path / "review.json"
    review.write_text(json.dumps({"cc/abs": {"samples": "the statement wants n itself"}}))
    held_path(suite).write_bytes(b"stale")
    summary = run_program_audit(suite, samples, tmp_path / "r", executor=program_sandbox,
                                review_file=review, hold=True)
    [lead] = summary.findings
    assert (lead.status, lead.review) == ("dismissed", "the statement wants n itself")
    assert summary.held == {} and not held_path(suite).exists()
    assert len(gz_lines(suite)[0]["tests"]) == 7 + len(RIGHT_NEW)
    checked = _abs_suite(tmp_path / "c" / ARTIFACT, checker="print('ok')\n")
    summary = run_program_audit(checked, samples, tmp_path / "rc", executor=program_sandbox)
    assert summary.findings == () and summary.base_jobs == 0 and summary.skipped == {
        "a checker program (it accepts other answers than the reference's)": 1}


# --------------------------------------------------------------------------- the commands


def test_audit_command_on_program_tasks(tmp_path: Path) -> None:
    suite = _abs_suite(tmp_path / "aug" / ARTIFACT)
    samples = _samples(tmp_path / "s", alpha=[RIGHT_ABS], beta=[OTHER_ABS])
    before = suite.read_bytes()
    result = CliRunner().invoke(main, ["audit", "--dataset-file", str(suite), "--samples",
                                       str(samples), "--out", str(tmp_path / "r"), "-j", "1"])
    assert result.exit_code == 0, result.output
    assert "1 jury lead(s), 0 refuted plan(s)" in result.output
    assert "3 new test(s) of 1 task(s) disputed (augment --samples holds them out" \
        in result.output
    assert suite.read_bytes() == before and (tmp_path / "r" / "audit.md").is_file()
    refused = CliRunner().invoke(main, ["audit", "--dataset-file", str(suite),
                                        "--opinion-model", "m", "--out", str(tmp_path / "r")])
    assert refused.exit_code == 2 and "--opinion-model: not for program tasks" in refused.output


#: A sum that forgets the sign of a total below -3000 (the public test's is positive): wrong
#: on few new tests (1 of 12), no more than the jury holds without review.
SUM_ABS = SUM.replace("print(sum(xs))", "print(abs(sum(xs)) if sum(xs) < -3000 else sum(xs))")


def test_augment_with_samples_holds_disputed_tests_until_reviewed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    use_plan(monkeypatch, fake_plan)
    tasks = sum_tasks(tmp_path / "tasks.jsonl.gz")
    lines = gz_lines(tasks)
    lines[0]["canonical_solution"] = SUM_ABS
    write_jsonl(tasks, lines[:1])
    samples = tmp_path / "s"
    samples.mkdir()
    write_samples(samples / "alpha.jsonl", "cc/sum", [SUM])
    write_samples(samples / "beta.jsonl", "cc/sum",
                  ["input()\nprint(sum(int(x) for x in input().split()))\n"])
    out = tmp_path / "out"
    flags = ["augment", "--dataset-file", str(tasks), "--out", str(out), "--per-task", "12",
             "--samples", str(samples), "--no-calibrate", "-j", "1"]
    result = CliRunner().invoke(main, flags)
    assert result.exit_code == 0, result.output
    [task] = gz_lines(out / ARTIFACT)
    [held] = gz_lines(held_path(out / ARTIFACT))
    negative = [t for t in held["tests"]]
    assert negative and all(t["output"] != f"{sum(map(int, t['input'].split()[1:]))}\n"
                            for t in negative)
    for test in task["tests"][2:]:  # what stays is right
        assert test["output"] == f"{sum(map(int, test['input'].split()[1:]))}\n"
    assert f"{len(negative)} new test(s) of 1 task(s) held out of the suite" in result.output
    # a review accepts the reference's answers: augment again, the tests are back
    (out / "data").mkdir()
    (out / "data" / "audit_review.json").write_text(json.dumps(
        {"cc/sum": {"samples": "the statement asks for the absolute value"}}))
    result = CliRunner().invoke(main, flags)
    assert result.exit_code == 0, result.output
    assert not held_path(out / ARTIFACT).exists()
    assert len(gz_lines(out / ARTIFACT)[0]["tests"]) == len(task["tests"]) + len(negative)
