"""``report``: read results files and write report.md and report.html."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from evalplus_ng.errors import InputError
from evalplus_ng.files import write_atomically
from evalplus_ng.oracle import audit
from evalplus_ng.pipeline.context import DEFAULT_OUT
from evalplus_ng.report import render
from evalplus_ng.report.render import SuiteFacts
from evalplus_ng.report.summary import (
    DuplicateResultsError,
    JudgedFile,
    Report,
    ResultsFormatError,
    build,
    judged_file,
)


@dataclass(frozen=True)
class ReportSummary:
    """What ``report`` wrote and over what."""

    markdown_path: Path
    html_path: Path
    report: Report
    facts: SuiteFacts


def results_files(paths: Sequence[Path]) -> list[Path]:
    """The results files ``paths`` name: files as given, folders by every
    ``*eval_results.json`` below them (in name order)."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            inside = sorted(path.rglob("*eval_results.json"))
            if not inside:
                raise InputError(str(path), None, "no *eval_results.json files in this folder")
            found += inside
        elif path.is_file():
            found.append(path)
        else:
            raise InputError(str(path), None, "no such file or folder")
    return found


def results_label(path: Path) -> str:
    """Whose samples a results file judged: ``x_eval_results.json`` -> ``x``; a samples
    folder's ``eval_results.json`` -> the folder's name."""
    if path.name == "eval_results.json":
        return path.parent.name
    return path.name.removesuffix(".json").removesuffix("_eval_results")


def _json_file(path: Path) -> object | None:
    try:
        document: object = json.loads(path.read_text(encoding="utf-8"))
        return document
    except (OSError, ValueError):
        return None


def suite_facts(artifacts: Path, datasets: Collection[str] = ()) -> SuiteFacts:
    """What ``artifacts`` holds of the suite (stats, MINI size, audit); an absent or
    unreadable file leaves its part out, with a note saying so, as does a suite of a
    dataset other than the results' ``datasets``."""
    notes: list[str] = []
    stats, reduction, findings = (_json_file(artifacts / name) for name in
                                  ("stats.json", "reduction.json", "audit.json"))
    plus = stress = edge = None
    if isinstance(stats, dict):
        plus, stress = stats.get("plus_inputs"), stats.get("stress_inputs")
        edge = stats.get("edge_inputs")
        config = stats.get("config")
        made = config.get("dataset") if isinstance(config, dict) else None
        if made and datasets and made not in datasets:
            notes.append(f"warning: {artifacts} holds a {made} suite; the results judged "
                         f"{', '.join(sorted(datasets))}")
    else:
        notes.append(f"no readable {artifacts / 'stats.json'}")
    profile = tests = None
    if isinstance(reduction, dict):
        profile = reduction.get("profile")
        tests = next((p.get("tests_per_task") for p in reduction.get("profiles", [])
                      if isinstance(p, dict) and p.get("profile") == profile), None)
    audit_counts = defective = None
    if isinstance(findings, list):
        records = [f for f in findings if isinstance(f, dict)]
        audit_counts = dict(Counter(str(f.get("status")) for f in records))
        defective = tuple(sorted({str(f.get("task_id")) for f in records
                                  if f.get("status") == audit.CONFIRMED}, key=audit.task_order))
    return SuiteFacts(str(artifacts), plus, stress, edge, profile, tests, audit_counts,
                      defective or (), tuple(notes))


def run_report(paths: Sequence[Path], out: Path, artifacts: Path = DEFAULT_OUT,
               ) -> ReportSummary:
    """Read every results file ``paths`` name (one or more per model: ``evaluate
    --results DIR/MODEL_eval_results.json``, one folder per suite); write
    ``out/report.md`` and ``out/report.html``, with what ``artifacts`` says of the suite."""
    judged: list[JudgedFile] = []
    for path in results_files(paths):
        try:
            document = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(str(path), None, f"cannot read: {exc}") from None
        except json.JSONDecodeError as exc:
            raise InputError(str(path), exc.lineno, f"invalid JSON: {exc.msg}") from None
        try:
            judged.append(judged_file(document, results_label(path), str(path)))
        except ResultsFormatError as exc:
            raise InputError(str(path), None, str(exc)) from None
    try:
        report = build(judged)
    except DuplicateResultsError as exc:
        raise InputError(exc.path, None, str(exc)) from None
    facts = suite_facts(artifacts, report.datasets)
    out.mkdir(parents=True, exist_ok=True)
    markdown_path, html_path = out / "report.md", out / "report.html"
    write_atomically(markdown_path, render.markdown(report, facts))
    write_atomically(html_path, render.page(report, facts))
    return ReportSummary(markdown_path, html_path, report, facts)
