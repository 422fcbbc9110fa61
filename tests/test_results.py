"""Results files that cannot be mistaken: a name of our own per suite (EvalPlus's on
request, written only whole), the completeness mark and the suite's identity inside,
EvalPlus's statuses with our failure kinds beside them, and ``report`` refusing or
flagging a partial file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from evalplus_ng.backend.executors import Backend
from evalplus_ng.cli import main
from evalplus_ng.evaluation.verdicts import (
    Completeness,
    EvalConfig,
    SampleResult,
    completeness,
    results_document,
    results_from_document,
    run_record,
    verdict_identity,
)
from evalplus_ng.pipeline.context import Workspace
from evalplus_ng.pipeline.evaluate import (
    EvaluateRequest,
    is_results_name,
    results_label,
    results_path,
    run_evaluate,
    suite_name,
)
from evalplus_ng.records import Sample, Task, Verdict
from evalplus_ng.report.summary import judged_file
from evalplus_ng.tasks.registry import resolve

CORRECT = "    return x + y\n"
WRONG = "    return x - y\n"


def test_our_names_say_the_suite_evalplus_names_on_request_and_labels_read_back(
        tmp_path: Path) -> None:
    samples, folder = tmp_path / "model-a.jsonl", tmp_path / "model-b"
    folder.mkdir()
    names = {kind: results_path(samples, kind).name
             for kind in ("base", "plus", "mini", "stress", "stress-mini", "edge")}
    assert names["plus"] == "model-a.evalplus-ng.plus.json"
    assert names["stress-mini"] == "model-a.evalplus-ng.stress-mini.json"
    assert len(set(names.values())) == 6  # one file per suite
    assert suite_name("my/suite.jsonl.gz", "0123456789abcdef") == "file-0123456789ab"
    assert suite_name("mini", "0123") == "mini"
    assert results_path(folder, "base") == folder / "evalplus-ng.base.json"
    # EvalPlus's own names, the same for every suite.
    assert results_path(samples, "mini", evalplus=True).name == "model-a_eval_results.json"
    assert results_path(folder, "plus", evalplus=True) == folder / "eval_results.json"
    # Every name reads back as whose samples it judged; report finds each in a folder.
    for path in [*(results_path(samples, k) for k in names), results_path(samples, "base",
                                                                           evalplus=True)]:
        assert results_label(path) == "model-a" and is_results_name(path.name), path
    for path in (results_path(folder, "plus"), results_path(folder, "plus", evalplus=True)):
        assert results_label(path) == "model-b" and is_results_name(path.name), path
    assert results_label(tmp_path / "m.json") == "m"
    for other in ("stats.json", "model-a.jsonl", "model-a_eval_results.json.partial",
                  "reduction.json"):
        assert not is_results_name(other), other


def test_statuses_are_evalplus_s_and_failure_kinds_stand_beside_them() -> None:
    results = [SampleResult("A", "slow", Verdict.PASS, Verdict.FAIL, (), ([9],), "", "timeout"),
               SampleResult("B", "wrong", Verdict.FAIL, None, ([1],), (), "wrong output")]
    entries = results_document(results)["eval"]
    assert (entries["A"][0]["plus_status"], entries["A"][0]["plus_failure"]) == ("fail",
                                                                                 "timeout")
    # No plus column (a base suite): None, as `evalplus.evaluate --base_only` writes it.
    assert entries["B"][0]["plus_status"] is None and "plus_failure" not in entries["B"][0]
    # A file written before format 2 said "timeout" for a status: read as a failure of
    # that kind (for --resume); a status of no vocabulary is not reused.
    tasks = {"A": Task("A", "p", "f", "s", ([1],), plus_inputs=([9],))}
    old = {"eval": {"A": [{"task_id": "A", "solution": "slow", "base_status": "pass",
                           "plus_status": "timeout"},
                          {"task_id": "A", "solution": "odd", "base_status": "pass",
                           "plus_status": "maybe"}]}}
    done = results_from_document(old, [Sample("A", "slow", 1), Sample("A", "odd", 2)], tasks)
    assert list(done) == [0]
    assert (done[0].plus_status, done[0].plus_failure) == (Verdict.FAIL, "timeout")


def test_the_record_holds_the_completeness_mark_and_the_suite_s_identity() -> None:
    identity = verdict_identity("d1g35t", "humaneval", "plus", EvalConfig(), 1 << 30)
    mark = Completeness(False, 3, 10, 1, 4, 164, skipped=2)
    document = results_document([], identity, run_record(mark, "out/HumanEvalPlus.jsonl.gz",
                                                         "s.jsonl"), "2026-11-27 08:40")
    assert list(document) == ["date", "hash", "evalplus_ng", "eval"]
    record = document["evalplus_ng"]
    assert record["format"] == 2 and record["complete"] is False
    assert record["samples"] == {"judged": 3, "total": 10, "skipped": 2}
    assert record["tasks"] == {"judged": 1, "total": 4, "suite": 164}
    assert (record["suite"], record["suite_path"], record["hash"]) == (
        "plus", "out/HumanEvalPlus.jsonl.gz", "d1g35t")
    assert completeness(document) == mark
    assert mark.text() == "1 of 4 tasks, 3 of 10 samples judged"
    # EvalPlus's files and ours before format 2 say nothing of it: read as they are.
    assert completeness({"eval": {}}) is None
    assert completeness(results_document([], identity)) is None
    assert judged_file(document, "m", "m.json").partial
    assert not judged_file({"eval": {}}, "m", "m.json").partial
    # EvalPlus's own files: base and plus, or base alone where no sample has a plus
    # status (`evalplus.evaluate --base_only`).
    entry = {"task_id": "T/0", "solution": "x", "base_status": "pass", "plus_status": None}
    assert judged_file({"eval": {"T/0": [entry]}}, "m", "m.json").kind == "base"
    both = {**entry, "plus_status": "fail"}
    assert judged_file({"eval": {"T/0": [entry, both]}}, "m", "m.json").kind == "plus"


def _samples(path: Path, bodies: list[str]) -> Path:
    path.write_text("".join(json.dumps({"task_id": "HumanEval/53", "completion": body}) + "\n"
                            for body in bodies), encoding="utf-8")
    return path


class Stopped(Exception):
    """Stands for Ctrl-C (or a crash) in the middle of a run."""


def _interrupted(samples: Path, evalplus: bool = False) -> None:
    """``evaluate --suite base`` on ``samples``, stopped after its first sample."""
    def stop(done: int, _total: int) -> None:
        raise Stopped

    request = EvaluateRequest(samples=samples, suite="base",
                              workspace=Workspace(resolve("humaneval"), backend=Backend(1)),
                              config=EvalConfig(floor_seconds=0.5), evalplus_results=evalplus)
    with pytest.raises(Stopped):
        run_evaluate(request, stop)


def _run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def test_an_interrupted_run_is_marked_partial_report_refuses_it_and_resume_finishes(
        tmp_path: Path) -> None:
    samples = _samples(tmp_path / "m.jsonl", [CORRECT, WRONG])
    _interrupted(samples)
    results = tmp_path / "m.evalplus-ng.base.json"
    record = json.loads(results.read_text())["evalplus_ng"]
    assert record["complete"] is False
    assert record["samples"] == {"judged": 1, "total": 2, "skipped": 0}
    assert record["tasks"] == {"judged": 1, "total": 1, "suite": 164}
    report = tmp_path / "report"
    refused = _run("report", str(tmp_path), "--out", str(report))
    assert refused.exit_code == 2 and not report.exists()
    assert refused.stderr.splitlines() == [
        f"error: {results}: partial results (1 of 1 tasks, 1 of 2 samples judged; its run "
        "was interrupted or is still going): `evalplus-ng evaluate --resume` finishes it, "
        "`report --include-partial` shows it flagged"]
    flagged = _run("report", str(tmp_path), "--out", str(report), "--include-partial")
    assert flagged.exit_code == 0, flagged.output
    text = (report / "report.md").read_text(encoding="utf-8")
    assert "| 1 | m (partial) | 1 | 1 | 100.0 |" in text
    assert ("**Warning**: partial results: m on the base suite, 1 of 1 tasks, 1 of 2 samples "
            "judged; its rates are over those alone.") in text
    page = (report / "report.html").read_text(encoding="utf-8")
    assert "<td>m (partial)</td>" in page and "<p class=\"warning\">Warning: partial" in page
    finished = _run("evaluate", "--samples", str(samples), "--suite", "base", "--resume",
                    "--min-time-limit", "0.5", "-j", "1")
    assert finished.exit_code == 0 and "(1 reused)" in finished.stdout, finished.output
    document = json.loads(results.read_text())
    assert document["evalplus_ng"]["complete"] is True
    assert document["evalplus_ng"]["samples"]["judged"] == 2
    assert [e["base_status"] for e in document["eval"]["HumanEval/53"]] == ["pass", "fail"]
    assert _run("report", str(tmp_path), "--out", str(report)).exit_code == 0


def test_evalplus_results_are_written_under_evalplus_s_name_only_once_complete(
        tmp_path: Path) -> None:
    # EvalPlus loads any S_eval_results.json as a finished run of its own: while the run
    # is not complete, the results wait beside it under a name EvalPlus never reads.
    samples = _samples(tmp_path / "m.jsonl", [CORRECT, WRONG])
    _interrupted(samples, evalplus=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "m.jsonl", "m_eval_results.json.partial"]
    finished = _run("evaluate", "--samples", str(samples), "--suite", "base", "--resume",
                    "--evalplus-results", "--min-time-limit", "0.5", "-j", "1")
    assert finished.exit_code == 0 and "(1 reused)" in finished.stdout, finished.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.jsonl", "m_eval_results.json"]
    document = json.loads((tmp_path / "m_eval_results.json").read_text())
    # EvalPlus's keys, which its `evaluate` reads back, and ours beside them.
    assert {"date", "hash", "eval"} <= set(document) and document["evalplus_ng"]["complete"]
    assert [(e["base_status"], e["plus_status"]) for e in document["eval"]["HumanEval/53"]] \
        == [("pass", None), ("fail", None)]


def test_each_suite_has_its_own_file_saying_which_suite_judged_it(tmp_path: Path) -> None:
    from dataclasses import replace

    from evalplus_ng.tasks.artifact import write_plus_file
    from evalplus_ng.tasks.registry import load_humaneval

    add = next(t for t in load_humaneval() if t.task_id == "HumanEval/53")
    suite = tmp_path / "suite.jsonl.gz"
    write_plus_file([replace(add, plus_inputs=([-3, 4],))], suite)
    samples = _samples(tmp_path / "m.jsonl", [CORRECT, "    return abs(x) + y\n"])
    for name in ("base", str(suite)):
        result = _run("evaluate", "--samples", str(samples), "--suite", name, "-j", "1",
                      "--min-time-limit", "0.5")
        assert result.exit_code == 0, result.output
    base = json.loads((tmp_path / "m.evalplus-ng.base.json").read_text())
    [plus_path] = tmp_path.glob("m.evalplus-ng.file-*.json")
    plus = json.loads(plus_path.read_text())
    assert (base["evalplus_ng"]["suite"], base["evalplus_ng"]["suite_path"]) == ("base", None)
    assert (plus["evalplus_ng"]["suite"], plus["evalplus_ng"]["suite_path"]) == ("file",
                                                                                 str(suite))
    assert plus_path.name == f"m.evalplus-ng.file-{plus['hash'][:12]}.json"
    assert base["evalplus_ng"]["samples_path"] == str(samples)
    assert base["hash"] != plus["hash"] and all(d["evalplus_ng"]["complete"]
                                                for d in (base, plus))
    # report finds both in the folder: one model, its base and plus columns.
    result = _run("report", str(tmp_path), "--out", str(tmp_path / "report"))
    assert result.exit_code == 0, result.output
    assert "| 1 | m | 1 | 2 | 100.0 | 50.0 | 50.0 |" in result.stdout
