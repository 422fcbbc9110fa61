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
from evalplus_ng.pipeline.evaluate import is_results_name, results_label
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
    """The results files ``paths`` name: files as given, folders by every results file
    below them, evalplus-ng's (``*.evalplus-ng.SUITE.json``) and EvalPlus's
    (``*eval_results.json``), in path order."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            inside = sorted(p for p in path.rglob("*.json")
                            if p.is_file() and is_results_name(p.name))
            if not inside:
                raise InputError(str(path), None, "no results files in this folder "
                                 "(*.evalplus-ng.SUITE.json or *eval_results.json)")
            found += inside
        elif path.is_file():
            found.append(path)
        else:
            raise InputError(str(path), None, "no such file or folder")
    return found


def partial_error(judged: JudgedFile) -> str | None:
    """Why ``report`` refuses a file whose run stopped early (None for the others)."""
    if not judged.partial or judged.mark is None:
        return None
    return (f"partial results ({judged.mark.text()}; its run was interrupted or is still "
            "going): `evalplus-ng evaluate --resume` finishes it, `report "
            "--include-partial` shows it flagged")


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
               include_partial: bool = False) -> ReportSummary:
    """Read every results file ``paths`` name (one per model and suite, e.g. the
    ``S.evalplus-ng.plus.json`` and ``S.evalplus-ng.mini.json`` that ``evaluate`` writes
    beside each samples file); write ``out/report.md`` and ``out/report.html``, with what
    ``artifacts`` says of the suite. A file that says its run stopped early is an error,
    unless ``include_partial`` (then the report flags it)."""
    judged: list[JudgedFile] = []
    for path in results_files(paths):
        try:
            document = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(str(path), None, f"cannot read: {exc}") from None
        except json.JSONDecodeError as exc:
            raise InputError(str(path), exc.lineno, f"invalid JSON: {exc.msg}") from None
        try:
            one = judged_file(document, results_label(path), str(path))
        except ResultsFormatError as exc:
            raise InputError(str(path), None, str(exc)) from None
        refusal = partial_error(one)
        if refusal is not None and not include_partial:
            raise InputError(str(path), None, refusal)
        judged.append(one)
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
