"""`evalplus-ng report` on results files of program tasks: the counts of a literal results
document (kills by what failed them and by the tier that found them, failures per suite),
and end to end from real `evaluate` runs of a tiny task, beside a function benchmark."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from programfixtures import ADD, add_record, write_jsonl

from evalplus_ng.cli import main
from evalplus_ng.report.program_results import (
    is_program_results,
    judged_programs,
    program_dataset,
    program_first_failures,
)
from evalplus_ng.report.summary import ResultsFormatError, build


def _entry(base: str, suite: str | None, runs: list[tuple[bool, str]], tier: str | None = None,
           refused: str = "") -> dict[str, Any]:
    """A sample's entry as ``evaluate`` writes it: ``runs`` (public?, status) in order; the
    first failure's ``tier`` where given (files before tiers were recorded have none)."""
    failing = next((i for i, (_public, status) in enumerate(runs) if status != "pass"), None)
    first = None if failing is None else {"index": failing, "status": runs[failing][1],
                                           **({"tier": tier} if tier else {})}
    return {"task_id": "cc/x", "solution": "print(1)\n", "base_status": base,
            **({} if suite is None else {"full_status": suite}), "first_failure": first,
            **({"refused": refused} if refused else {}),
            "tests": [{"index": i, "public": public, "status": status, "seconds": 0.0,
                       "time_limit": 1.0} for i, (public, status) in enumerate(runs)]}


def _document(entries: dict[str, list[dict[str, Any]]], suite: str = "full") -> dict[str, Any]:
    return {"evalplus_ng": {"kind": "programs", "suite": suite, "hash": "h"}, "eval": entries}


P, H = True, False  # a public test's run, a hidden one's


def test_a_program_results_file_counts_kills_by_what_failed_and_by_tier() -> None:
    document = _document({
        "cc/a": [_entry("pass", "pass", [(P, "pass"), (H, "pass")]),
                 _entry("pass", "fail", [(P, "pass"), (H, "wrong_answer")], "original"),
                 _entry("pass", "fail", [(P, "pass"), (H, "pass"), (H, "runtime_error")],
                        "plus")],
        "cc/b": [_entry("pass", "fail", [(P, "pass"), (H, "timeout")], "stress"),
                 # --details: a timeout first, then a wrong answer: a failure of correctness
                 _entry("pass", "fail", [(P, "pass"), (H, "timeout"), (H, "wrong_answer")]),
                 _entry("fail", "fail", [(P, "timeout")], "public"),
                 _entry("fail", "fail", [], refused="too_large")],
    })
    assert is_program_results(document) and not is_program_results({"eval": {}})
    judged = judged_programs(document, "m", "m.json")
    assert (judged.kind, judged.dataset, judged.digest, judged.programs) == (
        "full", "cc", "h", True)
    assert [(c.samples, c.base, c.plus) for c in judged.tasks.values()] == [(3, 3, 1), (4, 2, 0)]
    # Kills pass the public tests: the sample failing them on time and the refused one are
    # not kills, but they fail the suite.
    assert judged.kills == {"wrong_answer": 2, "runtime_error": 1, "timeout": 1}
    assert judged.bases == {"original": 1, "plus": 1, "stress": 1, "not recorded": 1}
    assert judged.failures == {"samples": 7, "wrong_answer": 2, "runtime_error": 1,
                               "output_limit": 0, "timeout": 2, "refused": 1}
    report = build([judged])
    row = report.rows[0]
    assert (row.base, row.full, row.plus) == (pytest.approx(100 * (1 + 2 / 4) / 2),
                                              pytest.approx(100 * (1 / 3) / 2), None)
    assert (report.pooled, report.kill_bases[:3]) == ("full", ("original", "plus", "stress"))
    failures = program_first_failures(document)
    assert (failures["cc/a"].sample, failures["cc/a"].tier, failures["cc/a"].kind) == (
        1, "full", "wrong_answer on test 1 (original)")
    assert (failures["cc/b"].sample, failures["cc/b"].kind) == (0, "timeout on test 1 (stress)")


def test_a_suite_of_one_hidden_tier_names_it_and_base_counts_the_public_runs() -> None:
    plus = _document({"cc/a": [{**_entry("pass", None, [(P, "pass"), (H, "wrong_answer")]),
                                "plus_status": "fail"}]}, "plus")
    assert judged_programs(plus, "m", "").bases == {"plus": 1}
    base = _document({"cc/a": [_entry("fail", None, [(P, "wrong_answer")]),
                               _entry("pass", None, [(P, "pass")])]}, "base")
    judged = judged_programs(base, "m", "")
    assert judged.kills == {} and judged.failures["wrong_answer"] == 1
    assert judged.pass_at_1("plus") == judged.pass_at_1("base") == 50.0
    with pytest.raises(ResultsFormatError, match="a verdict without full_status"):
        judged_programs(_document({"cc/a": [_entry("pass", None, [(P, "pass")])]}), "m", "")
    with pytest.raises(ResultsFormatError, match="unknown suite"):
        judged_programs(_document({}, "mini"), "m", "")
    assert program_dataset(["codecontests/1a", "codecontests/2b"]) == "codecontests"
    assert program_dataset(["a/1", "b/1"]) == program_dataset(["x"]) == "programs"


# ------------------------------------------------------------------- end to end

#: The tiny task "a + b" with a hidden test of each tier: the dataset's own (5 5), plus
#: (100 200), stress (a million, within half a second).
TESTS = [{"input": "1 2\n", "output": "3\n", "public": True},
         {"input": "5 5\n", "output": "10\n", "public": False},
         {"input": "100 200\n", "output": "300\n", "public": False, "origin": "plus"},
         {"input": "1000000 1\n", "output": "1000001\n", "public": False, "origin": "stress",
          "time_limit": 0.5}]
READ = "a, b = map(int, input().split())\n"
#: Each found by one tier: right; wrong on the dataset's hidden test; right on the
#: dataset's tests but wrong on plus; right but for looping on a stress-sized input.
SAMPLES = [ADD, READ + "print(3)\n", READ + "print(a + b if abs(a) < 50 else 0)\n",
           READ + "while a > 10 ** 5:\n    pass\nprint(a + b)\n"]


def _evaluate(tasks: Path, samples: Path, suite: str) -> Path:
    result = CliRunner().invoke(main, ["evaluate", "--dataset-file", str(tasks), "--samples",
                                       str(samples), "--suite", suite, "-j", "1"])
    assert result.exit_code == 0, result.output
    found = re.search(r"results in (\S+)", result.output)
    assert found is not None, result.output
    path = Path(found.group(1))
    assert path.parent == samples.parent and path.name.startswith(
        f"{samples.name.removesuffix('.jsonl')}.evalplus-ng.{suite}-")
    return path


def _function_results(path: Path) -> Path:
    """A function benchmark's results file of the same model (HumanEval, base and plus)."""
    entry = {"task_id": "HumanEval/0", "solution": "x", "base_status": "pass",
             "plus_status": "fail", "plus_failure": "wrong output", "base_fail_tests": [],
             "plus_fail_tests": [[1]]}
    path.write_text(json.dumps({"hash": "f", "evalplus_ng": {
        "suite": "plus", "dataset": "humaneval", "hash": "f"}, "eval": {"HumanEval/0": [entry]}}))
    return path


def test_report_on_program_results_beside_a_function_benchmark(tmp_path: Path) -> None:
    out = tmp_path / "out"  # as program `augment` leaves it: its tasks files and stats
    out.mkdir()
    tasks = write_jsonl(out / "ProgramsPlus.jsonl.gz", [add_record(TESTS)])
    mini = write_jsonl(out / "ProgramsMini.jsonl.gz", [add_record(TESTS[:3])])
    (out / "stats.json").write_text(json.dumps({
        "kind": "programs", "totals": {"tasks": {"augmented": 1}},
        "tasks": [{"task_id": "cc/add", "outcome": "augmented", "plus": 1, "stress": 1}],
        "limits": {"totals": {"by_limit": {"1": 1, "4": 1}}}}))
    (out / "mini-stats.json").write_text(json.dumps({
        "kind": "programs-mini", "totals": {"mini_tests_per_task": {"tasks": 1, "total": 1}}}))
    samples = write_jsonl(tmp_path / "m.jsonl", [{"task_id": "cc/add", "solution": code}
                                                 for code in SAMPLES])
    made = [_evaluate(tasks, samples, suite) for suite in ("full", "stress")]
    reduced = tmp_path / "reduced" / "m.jsonl"
    reduced.parent.mkdir()
    shutil.copy(samples, reduced)
    result = CliRunner().invoke(main, ["evaluate", "--dataset-file", str(mini), "--samples",
                                       str(reduced), "--suite", "plus", "-j", "1"])
    assert result.exit_code == 0, result.output
    judged = json.loads(made[0].read_text())
    assert hashlib.sha256(tasks.read_bytes()).hexdigest() == judged["evalplus_ng"]["hash"]
    assert [e["first_failure"] and e["first_failure"]["tier"]
            for e in judged["eval"]["cc/add"]] == [None, "original", "plus", "stress"]

    _function_results(tmp_path / "m.evalplus-ng.plus.json")
    result = CliRunner().invoke(main, ["report", str(tmp_path), "--artifacts", str(out),
                                       "--out", str(tmp_path / "report")])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "report" / "report.md").read_text()
    # Each dataset its own section; the model's row side by side across both.
    assert "over 2 benchmarks: HumanEval+ (1 model(s)), cc (stdin/stdout programs)" in text
    programs = text[text.index("## cc (stdin/stdout programs)"):]
    assert "| base | MINI | stress (efficiency) | full (every test) | drop |" in programs
    # Every sample passes the public tests; the MINI's plus tier fails two, the stress
    # tier three (two wrong, one too slow), every test all but the right one.
    assert "| 1 | m | 1 | 4 | 100.0 | 50.0 | 25.0 | 25.0 | 75.0 |" in programs
    # What each tier found, and correctness apart from timeouts.
    assert "| m | 3 | 1 | 1 | 1 | 0 |" in programs  # kills by tier: original, plus, stress
    assert "| m | 3 | 2 | 0 | 0 | 1 |" in programs  # by kind: wrong_answer ... timeout
    assert "| m | stress | 4 | 3 | 2 | 0 | 0 | 1 | 0 |" in programs
    assert "| m | mini | 4 | 2 | 2 | 0 | 0 | 0 | 0 |" in programs
    assert "- time limits of the new tests: 1 at 1 s, 1 at 4 s" in programs
    assert "- MINI (new tests of both tiers): 1.0 tests per task" in programs
    assert "| cc/add | 4 | 100.0 | 25.0 | 75.0 |" in programs
    assert "## HumanEval+" in text and "| m | 1 | 1 | 0 | 0 | 0 | 0 |" in text  # wrong output
    page = (tmp_path / "report" / "report.html").read_text()
    assert "wrong_answer on test 1 (original)" in page and "id=\"failures-cc\"" in page
