"""A :class:`~evalplus_ng.report.board.Board` as one self-contained HTML page: the
Markdown's tables (:mod:`evalplus_ng.report.render`), the plots inline as SVG, every
task x model with its first failing sample folded in a ``<details>``, and a small inline
script that sorts a table by the column clicked and opens the cell a link names.

Nothing is fetched (no network, no file beside it). Without the script the page reads
the same, its tables in their default order. Every text from a results or models file
is escaped. Deterministic: the same board gives the same bytes.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping

from evalplus_ng.oracle.defects import task_order
from evalplus_ng.report import plots
from evalplus_ng.report.board import Benchmark, Board
from evalplus_ng.report.matrix import Cell, Failure
from evalplus_ng.report.models import ModelInfo
from evalplus_ng.report.render import (
    FAILURES_TEXT,
    FAILURES_TITLE,
    TOP_TASKS,
    Table,
    bases,
    bases_text,
    board_line,
    dropped,
    drops_text,
    failures,
    found_title,
    headline,
    kills,
    kills_text,
    leaderboard,
    leaderboard_title,
    pass_at_k_note,
    side_by_side,
    suite_lines,
    task_rates,
)
from evalplus_ng.types import TaskId

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 70em; color: #222;
       padding: 0 1em; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; }
th { background: #f0f0f0; } th.group { text-align: center; background: #e4e4ec; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
tfoot td { font-weight: bold; background: #fafafa; }
th.sort { cursor: pointer; user-select: none; }
th.sort:hover { background: #e0e0e0; }
th[aria-sort=ascending]::after { content: " \\25B2"; font-size: 0.7em; }
th[aria-sort=descending]::after { content: " \\25BC"; font-size: 0.7em; }
.warning { color: #a00; font-weight: bold; }
nav a { margin-right: 1em; }
figure { margin: 1em 0; } svg { max-width: 100%; height: auto; }
details > summary { cursor: pointer; }
details.tasks > summary { font-weight: bold; margin: 1em 0; }
table.matrix { position: relative; font-size: 0.8em; }
table.matrix th.model { vertical-align: bottom; padding: 0.3em 0.2em; }
table.matrix th.model span { writing-mode: vertical-rl; transform: rotate(180deg);
  white-space: nowrap; max-height: 24em; overflow: hidden; text-overflow: ellipsis;
  display: inline-block; }
table.matrix td.c { padding: 0; text-align: center; min-width: 2.6em; }
table.matrix td.c > span, table.matrix td.c > details > summary {
  display: block; padding: 0.2em 0.4em; }
table.matrix td.c > details > summary { list-style: none; }
table.matrix td.c > details > summary::-webkit-details-marker { display: none; }
table.matrix td.c > details[open] > summary { outline: 2px solid #333; }
.pass { background: #c7e9c0; } .kill { background: #fd8d3c; }
.fail { background: #fcbba1; } .part { background: #ffeda0; }
.legend span { padding: 0.1em 0.5em; margin-right: 0.5em; border: 1px solid #ccc; }
.sample { position: absolute; left: 0; width: min(60em, 90vw); z-index: 2; background: #fff;
  border: 1px solid #666; box-shadow: 0 4px 12px rgba(0, 0, 0, 0.25); padding: 0.5em 1em;
  text-align: left; font-size: 1.1em; }
.sample pre { max-height: 28em; overflow: auto; background: #f6f6f6; padding: 0.5em;
  margin: 0.5em 0 0; font-size: 0.95em; }
.sample code { background: #f6f6f6; word-break: break-all; }
"""

#: Sorts a table by the header cell clicked (again: the other way), numbers as numbers,
#: empty cells last; a cell's ``data-v`` is its key where its text is not. Opens the
#: ``<details>`` around (and inside) the element a link's fragment names.
_SCRIPT = r"""
(function () {
  "use strict";
  function key(cell) {
    var v = cell.getAttribute("data-v");
    return v === null ? cell.textContent.trim() : v;
  }
  var number = /^-?[0-9]+(\.[0-9]+)?$/;
  function compare(a, b) {
    if (number.test(a) && number.test(b)) { return parseFloat(a) - parseFloat(b); }
    return a.localeCompare(b, undefined, {numeric: true});
  }
  function sort(table, index, th) {
    var body = table.tBodies[0];
    var up = th.getAttribute("aria-sort") !== "ascending";
    var heads = table.querySelectorAll("th.sort");
    for (var i = 0; i < heads.length; i++) { heads[i].removeAttribute("aria-sort"); }
    th.setAttribute("aria-sort", up ? "ascending" : "descending");
    var rows = Array.prototype.map.call(body.rows, function (row, at) {
      return {row: row, at: at, key: key(row.cells[index])};
    });
    rows.sort(function (p, q) {
      if ((p.key === "") !== (q.key === "")) { return p.key === "" ? 1 : -1; }
      var order = p.key === "" ? 0 : compare(p.key, q.key);
      return (up ? order : -order) || p.at - q.at;
    });
    rows.forEach(function (r) { body.appendChild(r.row); });
  }
  var tables = document.querySelectorAll("table.sortable");
  Array.prototype.forEach.call(tables, function (table) {
    var head = table.tHead.rows[table.tHead.rows.length - 1];
    Array.prototype.forEach.call(head.cells, function (th, index) {
      th.classList.add("sort");
      th.tabIndex = 0;
      th.title = th.title || "sort by " + th.textContent;
      th.addEventListener("click", function () { sort(table, index, th); });
      th.addEventListener("keydown", function (e) {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sort(table, index, th); }
      });
    });
  });
  function reveal() {
    var node = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (!node) { return; }
    for (var up = node; up; up = up.parentElement) {
      if (up.tagName === "DETAILS") { up.open = true; }
    }
    var inner = node.querySelector("details");
    if (inner) { inner.open = true; }
    node.scrollIntoView({block: "center"});
  }
  window.addEventListener("hashchange", reveal);
  reveal();
})();
"""

_NUMBER = re.compile(r"-?\d+(\.\d+)?")


def _escape(text: str) -> str:
    return html.escape(text, quote=True)


def _model(name: str, models: Mapping[str, ModelInfo]) -> str:
    info = models.get(name)
    if info is None or not info.link:
        return _escape(name)
    return f"<a href=\"{_escape(info.link)}\" rel=\"noopener noreferrer\">{_escape(name)}</a>"


def _cell(text: str, column: str, models: Mapping[str, ModelInfo]) -> str:
    if column == "model":
        return f"<td>{_model(text, models)}</td>"
    if _NUMBER.fullmatch(text):
        return f"<td class=\"n\">{text}</td>"
    return f"<td>{_escape(text)}</td>"


def _table(table: Table, ident: str, models: Mapping[str, ModelInfo]) -> str:
    """A sortable table: the columns' header row last in ``<thead>``, the total in
    ``<tfoot>`` (so that sorting leaves it last)."""
    head = ""
    if table.groups:
        head = "<tr>" + "".join(
            f"<th colspan=\"{span}\" class=\"group\">{_escape(title)}</th>" if title
            else f"<td colspan=\"{span}\"></td>" for title, span in table.groups) + "</tr>"
    head += "<tr>" + "".join(f"<th>{_escape(c)}</th>" for c in table.columns) + "</tr>"

    def row(cells: tuple[str, ...]) -> str:
        return "<tr>" + "".join(_cell(text, column, models)
                                for text, column in zip(cells, table.columns,
                                                        strict=True)) + "</tr>"

    body = "".join(row(cells) for cells in table.rows)
    foot = f"<tfoot>{row(table.total)}</tfoot>" if table.total else ""
    return (f"<table class=\"sortable\" id=\"{_escape(ident)}\"><thead>{head}</thead>"
            f"<tbody>{body}</tbody>{foot}</table>")


# ---------------------------------------------------------------- the matrix


def _kind(cell: Cell) -> str:
    """pass: every sample passes; kill: some pass base and fail plus; fail: none passes
    base; part: some pass, the others fail base."""
    if cell.plus == cell.samples:
        return "pass"
    if cell.base > cell.plus:
        return "kill"
    return "fail" if cell.base == 0 else "part"


def _failure(failure: Failure, samples: int) -> str:
    what = failure.kind or failure.status
    which = (f"sample {failure.sample + 1} of {samples}</b> (the first that failed)"
             if samples > 1 else "the sample</b>")
    parts = [f"<p><b>{which} failed the <b>{_escape(failure.tier)}</b> tests: "
             f"{_escape(what)}</p>"]
    if failure.test is not None:
        parts.append(f"<p>first failing input: <code>{_escape(failure.test)}</code></p>")
    else:
        parts.append("<p>no failing input recorded (the code did not load, or the results "
                     "file keeps none)</p>")
    if failure.diff:
        parts.append(f"<pre class=\"diff\">{_escape(failure.diff)}</pre>")
    if failure.also is not None:
        parts.append(f"<p>an input like the base tests it also fails: "
                     f"<code>{_escape(failure.also)}</code></p>")
    parts.append(f"<pre>{_escape(failure.code)}</pre>")
    return "".join(parts)


def cell_id(dataset: str, task_id: TaskId, label: str) -> str:
    """The id of a matrix cell, for links to it: ``humaneval:HumanEval/0:model``
    (whitespace as ``_``)."""
    return re.sub(r"\s", "_", f"{dataset}:{task_id}:{label}")


def _matrix_cell(benchmark: Benchmark, task_id: TaskId, label: str) -> str:
    cell = benchmark.cells.get(label, {}).get(task_id)
    if cell is None:
        return "<td class=\"c\"></td>"
    kind = _kind(cell)
    ident = _escape(cell_id(benchmark.dataset, task_id, label))
    text = f"{cell.plus}/{cell.samples}"
    title = (f"{cell.plus} of {cell.samples} sample(s) pass base and "
             f"{benchmark.report.pooled}, {cell.base} pass base")
    opening = (f"<td class=\"c {kind}\" id=\"{ident}\" data-v=\"{cell.share:.4f}\" "
               f"title=\"{_escape(title)}\">")
    if cell.failure is None:
        return f"{opening}<span>{text}</span></td>"
    return (f"{opening}<details><summary>{text}</summary><div class=\"sample\">"
            f"{_failure(cell.failure, cell.samples)}</div></details></td>")


def _matrix(benchmark: Benchmark) -> str:
    """Tasks down, models across (in leaderboard order), with the pooled rates first."""
    labels = [row.label for row in benchmark.report.rows]
    pooled = {t.task_id: t for t in benchmark.report.tasks}
    tasks = sorted({t for column in benchmark.cells.values() for t in column} | set(pooled),
                   key=task_order)
    rates = dict(zip((t.task_id for t in benchmark.report.tasks),
                     task_rates(benchmark.report.tasks).rows, strict=True))
    column = benchmark.report.pooled
    head = (f"<tr><th>task</th><th>samples</th><th>base %</th><th>{_escape(column)} %</th>"
            "<th>drop</th>"
            + "".join(f"<th class=\"model\" title=\"{_escape(label)}\"><span>"
                      f"{_escape(label)}</span></th>" for label in labels) + "</tr>")
    rows = []
    for at, task_id in enumerate(tasks):
        numbers = rates.get(task_id, (task_id, "", "", "", ""))[1:]
        rows.append(f"<tr><td data-v=\"{at}\">{_escape(task_id)}</td>"
                    + "".join(_cell(text, "", {}) for text in numbers)
                    + "".join(_matrix_cell(benchmark, task_id, label) for label in labels)
                    + "</tr>")
    legend = (f"<p class=\"legend\">A cell counts a model's samples of a task passing base "
              f"and {_escape(column)}; one with failures opens its first failing sample: the "
              "tests it failed, its first failing input and its code. "
              "<span class=\"pass\">all pass</span><span class=\"kill\">some killed by "
              f"{_escape(column)}</span>"
              "<span class=\"part\">some fail base</span><span class=\"fail\">none passes "
              "base</span></p>")
    ident = _escape(f"tasks-{benchmark.dataset}")
    return (f"<details class=\"tasks\" id=\"{ident}\"><summary>Every task, per model: "
            f"{len(tasks)} tasks x {len(labels)} model(s)</summary>{legend}"
            f"<table class=\"sortable matrix\" id=\"{_escape(f'matrix-{benchmark.dataset}')}\">"
            f"<thead>{head}</thead><tbody>{''.join(rows)}</tbody></table></details>")


# ---------------------------------------------------------------- the page


def _paragraph(line: str) -> str:
    if line.startswith("**Warning**"):
        return f"<p class=\"warning\">{_escape(line.replace('**', ''))}</p>"
    return f"<p>{_escape(line)}</p>"


def _benchmark(board: Board, benchmark: Benchmark, h: str, sub: str) -> list[str]:
    report, facts, dataset = benchmark.report, benchmark.facts, benchmark.dataset
    parts = [_paragraph(line) for line in headline(report)]
    parts += [f"<{sub}>{_escape(leaderboard_title(benchmark))}</{sub}>",
              f"<figure>{plots.leaderboard_plot(report)}</figure>",
              _table(leaderboard(board, benchmark), f"leaderboard-{dataset}", board.models)]
    note = pass_at_k_note(benchmark)
    if note:
        parts.append(f"<p>{_escape(note)}</p>")
    if report.has_kills:
        parts += [f"<{sub}>{_escape(found_title(report))}</{sub}>",
                  f"<p>{_escape(kills_text(report))}</p>"]
        if sum(report.kills.values()):
            parts.append(f"<figure>{plots.kills_plot(report)}</figure>")
        parts.append(_table(kills(report), f"kills-{dataset}", board.models))
        text = re.sub(r"\*([\w ]+)\*", r"<em>\1</em>", _escape(bases_text(report)))
        parts += [f"<p>{text}</p>", _table(bases(report), f"bases-{dataset}", board.models)]
    if report.programs:
        parts += [f"<{sub}>{_escape(FAILURES_TITLE)}</{sub}>", f"<p>{_escape(FAILURES_TEXT)}</p>",
                  _table(failures(report), f"failures-{dataset}", board.models)]
    parts += [f"<{sub}>Per-task pass rates (all models' samples pooled)</{sub}>",
              f"<figure>{plots.task_plot(report)}</figure>"]
    if report.has_kills:
        parts.append(f"<p>{_escape(drops_text(report))}</p>")
        if dropped(report):
            parts.append(_table(task_rates(dropped(report)[:TOP_TASKS], report.pooled),
                                f"drops-{dataset}", {}))
    parts += [_matrix(benchmark), f"<{sub}>The suite ({_escape(facts.folder)})</{sub}><ul>"]
    parts += [f"<li>{_escape(line[2:])}</li>" for line in suite_lines(facts)] or [
        "<li>no files</li>"]
    parts.append("</ul>")
    if h:
        ident = _escape(f"bench-{dataset}")
        parts = [f"<section id=\"{ident}\"><{h}>{_escape(benchmark.title)}</{h}>", *parts,
                 "</section>"]
    return parts


def page(board: Board) -> str:
    """The report as one self-contained HTML page with its plots and script inline."""
    parts = ["<!DOCTYPE html>", "<html lang=\"en\"><head><meta charset=\"utf-8\">",
             "<title>evalplus-ng report</title>", f"<style>{_STYLE}</style></head><body>",
             "<h1>evalplus-ng report</h1>"]
    if len(board.benchmarks) == 1:
        parts += _benchmark(board, board.benchmarks[0], "", "h2")
    else:
        parts += [f"<p>{_escape(board_line(board))}</p>", "<nav>" + "".join(
            f"<a href=\"#{_escape(f'bench-{b.dataset}')}\">{_escape(b.title)}</a>"
            for b in board.benchmarks) + "</nav>",
                  "<h2>Side by side (pass@1 unless named, %)</h2>",
                  _table(side_by_side(board), "side-by-side", board.models)]
        for benchmark in board.benchmarks:
            parts += _benchmark(board, benchmark, "h2", "h3")
    parts += [f"<script>{_SCRIPT}</script>", "</body></html>", ""]
    return "\n".join(parts)
