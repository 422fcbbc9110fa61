"""``report``: read results files (and a models file) and write report.md and report.html."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from evalplus_ng.errors import InputError
from evalplus_ng.files import write_atomically
from evalplus_ng.oracle import defects
from evalplus_ng.pipeline.augment import table
from evalplus_ng.pipeline.context import DEFAULT_OUT
from evalplus_ng.pipeline.evaluate import is_results_name, results_label
from evalplus_ng.pipeline.programs.augment import AUGMENTED
from evalplus_ng.pipeline.programs.augment import STATS_KIND as PROGRAM_STATS_KIND
from evalplus_ng.pipeline.programs.minimize import MINI_ARTIFACT, MINI_STATS
from evalplus_ng.report import page, render
from evalplus_ng.report.board import Board, SuiteFacts, board, dataset_of
from evalplus_ng.report.matrix import Failure, first_failures
from evalplus_ng.report.models import ModelInfo, ModelsFormatError, model_infos
from evalplus_ng.report.program_results import (
    is_program_results,
    judged_programs,
    program_dataset,
    program_first_failures,
)
from evalplus_ng.report.summary import (
    DuplicateResultsError,
    JudgedFile,
    ResultsFormatError,
    judged_file,
)
from evalplus_ng.tasks.spec import MINI_OF, SUITE_SUFFIXES
from evalplus_ng.types import TaskId


@dataclass(frozen=True)
class ReportSummary:
    """What ``report`` wrote and over what."""

    markdown_path: Path
    html_path: Path
    board: Board


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


def _json_document(path: Path) -> Any:
    """A JSON file's contents; an unreadable or invalid file is an :class:`InputError`."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(str(path), None, f"cannot read: {exc}") from None
    except json.JSONDecodeError as exc:
        raise InputError(str(path), exc.lineno, f"invalid JSON: {exc.msg}") from None


def _program_stats(stats: object) -> bool:
    """Whether a ``stats.json`` is program ``augment``'s."""
    return isinstance(stats, dict) and stats.get("kind") == PROGRAM_STATS_KIND


def _object(value: object) -> dict[str, Any]:
    """``value`` where it is a JSON object, else an empty one."""
    return value if isinstance(value, dict) else {}


def _stats_tasks(stats: dict[str, Any]) -> list[dict[str, Any]]:
    tasks = stats.get("tasks")
    return [t for t in tasks if isinstance(t, dict)] if isinstance(tasks, list) else []


def suite_dataset(artifacts: Path) -> str | None:
    """The dataset whose suite ``artifacts`` holds, as its ``stats.json`` records it
    (program tasks: as their ids name it,
    :func:`~evalplus_ng.report.program_results.program_dataset`)."""
    stats = _json_file(artifacts / "stats.json")
    if isinstance(stats, dict) and _program_stats(stats):
        ids = [str(t.get("task_id")) for t in _stats_tasks(stats)]
        return program_dataset(ids) if ids else None
    config = stats.get("config") if isinstance(stats, dict) else None
    made = config.get("dataset") if isinstance(config, dict) else None
    return str(made) if made else None


def program_suite_lines(stats: dict[str, Any]) -> tuple[dict[str, float], dict[str, float],
                                                        list[str]]:
    """What program ``augment``'s ``stats.json`` says of its suite: plus and stress tests
    per augmented task, and lines for the tasks by outcome and the new tests' limits."""
    augmented = [t for t in _stats_tasks(stats) if t.get("outcome") == AUGMENTED]
    outcomes = _object(_object(stats.get("totals")).get("tasks"))
    lines = [f"tasks: {sum(outcomes.values())}, by outcome of augment: " + ", ".join(
        f"{outcome} {n}" for outcome, n in outcomes.items()) + " (the inputs per task above "
        f"count the {len(augmented)} augmented)"] if outcomes else []
    spread = _object(_object(_object(stats.get("limits")).get("totals")).get("by_limit"))
    if spread:
        lines.append("time limits of the new tests: " + ", ".join(
            f"{n:,} at {limit} s" for limit, n in spread.items()))
    return (table([int(t.get("plus", 0)) for t in augmented]),
            table([int(t.get("stress", 0)) for t in augmented]), lines)


def suite_facts(artifacts: Path, datasets: Collection[str] = ()) -> SuiteFacts:
    """What ``artifacts`` holds of the suite (stats, MINI size, audit); an absent or
    unreadable file leaves its part out, with a note saying so, as does a suite of a
    dataset other than the results' ``datasets``."""
    notes: list[str] = []
    stats, reduction, findings = (_json_file(artifacts / name) for name in
                                  ("stats.json", "reduction.json", "audit.json"))
    plus = stress = edge = None
    lines: list[str] = []
    if isinstance(stats, dict) and _program_stats(stats):
        plus, stress, lines = program_suite_lines(stats)
        reduction = _program_reduction(_json_file(artifacts / MINI_STATS))
    if isinstance(stats, dict):
        if not _program_stats(stats):
            plus, stress = stats.get("plus_inputs"), stats.get("stress_inputs")
            edge = stats.get("edge_inputs")
        made = suite_dataset(artifacts)
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
                                  if f.get("status") == defects.CONFIRMED}, key=defects.task_order))
    return SuiteFacts(str(artifacts), plus, stress, edge, profile, tests, audit_counts,
                      defective or (), tuple(notes), tuple(lines))


def _program_reduction(mini: object) -> dict[str, Any] | None:
    """A program MINI's ``mini-stats.json`` as a ``reduction.json`` says the same: its
    new tests per task (of both tiers), over the tasks it reduced."""
    totals = mini.get("totals") if isinstance(mini, dict) else None
    spread = totals.get("mini_tests_per_task") if isinstance(totals, dict) else None
    if not isinstance(spread, dict) or not spread.get("tasks"):
        return None
    profile = "new tests of both tiers"
    return {"profile": profile, "profiles": [
        {"profile": profile, "tests_per_task": spread.get("total", 0) / spread["tasks"]}]}


def folder_of(dataset: str, folders: Sequence[Path]) -> Path | None:
    """The artifacts folder holding ``dataset``'s suite; a single folder given stands
    for every dataset (its facts then say whose suite it holds)."""
    found = next((f for f in folders if suite_dataset(f) == dataset), None)
    return found or (folders[0] if len(folders) == 1 else None)


def suite_kinds(folders: Sequence[Path]) -> dict[str, str]:
    """The digest of each suite file in ``folders`` (as ``evaluate --suite PATH``
    records it: sha256 of its bytes) -> its kind, by the longest suffix its name ends
    with (``X-Stress-Mini.jsonl.gz``: stress-mini; ``X.jsonl.gz``: plus)."""
    kinds: dict[str, str] = {}
    for folder in folders:
        for path in sorted(folder.glob("*.jsonl.gz")):
            stem = path.name.removesuffix(".jsonl.gz")
            kind = "mini" if path.name == MINI_ARTIFACT else max(
                (k for k, suffix in SUITE_SUFFIXES.items() if stem.endswith(suffix)),
                key=lambda k: len(SUITE_SUFFIXES[k]))
            kinds.setdefault(hashlib.sha256(path.read_bytes()).hexdigest(), kind)
    return kinds


def _suite_kind(judged: JudgedFile, kinds: Mapping[str, str]) -> JudgedFile:
    """A file judged with ``--suite PATH`` takes the kind of the artifacts' suite file
    of the same digest (a MINI given by its path is a MINI, not plus); one of program
    tasks judged on a MINI's tasks file (``ProgramsMini.jsonl.gz``) takes the MINI's kind
    of its suite (plus: ``mini``, stress: ``stress-mini``)."""
    if judged.programs:
        reduced = kinds.get(judged.digest) == "mini" and judged.kind in MINI_OF
        return replace(judged, kind=MINI_OF[judged.kind]) if reduced else judged
    kind = kinds.get(judged.digest) if judged.kind == "file" else None
    return replace(judged, kind=kind) if kind else judged


def read_models(path: Path) -> dict[str, ModelInfo]:
    """The models file's entries by results-file stem (:mod:`evalplus_ng.report.models`)."""
    try:
        return model_infos(_json_document(path))
    except ModelsFormatError as exc:
        raise InputError(str(path), None, str(exc)) from None


def run_report(paths: Sequence[Path], out: Path, artifacts: Sequence[Path] = (DEFAULT_OUT,),
               models: Path | None = None, include_partial: bool = False) -> ReportSummary:
    """Read every results file ``paths`` name (one per model, dataset and suite, e.g. the
    ``S.evalplus-ng.plus.json`` and ``S.evalplus-ng.mini.json`` that ``evaluate`` writes
    beside each samples file); write ``out/report.md`` and ``out/report.html``: each
    dataset's results apart and side by side, with what its folder of ``artifacts`` says
    of its suite and, from ``models``, the models' display names and metadata. A file
    that says its run stopped early is an error, unless ``include_partial`` (then the
    report flags it)."""
    infos = read_models(models) if models is not None else {}
    folders = list(artifacts)
    kinds = suite_kinds(folders)
    judged: list[JudgedFile] = []
    failures: dict[str, dict[TaskId, Failure]] = {}
    for path in results_files(paths):
        document = _json_document(path)
        programs = is_program_results(document)
        try:
            one = _suite_kind((judged_programs if programs else judged_file)(
                document, results_label(path), str(path)), kinds)
            failures[str(path)] = (program_first_failures if programs
                                   else first_failures)(document)
        except ResultsFormatError as exc:
            raise InputError(str(path), None, str(exc)) from None
        refusal = partial_error(one)
        if refusal is not None and not include_partial:
            raise InputError(str(path), None, refusal)
        judged.append(one)
    facts: dict[str, SuiteFacts] = {}
    for dataset in {dataset_of(j) for j in judged}:
        folder = folder_of(dataset, folders)
        facts[dataset] = (suite_facts(folder, [dataset] if dataset else []) if folder
                          else SuiteFacts("none given", notes=(
                              f"none of {', '.join(map(str, folders))} holds a "
                              f"{dataset or 'matching'} suite",)))
    try:
        shown = board(judged, failures, facts, infos)
    except DuplicateResultsError as exc:
        raise InputError(exc.path, None, str(exc)) from None
    out.mkdir(parents=True, exist_ok=True)
    markdown_path, html_path = out / "report.md", out / "report.html"
    write_atomically(markdown_path, render.markdown(shown))
    write_atomically(html_path, page.page(shown))
    return ReportSummary(markdown_path, html_path, shown)
