"""`evalplus-ng report`: the numbers (on literal results documents), the Markdown and
the HTML page (end to end from real `evaluate` runs, rendered in headless Chromium)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from evalplus_ng.cli import main
from evalplus_ng.report.summary import (
    DuplicateResultsError,
    ResultsFormatError,
    build,
    judged_file,
)


def _document(kind: str | None, rows: list[tuple[str, str, str, str | None]],
              digest: str = "h") -> dict[str, Any]:
    """A results document: rows of (task, base status, plus status, plus failure)."""
    table: dict[str, list[dict[str, Any]]] = {}
    for task_id, base, plus, failure in rows:
        entry: dict[str, Any] = {"task_id": task_id, "solution": "x", "base_status": base,
                                 "plus_status": plus, "base_fail_tests": [],
                                 "plus_fail_tests": []}
        if failure:
            entry["plus_failure"] = failure
        table.setdefault(task_id, []).append(entry)
    if kind is None:  # EvalPlus's own layout
        return {"hash": digest, "eval": table}
    return {"hash": digest, "evalplus_ng": {"suite": kind, "dataset": "humaneval",
                                            "hash": digest}, "eval": table}


A_PLUS = [("T/0", "pass", "pass", None), ("T/0", "pass", "fail", "wrong output"),
          ("T/1", "pass", "timeout", "timeout"), ("T/1", "fail", "fail", "exception")]


def test_counts_pass_rates_and_kills_of_one_results_file() -> None:
    judged = judged_file(_document("plus", A_PLUS), "A", "a.json")
    assert (judged.kind, judged.samples, judged.dataset) == ("plus", 4, "humaneval")
    assert judged.tasks["T/0"].base == 2 and judged.tasks["T/0"].plus == 1
    assert judged.pass_at_1("base") == 75.0 and judged.pass_at_1("plus") == 25.0
    # A kill passes base and fails plus: the sample failing base is not one.
    assert judged.kills == {"wrong output": 1, "timeout": 1}
    # EvalPlus's files judge base and plus and record no failure kind: only a time-out
    # can be told from the status.
    theirs = judged_file(_document(None, [(t, b, p, None) for t, b, p, _ in A_PLUS]), "B", "")
    assert theirs.kind == "plus" and theirs.kills == {"not recorded": 1, "timeout": 1}


@pytest.mark.parametrize("document, problem", [
    ([], "no \"eval\" object"),
    ({"eval": {"T/0": {"base_status": "pass"}}}, "T/0: not a list of sample verdicts"),
    ({"eval": {"T/0": [{"plus_status": "pass"}]}}, "T/0: a verdict without base_status"),
])
def test_a_document_that_is_not_a_results_file_is_named(document: Any, problem: str) -> None:
    with pytest.raises(ResultsFormatError, match=problem):
        judged_file(document, "x", "x.json")


def test_leaderboard_puts_each_models_suites_in_one_row() -> None:
    files = [
        judged_file(_document("plus", A_PLUS), "A", "plus/A.json"),
        judged_file(_document("mini", [("T/0", "pass", "pass", None),
                                       ("T/0", "pass", "pass", None),
                                       ("T/1", "pass", "fail", "timeout"),
                                       ("T/1", "fail", "fail", None)]), "A", "mini/A.json"),
        judged_file(_document("file", [("T/0", "pass", "pass", None),
                                       ("T/1", "pass", "fail", "exception")]), "B", "B.json"),
        judged_file(_document("base", [("T/0", "pass", "pass", None),
                                       ("T/1", "pass", "pass", None)]), "C", "C.json"),
    ]
    report = build(files)
    assert [(r.label, r.base, r.plus, r.mini) for r in report.rows] == [
        ("B", 100.0, 50.0, None), ("A", 75.0, 25.0, 50.0), ("C", 100.0, None, None)]
    assert report.rows[1].drop == 50.0 and report.rows[2].drop is None
    # Per-task rates pool the models judged on plus (C, base only, has no plus rate).
    assert [(t.task_id, t.samples, t.base, t.plus) for t in report.tasks] == [
        ("T/0", 3, 100.0, 100 * 2 / 3), ("T/1", 3, 100 * 2 / 3, 0.0)]
    assert report.kills == {"wrong output": 1, "timeout": 1, "exception": 1}
    with pytest.raises(DuplicateResultsError, match="two results files for A on the plus"):
        build([*files, judged_file(_document("plus", A_PLUS), "A", "again/A.json")])


def test_the_edge_suite_is_a_column_of_its_own() -> None:
    from evalplus_ng.report.board import SuiteFacts, single
    from evalplus_ng.report.render import markdown

    files = [judged_file(_document("plus", A_PLUS), "A", "plus/A.json"),
             judged_file(_document("edge", [("T/0", "pass", "fail", "wrong output"),
                                            ("T/1", "pass", "pass", None)]), "A", "edge/A.json")]
    report = build(files)
    assert report.has_edge and (report.rows[0].plus, report.rows[0].edge) == (25.0, 50.0)
    text = markdown(single(report, SuiteFacts("out", edge_inputs={"avg": 3.0, "median": 2,
                                                                  "min": 0, "max": 9})))
    assert "| # | model | tasks | samples | base | plus | drop | edge (unlike base) |" in text
    assert "| 1 | A | 2 | 4 | 75.0 | 25.0 | 50.0 | 50.0 |" in text
    assert "- edge inputs per task: avg 3.0, median 2, min 0, max 9" in text
    assert not build(files[:1]).has_edge


def test_markdown_leaderboard_kills_tasks_and_a_warning_for_mixed_suites() -> None:
    from evalplus_ng.report.board import SuiteFacts, single
    from evalplus_ng.report.render import markdown

    files = [judged_file(_document("plus", A_PLUS), "A", "a.json"),
             judged_file(_document("plus", A_PLUS[:2], digest="other"), "B", "b.json")]
    text = markdown(single(build(files), SuiteFacts("out", defective=("T/1",),
                                                    audit={"confirmed": 1})))
    assert "| 1 | B | 1 | 2 | 100.0 | 50.0 | 50.0 |" in text
    assert "| 2 | A | 2 | 4 | 75.0 | 25.0 | 50.0 |" in text
    assert "| A | 2 | 1 | 0 | 1 | 0 | 0 |" in text  # kills by kind
    assert "| T/1 | 2 | 50.0 | 0.0 | 50.0 |" in text  # the largest drop first
    assert "judged with 2 different suites" in text
    assert "1 defective (T/1)" in text


def _judge(tmp_path: Path, artifacts: Path, suite: str, model: str, bodies: list[str]) -> str:
    samples = tmp_path / f"{model}.jsonl"
    samples.write_text("".join(json.dumps({"task_id": "HumanEval/53", "completion": body})
                               + "\n" for body in bodies), encoding="utf-8")
    result = CliRunner().invoke(main, [
        "evaluate", "--samples", str(samples), "--artifacts", str(artifacts), "--suite", suite,
        "--results", str(tmp_path / suite / f"{model}_eval_results.json"), "-j", "2",
        "--min-time-limit", "0.5"])
    assert result.exit_code == 0, result.output
    return result.stdout


def _add_suites(tmp_path: Path) -> Path:
    """Artifacts of HumanEval/53 (add): plus inputs -3 + 4, 10**20 + 1, 7 + 8; the MINI -3 + 4."""
    from evalplus_ng.tasks.artifact import write_plus_file
    from evalplus_ng.tasks.registry import load_humaneval

    add = next(t for t in load_humaneval() if t.task_id == "HumanEval/53")
    artifacts = tmp_path / "artifacts"
    artifacts.mkdir()
    write_plus_file([replace(add, plus_inputs=([-3, 4], [10**20, 1], [7, 8]))],
                    artifacts / "HumanEvalPlus.jsonl.gz")
    write_plus_file([replace(add, plus_inputs=([-3, 4],))],
                    artifacts / "HumanEvalPlus-Mini.jsonl.gz")
    return artifacts


def test_report_of_real_results_as_markdown_and_a_page_chromium_renders(
        tmp_path: Path, chromium: Callable[..., str]) -> None:
    artifacts = _add_suites(tmp_path)
    right, wrong = "    return x + y\n", "    return abs(x) + y\n"
    slow = "    if x > 10**6:\n        while True:\n            pass\n    return x + y\n"
    raises = "    if x < 0:\n        raise ValueError(x)\n    return x + y\n"
    for suite in ("plus", "mini"):
        _judge(tmp_path, artifacts, suite, "good", [right, right])
        _judge(tmp_path, artifacts, suite, "weak", [wrong, slow, raises, right])
    result = CliRunner().invoke(main, ["report", str(tmp_path / "plus"), str(tmp_path / "mini"),
                                       "--artifacts", str(artifacts), "--out",
                                       str(tmp_path / "report")])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "report" / "report.md").read_text(encoding="utf-8")
    assert text in result.stdout
    # weak: all four pass base; plus keeps one; the MINI (only -3) catches abs and raise.
    assert "| 1 | good | 1 | 2 | 100.0 | 100.0 | 0.0 | 100.0 |" in text
    assert "| 2 | weak | 1 | 4 | 100.0 | 25.0 | 75.0 | 50.0 |" in text
    assert "| weak | 3 | 1 | 1 | 1 | 0 | 0 |" in text  # wrong output, exception, timeout
    page = tmp_path / "report" / "report.html"
    content = page.read_text(encoding="utf-8")
    # Self-contained: one inline script, no stylesheet or image fetched from anywhere.
    assert content.count("<script") == 1 and "<script>" in content
    assert "<link" not in content and "src=" not in content
    assert content.count("<svg") == 3
    # The same results give the same bytes.
    again = CliRunner().invoke(main, ["report", str(tmp_path / "plus"), str(tmp_path / "mini"),
                                      "--artifacts", str(artifacts), "--out",
                                      str(tmp_path / "again")])
    assert again.exit_code == 0 and (tmp_path / "again" / "report.html").read_bytes() == \
        page.read_bytes()
    png = tmp_path / "shot.png"
    chromium(page.as_uri(), "--window-size=1200,1800", f"--screenshot={png}")
    from matplotlib.image import imread

    pixels = imread(png)[..., :3]
    inked = (pixels < 0.9).any(axis=-1).mean()
    colours = {tuple(p) for p in (pixels[::4, ::4] * 255).astype(int).reshape(-1, 3).tolist()}
    assert inked > 0.03 and len(colours) > 50, (inked, len(colours))
    # The plots were drawn: the plus bars' blue (#08519c) is on screen.
    blue = (abs(pixels[..., 0] - 8 / 255) < 0.03) & (abs(pixels[..., 1] - 81 / 255) < 0.03) \
        & (abs(pixels[..., 2] - 156 / 255) < 0.03)
    assert blue.sum() > 500


def test_report_errors_name_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "x_eval_results.json"
    bad.write_text("{\"eval\": [1]}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["report", str(bad), "--out", str(tmp_path / "r")])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert lines == [f"error: {bad}: not a results file: no \"eval\" object of tasks"]
    broken = tmp_path / "y_eval_results.json"
    broken.write_text("{\n  \"eval\": {,\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["report", str(broken), "--out", str(tmp_path / "r")])
    assert result.exit_code == 2 and result.stderr.startswith(f"error: {broken}:2: invalid JSON")
    empty = tmp_path / "empty"
    empty.mkdir()
    result = CliRunner().invoke(main, ["report", str(empty), "--out", str(tmp_path / "r")])
    assert result.exit_code == 2 and "no results files in this folder" in result.stderr
    assert not (tmp_path / "r").exists()


def test_evaluate_and_report_split_kills_into_like_base_and_edge(tmp_path: Path) -> None:
    # HumanEval/53's base inputs are non-negative and small and its prompt says nothing
    # of signs or sizes: -3 (negative) and 10**20 (past 2**53) are edge inputs, 7 + 8 is not.
    artifacts = _add_suites(tmp_path)
    bodies = ["    return x + y\n",
              "    return abs(x) + y\n",  # fails -3 only: edge (negative)
              "    return x + y if x < 10**9 else 0\n",  # fails 10**20 only: edge (big)
              "    return abs(x) + y if y != 8 else 0\n",  # fails -3 first, then 7 + 8
              "    return x + y if y != 8 else 0\n",  # fails 7 + 8: like base at once
              "    return x - y\n"]  # fails base: never a kill
    printed = _judge(tmp_path, artifacts, "plus", "m", bodies)
    assert ("kills (pass base, fail plus): 4 (4 wrong output); 2 on inputs like the base "
            "tests, 2 on edge classes the prompt does not mention (negative 1, big 1)") in printed
    results = tmp_path / "plus" / "m_eval_results.json"
    entries = json.loads(results.read_text(encoding="utf-8"))["eval"]["HumanEval/53"]
    assert [(e.get("kill"), e.get("plus_fail_edges"), e.get("kill_test")) for e in entries] == [
        (None, None, None), ("edge", ["negative"], None), ("edge", ["big"], None),
        ("like base", ["negative"], [7, 8]), ("like base", [], None), (None, None, None)]
    out = tmp_path / "report"
    result = CliRunner().invoke(main, ["report", str(tmp_path / "plus"), "--artifacts",
                                       str(artifacts), "--out", str(out)])
    assert result.exit_code == 0, result.output
    text = (out / "report.md").read_text(encoding="utf-8")
    assert "| model | kills | like base | edge | not recorded | edge classes (kills) |" in text
    assert "| m | 4 | 2 | 2 | 0 | negative 1, big 1 |" in text
    page = (out / "report.html").read_text(encoding="utf-8")
    assert ("<td>m</td><td class=\"n\">4</td><td class=\"n\">2</td><td class=\"n\">2</td>"
            "<td class=\"n\">0</td><td>negative 1, big 1</td>") in page
