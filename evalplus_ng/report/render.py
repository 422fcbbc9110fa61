"""A :class:`~evalplus_ng.report.summary.Report` as Markdown (for a terminal or a paper) and as
one self-contained HTML page whose plots are inline SVG drawn by matplotlib (no script,
no server, no network: the page opens from disk anywhere).

Both are deterministic: the same report gives the same bytes.
"""

from __future__ import annotations

import html
import io
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from evalplus_ng.generate.classes import KINDS
from evalplus_ng.report.summary import KILL_BASES, KILL_KINDS, Report

#: Tasks listed in the Markdown table of the largest drops from base to plus.
TOP_TASKS = 20
COLORS = {"base": "#9ecae1", "plus": "#08519c", "mini": "#fd8d3c", "stress": "#74c476",
          "wrong output": "#d62728", "exception": "#9467bd", "timeout": "#ff7f0e",
          "crash": "#7f7f7f", "not recorded": "#c7c7c7"}


@dataclass(frozen=True)
class SuiteFacts:
    """What the artifacts folder says of the suite: inputs per task (``stats.json``),
    the MINI's size (``reduction.json``) and the audit (``audit.json``); None where the
    file is absent."""

    folder: str
    plus_inputs: Mapping[str, float] | None = None
    stress_inputs: Mapping[str, float] | None = None
    edge_inputs: Mapping[str, float] | None = None
    mini_profile: str | None = None
    mini_tests_per_task: float | None = None
    audit: Mapping[str, int] | None = None
    defective: tuple[str, ...] = ()
    notes: tuple[str, ...] = field(default_factory=tuple)


def _pct(value: float | None) -> str:
    return "" if value is None else f"{value:.1f}"


def _leaderboard_columns(report: Report) -> list[str]:
    columns = ["#", "model", "tasks", "samples", "base"]
    if report.has_plus:
        columns += ["plus", "drop"]
    if report.has_mini:
        columns.append("MINI")
    if report.has_stress:
        columns.append("stress (efficiency)")
    if report.has_edge:
        columns.append("edge (unlike base)")
    return columns


def _leaderboard_cells(report: Report) -> list[list[str]]:
    rows = []
    for rank, row in enumerate(report.rows, start=1):
        label = f"{row.label} (partial)" if row.partial else row.label
        cells = [str(rank), label, str(row.tasks), str(row.samples), _pct(row.base)]
        if report.has_plus:
            cells += [_pct(row.plus), _pct(row.drop)]
        if report.has_mini:
            cells.append(_pct(row.mini))
        if report.has_stress:
            cells.append(_pct(row.stress))
        if report.has_edge:
            cells.append(_pct(row.edge))
        rows.append(cells)
    return rows


def _kill_rows(report: Report) -> list[list[str]]:
    rows = []
    for row in report.rows:
        if row.plus is None:
            continue
        total = sum(row.kills.values())
        rows.append([row.label, str(total), *(str(row.kills.get(k, 0)) for k in KILL_KINDS)])
    kills = report.kills
    rows.append(["**all**", str(sum(kills.values())), *(str(kills.get(k, 0)) for k in KILL_KINDS)])
    return rows


#: What the table of kills' bases says of them, in Markdown and HTML.
BASES_TEXT = ("What the kills rest on: a kill is *like base* when the sample fails some "
              "plus test whose input has none of the task's edge classes (classes such as "
              "empty, zero, negative, past 2^53, non-ASCII, duplicates, that no base input "
              "of the task has and its prompt does not mention), else it rests on *edge* "
              "classes, those of its first failing plus test counted.")


def edge_counts(edges: Mapping[str, int]) -> str:
    """``empty 3, big 1``: kills per edge class, in :data:`~evalplus_ng.generate.classes.KINDS`
    order."""
    order = [*KINDS, *sorted(set(edges) - set(KINDS))]
    return ", ".join(f"{kind} {edges[kind]}" for kind in order if edges.get(kind))


def _basis_rows(report: Report) -> list[list[str]]:
    rows = []
    for row in report.rows:
        if row.plus is None:
            continue
        rows.append([row.label, str(sum(row.bases.values())),
                     *(str(row.bases.get(b, 0)) for b in KILL_BASES), edge_counts(row.edges)])
    bases = report.bases
    rows.append(["**all**", str(sum(bases.values())), *(str(bases.get(b, 0)) for b in KILL_BASES),
                 edge_counts(report.edges)])
    return rows


BASES_COLUMNS = ["model", "kills", *KILL_BASES, "edge classes (kills)"]


def _md_table(columns: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    def cell(text: str) -> str:
        return text.replace("|", "\\|")

    return ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns),
            *("| " + " | ".join(cell(c) for c in row) + " |" for row in rows)]


def _headline(report: Report) -> list[str]:
    lines = [f"{report.files} results file(s), {len(report.rows)} model(s), "
             f"{len(report.tasks)} task(s), {sum(r.samples for r in report.rows)} samples "
             f"(on the base and plus suite where there is one)."]
    if report.datasets:
        lines.append(f"Dataset: {', '.join(report.datasets)}.")
    for kind, digests in sorted(report.digests.items()):
        if len(digests) > 1:
            lines.append(f"**Warning**: the {kind} results were judged with {len(digests)} "
                         "different suites (their hashes differ): their pass rates do not "
                         "compare.")
    for row in report.rows:
        for kind, progress in sorted(row.partial.items()):
            lines.append(f"**Warning**: partial results: {row.label} on the {kind} suite, "
                         f"{progress}; its rates are over those alone.")
    return lines


def _suite_lines(facts: SuiteFacts) -> list[str]:
    lines = []
    for name, table in (("plus", facts.plus_inputs), ("stress", facts.stress_inputs),
                        ("edge", facts.edge_inputs)):
        if table is not None:
            lines.append(f"- {name} inputs per task: avg {table['avg']}, median "
                         f"{table['median']}, min {table['min']}, max {table['max']}")
    if facts.mini_tests_per_task is not None:
        lines.append(f"- MINI ({facts.mini_profile}): {facts.mini_tests_per_task:.1f} tests "
                     "per task")
    if facts.audit is not None:
        audit = facts.audit
        lines.append(f"- audit of the reference solutions: {len(facts.defective)} defective "
                     f"({', '.join(facts.defective) or 'none'}); "
                     f"{audit.get('unreviewed', 0)} finding(s) awaiting review, "
                     f"{audit.get('dismissed', 0)} dismissed after review")
    lines += [f"- {note}" for note in facts.notes]
    return lines


def markdown(report: Report, facts: SuiteFacts) -> str:
    """The report as Markdown: leaderboard, kills by kind, tasks with the largest drop,
    the suite."""
    lines = ["# evalplus-ng report", "", *_headline(report), "",
             "## Leaderboard (pass@1, %)", "",
             *_md_table(_leaderboard_columns(report), _leaderboard_cells(report)), ""]
    if report.has_plus:
        lines += ["## What the plus tests find", "",
                  "Kills: samples that pass the base tests and fail the plus tests, by what "
                  "their first failing plus test did.", "",
                  *_md_table(["model", "kills", *KILL_KINDS], _kill_rows(report)), "",
                  BASES_TEXT, "",
                  *_md_table(BASES_COLUMNS, _basis_rows(report)), ""]
        dropped = sorted((t for t in report.tasks if t.drop > 0),
                         key=lambda t: (-t.drop, _order(report, t.task_id)))
        lines += ["## Per-task pass rates (all models' samples pooled)", "",
                  f"{len(dropped)} of {len(report.tasks)} tasks lose samples from base to "
                  f"plus; the {min(TOP_TASKS, len(dropped))} largest drops:", "",
                  *_md_table(["task", "samples", "base %", "plus %", "drop"],
                             [[t.task_id, str(t.samples), _pct(t.base), _pct(t.plus),
                               _pct(t.drop)] for t in dropped[:TOP_TASKS]]), ""]
    lines += [f"## The suite ({facts.folder})", "", *(_suite_lines(facts) or ["- no files"]),
              ""]
    return "\n".join(lines)


def _order(report: Report, task_id: str) -> int:
    return next(i for i, t in enumerate(report.tasks) if t.task_id == task_id)


# ---------------------------------------------------------------- HTML


def _svg(figure: Any) -> str:
    """A matplotlib figure as inline SVG text, the same bytes for the same figure."""
    import matplotlib

    buffer = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": "evalplus-ng", "svg.fonttype": "path"}):
        figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None},
                       bbox_inches="tight")
    text = buffer.getvalue()
    return text[text.index("<svg"):]  # no XML prolog or DOCTYPE inside HTML


def _figure(width: float, height: float) -> Any:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=96)


def leaderboard_plot(report: Report) -> str:
    """Horizontal bars: pass@1 per model on base, plus and the MINI."""
    rows = list(report.rows)
    columns = [c for c, present in (("base", True), ("plus", report.has_plus),
                                    ("mini", report.has_mini)) if present]
    figure = _figure(9, 0.8 + 0.09 * len(rows) * (1 + len(columns)))
    axes = figure.subplots()
    height = 0.8 / len(columns)
    top = 0.0
    for offset, column in enumerate(columns):
        values = [getattr(r, column) or 0.0 for r in rows]
        top = max(top, *values)
        axes.barh([i + offset * height for i in range(len(rows))], values, height=height,
                  color=COLORS[column], label="MINI" if column == "mini" else column)
    axes.set_yticks([i + height * (len(columns) - 1) / 2 for i in range(len(rows))],
                    [r.label for r in rows], fontsize=7)
    axes.set_ylim(len(rows) - 0.1, -0.3)  # best first, no margin above the first bar
    axes.set_xlabel("pass@1 (%)")
    axes.set_xlim(0, min(100.0, 10 * (int(top) // 10 + 1)))
    axes.legend(loc="lower right", fontsize=8)
    axes.grid(axis="x", alpha=0.3)
    return _svg(figure)


def task_plot(report: Report) -> str:
    """Pass rate per task, tasks ordered by base pass rate: base bars with plus over them
    (the EvalPlus paper's figure of pass rates per task)."""
    tasks = sorted(report.tasks, key=lambda t: (-t.base, -t.plus, _order(report, t.task_id)))
    figure = _figure(10, 3.6)
    axes = figure.subplots()
    xs = range(len(tasks))
    axes.bar(xs, [t.base for t in tasks], width=1.0, color=COLORS["base"], label="base")
    if report.has_plus:
        axes.bar(xs, [t.plus for t in tasks], width=1.0, color=COLORS["plus"],
                 label="base + plus")
    axes.set_xlim(-0.5, len(tasks) - 0.5)
    axes.set_ylim(0, 100)
    axes.set_xticks([])
    axes.set_xlabel(f"{len(tasks)} tasks, by base pass rate")
    axes.set_ylabel("pass rate (%)")
    axes.legend(loc="upper right", fontsize=8)
    return _svg(figure)


def kills_plot(report: Report) -> str:
    """Stacked bars: each model's kills by failure kind."""
    rows = [r for r in report.rows if r.plus is not None and any(r.kills.values())]
    figure = _figure(9, 0.8 + 0.16 * max(1, len(rows)))
    axes = figure.subplots()
    left: list[int] = [0] * len(rows)
    for kind in KILL_KINDS:
        values = [r.kills.get(kind, 0) for r in rows]
        if any(values):
            axes.barh(range(len(rows)), values, left=left, color=COLORS[kind], label=kind)
            left = [a + b for a, b in zip(left, values, strict=True)]
    axes.set_yticks(range(len(rows)), [r.label for r in rows], fontsize=7)
    axes.set_ylim(len(rows) - 0.4, -0.6)
    from matplotlib.ticker import MaxNLocator

    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_xlabel("kills (samples passing base, failing plus)")
    axes.legend(loc="lower right", fontsize=8)
    axes.grid(axis="x", alpha=0.3)
    return _svg(figure)


_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 70em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; }
th { background: #f0f0f0; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
.warning { color: #a00; font-weight: bold; }
figure { margin: 1em 0; } svg { max-width: 100%; height: auto; }
"""


def _html_cell(text: str) -> str:
    number = text.replace(".", "", 1).isdigit()
    return f"<td class=\"n\">{text}</td>" if number else f"<td>{html.escape(text.strip('*'))}</td>"


def _html_table(columns: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
    body = "".join("<tr>" + "".join(_html_cell(c) for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def page(report: Report, facts: SuiteFacts) -> str:
    """The report as one self-contained HTML page with its plots inline."""
    parts = ["<!DOCTYPE html>", "<html lang=\"en\"><head><meta charset=\"utf-8\">",
             "<title>evalplus-ng report</title>", f"<style>{_STYLE}</style></head><body>",
             "<h1>evalplus-ng report</h1>"]
    for line in _headline(report):
        warning = line.startswith("**Warning**")
        text = html.escape(line.replace("**", ""))
        parts.append(f"<p class=\"warning\">{text}</p>" if warning else f"<p>{text}</p>")
    parts += ["<h2>Leaderboard (pass@1, %)</h2>",
              f"<figure>{leaderboard_plot(report)}</figure>",
              _html_table(_leaderboard_columns(report), _leaderboard_cells(report))]
    if report.has_plus:
        parts += ["<h2>What the plus tests find</h2>",
                  "<p>Kills: samples that pass the base tests and fail the plus tests, by "
                  "what their first failing plus test did.</p>"]
        if sum(report.kills.values()):
            parts.append(f"<figure>{kills_plot(report)}</figure>")
        parts.append(_html_table(["model", "kills", *KILL_KINDS], _kill_rows(report)))
        text = re.sub(r"\*([\w ]+)\*", r"<em>\1</em>", html.escape(BASES_TEXT))
        parts += [f"<p>{text}</p>", _html_table(BASES_COLUMNS, _basis_rows(report))]
    parts += ["<h2>Per-task pass rates (all models' samples pooled)</h2>",
              f"<figure>{task_plot(report)}</figure>",
              "<details><summary>every task</summary>",
              _html_table(["task", "samples", "base %", "plus %", "drop"],
                          [[t.task_id, str(t.samples), _pct(t.base), _pct(t.plus),
                            _pct(t.drop)] for t in report.tasks]),
              "</details>",
              f"<h2>The suite ({html.escape(facts.folder)})</h2><ul>"]
    parts += [f"<li>{html.escape(line[2:])}</li>" for line in _suite_lines(facts)] or [
        "<li>no files</li>"]
    parts += ["</ul>", "</body></html>", ""]
    return "\n".join(parts)
