"""A :class:`~evalplus_ng.report.board.Board` as Markdown (for a terminal or a paper),
and the tables the HTML page (:mod:`evalplus_ng.report.page`) shows the same way.

Every table is a :class:`Table` of cell texts built once here; Markdown and HTML only
draw it, so the page holds everything the Markdown does. Deterministic: the same
board gives the same bytes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import quote

from evalplus_ng.evaluation.verdicts import PASS_AT_K
from evalplus_ng.generate.classes import KINDS
from evalplus_ng.report.board import Benchmark, Board, SuiteFacts
from evalplus_ng.report.models import ModelInfo
from evalplus_ng.report.summary import (
    PROGRAM_FAILURES,
    PROGRAM_KILL_KINDS,
    PROGRAM_SUITE_ORDER,
    ModelRow,
    Report,
    TaskRate,
)

#: Tasks listed in the table of the largest drops from base to plus.
TOP_TASKS = 20

#: How a text taken from the user's files (a model's name, a task id, a folder) is
#: written into the Markdown or the page's text: as it is for the page, which escapes
#: it itself; :func:`md_text` for the Markdown.
Quote = Callable[[str], str]
#: What Markdown reads as markup in a line of text or a table's cell; underscores only
#: where they may start or end emphasis (not inside a word: ``TheBloke_Manticore`` stays).
_MARKUP = re.compile(r"[\\`*\[\]<>|~]|(?<!\w)_++|_++(?!\w)")
#: Line breaks: a cell or a list item is one line.
_BREAKS = re.compile(r"[\r\n]+")


def md_text(text: str) -> str:
    """``text`` as Markdown shows it literally: no link, no HTML, no emphasis, no code,
    no cell boundary (each character Markdown reads as markup is escaped), on one line."""
    return _MARKUP.sub(lambda found: "".join(f"\\{c}" for c in found.group()),
                       _BREAKS.sub(" ", text))


def md_url(url: str) -> str:
    """``url`` as a Markdown link's destination: what would end it or break its line or
    table row percent-encoded."""
    return quote(url, safe=":/?#[]@!$&'*+,;=%~")


@dataclass(frozen=True)
class Table:
    """A table as both renderings draw it: column names, rows of cell texts, an optional
    total row (kept last, never sorted), and column groups: (title, span) pairs over the
    columns in order ("" for columns under no group)."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    total: tuple[str, ...] | None = None
    groups: tuple[tuple[str, int], ...] = ()


def _pct(value: float | None) -> str:
    return "" if value is None else f"{value:.1f}"


def _k_columns(benchmark: Benchmark) -> list[str]:
    """The columns some model has pass@k of: base, then plus and full."""
    return ["base", *(column for column in ("plus", "full")
                      if any(column in table for table in benchmark.pass_at_k.values()))]


def _suite_columns(benchmark: Benchmark) -> list[str]:
    """The pass@1 columns a benchmark's results fill, then its pass@k columns."""
    report = benchmark.report
    columns = ["base"]
    if report.has("original"):
        columns.append("original (dataset's tests)")
    if report.has_plus:
        columns += ["plus"] + ([] if report.has("full") else ["drop"])
    if report.has_mini:
        columns.append("MINI")
    if report.has_stress:
        columns.append("stress (efficiency)")
    if report.has_edge:
        columns.append("edge (unlike base)")
    if report.has("full"):
        columns += ["full (every test)", "drop"]
    return columns + [f"{column} pass@{k}" for k in benchmark.ks
                      for column in _k_columns(benchmark)]


def _suite_cells(benchmark: Benchmark, label: str) -> list[str]:
    """One model's cells of :func:`_suite_columns` ("" where it has no such result)."""
    row = next((r for r in benchmark.report.rows if r.label == label), None)
    if row is None:
        return [""] * len(_suite_columns(benchmark))
    report = benchmark.report
    cells = [_pct(row.base)]
    if report.has("original"):
        cells.append(_pct(row.original))
    if report.has_plus:
        cells += [_pct(row.plus)] + ([] if report.has("full") else [_pct(row.drop)])
    if report.has_mini:
        cells.append(_pct(row.mini))
    if report.has_stress:
        cells.append(_pct(row.stress))
    if report.has_edge:
        cells.append(_pct(row.edge))
    if report.has("full"):
        cells += [_pct(row.full), _pct(row.drop)]
    table = benchmark.pass_at_k.get(label, {})
    return cells + [_pct(table.get(column, {}).get(k)) for k in benchmark.ks
                    for column in _k_columns(benchmark)]


def _metadata(board: Board, label: str) -> list[str]:
    info = board.models.get(label)
    return [info.metadata.get(key, "") if info else "" for key in board.metadata]


def leaderboard(board: Board, benchmark: Benchmark) -> Table:
    """Best plus pass@1 first: samples, tasks, pass@1 per suite, then pass@k for each k
    every model's sample counts allow, with the models file's metadata."""
    columns = ("#", "model", *board.metadata, "tasks", "samples", *_suite_columns(benchmark))
    rows = tuple((str(rank), f"{row.label} (partial)" if row.partial else row.label,
                  *_metadata(board, row.label), str(row.tasks),
                  str(row.samples), *_suite_cells(benchmark, row.label))
                 for rank, row in enumerate(benchmark.report.rows, start=1))
    return Table(columns, rows)


def side_by_side(board: Board) -> Table:
    """Every model in a row, a column group per benchmark: its tasks and pass rates."""
    groups = [("", 1 + len(board.metadata))]
    columns = ["model", *board.metadata]
    for benchmark in board.benchmarks:
        mine = ["tasks", *_suite_columns(benchmark)]
        groups.append((benchmark.title, len(mine)))
        columns += mine
    rows = []
    for label in board.labels():
        cells = [label, *_metadata(board, label)]
        for benchmark in board.benchmarks:
            row = next((r for r in benchmark.report.rows if r.label == label), None)
            cells += [str(row.tasks) if row else "", *_suite_cells(benchmark, label)]
        rows.append(tuple(cells))
    return Table(tuple(columns), tuple(rows), groups=tuple(groups))


#: Program tasks' kinds of failure under their headings: correctness, then efficiency.
_PROGRAM_GROUPS = (("correctness", len(PROGRAM_KILL_KINDS) - 1), ("efficiency", 1))


def _counted(label: str, counts: Mapping[str, int], kinds: Sequence[str]) -> tuple[str, ...]:
    """A row of counts: the label, their sum, then each kind's."""
    return (label, str(sum(counts.get(k, 0) for k in kinds)),
            *(str(counts.get(k, 0)) for k in kinds))


def kills(report: Report) -> Table:
    """Each model's kills by what its first failing plus test did (program tasks: by
    what failed it, correctness apart from efficiency)."""
    kinds = report.kill_kinds
    rows = tuple(_counted(row.label, row.kills, kinds)
                 for row in report.rows if row.score is not None)
    groups = (("", 2), *_PROGRAM_GROUPS) if report.programs else ()
    return Table(("model", "kills", *kinds), rows, _counted("all", report.kills, kinds),
                 groups)


def failures(report: Report) -> Table:
    """Program tasks: each model's failing samples in each suite it was judged on (the
    public tests' failures among them), correctness apart from efficiency."""
    kinds = PROGRAM_FAILURES
    rows = tuple((row.label, suite, str(counts.get("samples", 0)),
                  *_counted("", counts, kinds)[1:])
                 for row in report.rows
                 for suite in sorted(row.failures, key=PROGRAM_SUITE_ORDER.index)
                 for counts in (row.failures[suite],))
    return Table(("model", "suite", "samples", "failing", *kinds), rows,
                 groups=(("", 4), *_PROGRAM_GROUPS, ("", 1)))


#: What the table of kills' bases says of them, in Markdown and HTML.
BASES_TEXT = ("What the kills rest on: a kill is *like base* when the sample fails some "
              "plus test whose input has none of the task's edge classes (classes such as "
              "empty, zero, negative, past 2^53, non-ASCII, duplicates, that no base input "
              "of the task has and its prompt does not mention), else it rests on *edge* "
              "classes, those of its first failing plus test counted.")
KILLS_TEXT = ("Kills: samples that pass the base tests and fail the plus tests, by what "
              "their first failing plus test did.")
#: The same of program tasks.
PROGRAM_BASES_TEXT = ("Which tier's test failed each kill first: *original* (the dataset's "
                      "hidden tests), *plus* (augment's correctness tier: in the full suite, "
                      "after every test of the dataset passed: what plus finds beyond the "
                      "dataset), *stress* (augment's efficiency tier); *not recorded* where "
                      "the results file does not say.")
PROGRAM_KILLS_TEXT = ("Kills: samples that pass the public tests (base) and fail the hidden "
                      "ones of the suite (full, else plus), by what failed them: correctness "
                      "(a wrong answer, a runtime error, too much output; the first such run's "
                      "status) apart from efficiency (only timeouts failed them).")
PROGRAMS_TEXT = ("Program tasks (stdin/stdout): base is the public tests; original the "
                 "dataset's hidden tests, plus and stress augment's tiers (correctness, "
                 "efficiency), each after the public tests; full every test.")
FAILURES_TITLE = "Failures per suite: correctness apart from efficiency"
FAILURES_TEXT = ("Failing samples of each suite, the public tests' failures among them: "
                 "correctness (the first failing run's status) apart from efficiency (only "
                 "timeouts failed them), and refused (never run).")


def kills_text(report: Report) -> str:
    return PROGRAM_KILLS_TEXT if report.programs else KILLS_TEXT


def bases_text(report: Report) -> str:
    return PROGRAM_BASES_TEXT if report.programs else BASES_TEXT


def edge_counts(edges: Mapping[str, int]) -> str:
    """``empty 3, big 1``: kills per edge class, in :data:`~evalplus_ng.generate.classes.KINDS`
    order."""
    order = [*KINDS, *sorted(set(edges) - set(KINDS))]
    return ", ".join(f"{kind} {edges[kind]}" for kind in order if edges.get(kind))


def bases(report: Report) -> Table:
    """Each model's kills by what they rest on, with the edge kills per class (program
    tasks: by the tier of their first failing test)."""
    kinds = report.kill_bases
    edges = () if report.programs else ("edge classes (kills)",)
    rows = tuple((*_counted(row.label, row.bases, kinds),
                  *(edge_counts(row.edges) for _ in edges))
                 for row in report.rows if row.score is not None)
    return Table(("model", "kills", *kinds, *edges), rows,
                 (*_counted("all", report.bases, kinds),
                  *(edge_counts(report.edges) for _ in edges)))


def dropped(report: Report) -> list[TaskRate]:
    """Tasks losing samples from base to plus, the largest drop first (ties in the
    dataset's order)."""
    return sorted((t for t in report.tasks if t.drop > 0), key=lambda t: -t.drop)


def drops_text(report: Report) -> str:
    """The line over the table of the largest drops (which :func:`dropped` leaves out
    where no task loses samples: the line says so)."""
    lost = dropped(report)
    if not lost:
        return (f"No task of {len(report.tasks)} loses samples from base to "
                f"{report.pooled}.")
    return (f"{len(lost)} of {len(report.tasks)} tasks lose samples from base to "
            f"{report.pooled}; the {min(TOP_TASKS, len(lost))} largest drops:")


def task_rates(tasks: Sequence[TaskRate], column: str = "plus") -> Table:
    """Tasks' pass rates pooled over the models (``column``: the suite pooled)."""
    return Table(("task", "samples", "base %", f"{column} %", "drop"),
                 tuple((t.task_id, str(t.samples), _pct(t.base), _pct(t.plus), _pct(t.drop))
                       for t in tasks))


def headline(report: Report, text: Quote = str) -> list[str]:
    """The lines a benchmark's part opens with (``text``: :data:`Quote`)."""
    lines = [f"{report.files} results file(s), {len(report.rows)} model(s), "
             f"{len(report.tasks)} task(s), {sum(r.samples for r in report.rows)} samples "
             f"(on the base and plus suite where there is one)."]
    if report.datasets:
        lines.append(f"Dataset: {', '.join(map(text, report.datasets))}.")
    if report.programs:
        lines.append(PROGRAMS_TEXT)
    for kind, digests in sorted(report.digests.items()):
        if len(digests) > 1:
            lines.append(f"**Warning**: the {text(kind)} results were judged with {len(digests)} "
                         "different suites (their hashes differ): their pass rates do not "
                         "compare.")
    fewer = unequal_tasks(report)
    if fewer:
        most = max(row.tasks for row in report.rows)
        lines.append(f"**Warning**: the models were judged on different numbers of tasks "
                     f"({', '.join(f'{text(row.label)} on {row.tasks}' for row in fewer)}, "
                     f"of {most}): a pass rate over fewer tasks does not compare with one "
                     "over more, whatever the ranking.")
    for row in report.rows:
        for kind, progress in sorted(row.partial.items()):
            lines.append(f"**Warning**: partial results: {text(row.label)} on the "
                         f"{text(kind)} suite, {text(progress)}; its rates are over those "
                         "alone.")
    return lines


def unequal_tasks(report: Report) -> list[ModelRow]:
    """The rows judged on fewer tasks than the most any row was judged on (none where all
    were judged on as many)."""
    most = max((row.tasks for row in report.rows), default=0)
    return [row for row in report.rows if row.tasks < most]


def board_line(board: Board, text: Quote = str) -> str:
    """What the page and the Markdown open with when several benchmarks are compared
    (``text``: :data:`Quote`)."""
    names = ", ".join(f"{text(b.title)} ({len(b.report.rows)} model(s))"
                      for b in board.benchmarks)
    return f"{board.files} results file(s) over {len(board.benchmarks)} benchmarks: {names}."


def suite_lines(facts: SuiteFacts, text: Quote = str) -> list[str]:
    """What a benchmark's suite holds, as list items (``text``: :data:`Quote`)."""
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
                     f"({', '.join(map(text, facts.defective)) or 'none'}); "
                     f"{audit.get('unreviewed', 0)} finding(s) awaiting review, "
                     f"{audit.get('dismissed', 0)} dismissed after review")
    lines += [f"- {text(line)}" for line in facts.lines]
    lines += [f"- {text(note)}" for note in facts.notes]
    return lines


def pass_at_k_note(benchmark: Benchmark) -> str | None:
    """Which pass@k no model's sample counts allow, and why (None when none is missing
    or the counts are unknown)."""
    counts = [cell.samples for column in benchmark.cells.values() for cell in column.values()]
    missing = [f"pass@{k}" for k in PASS_AT_K if k > 1 and k not in benchmark.ks]
    if not counts or not missing:
        return None
    return (f"No {' or '.join(missing)} here: a model's pass@k needs at least k samples of "
            f"every task (the fewest a model has of a task here: {min(counts)}).")


def found_title(report: Report) -> str:
    return "What the hidden tests find" if report.programs else "What the plus tests find"


def leaderboard_title(benchmark: Benchmark) -> str:
    return ("Leaderboard (pass@1 unless named, %)" if benchmark.ks
            else "Leaderboard (pass@1, %)")


# ---------------------------------------------------------------- Markdown


def _md_table(table: Table, links: Mapping[str, ModelInfo] | None = None) -> list[str]:
    def cell(text: str, column: str) -> str:
        info = (links or {}).get(text) if column == "model" else None
        if info is not None and info.link:
            return f"[{md_text(text)}]({md_url(info.link)})"
        return md_text(text)

    columns = list(table.columns)
    if table.groups:
        names = [title for title, span in table.groups for _ in range(span)]
        columns = [f"{group} {c}" if group else c for group, c in zip(names, columns,
                                                                      strict=True)]
    rows = [*(tuple(cell(c, name) for c, name in zip(row, table.columns, strict=True))
              for row in table.rows),
            *([("**all**", *map(md_text, table.total[1:]))] if table.total else [])]
    return ["| " + " | ".join(map(md_text, columns)) + " |",
            "|" + "---|" * len(columns),
            *("| " + " | ".join(row) + " |" for row in rows)]


def _md_benchmark(board: Board, benchmark: Benchmark, depth: str) -> list[str]:
    report, facts = benchmark.report, benchmark.facts
    lines = [*headline(report, md_text), "", f"{depth} {leaderboard_title(benchmark)}", "",
             *_md_table(leaderboard(board, benchmark), board.models), ""]
    note = pass_at_k_note(benchmark)
    if note:
        lines += [note, ""]
    if report.has_kills:
        lines += [f"{depth} {found_title(report)}", "", kills_text(report), "",
                  *_md_table(kills(report), board.models), "", bases_text(report), "",
                  *_md_table(bases(report), board.models), ""]
    if report.programs:
        lines += [f"{depth} {FAILURES_TITLE}", "", FAILURES_TEXT, "",
                  *_md_table(failures(report), board.models), ""]
    if report.has_kills:
        lines += [f"{depth} Per-task pass rates (all models' samples pooled)", "",
                  drops_text(report), ""]
        if dropped(report):
            lines += [*_md_table(task_rates(dropped(report)[:TOP_TASKS], report.pooled)), ""]
    lines += [f"{depth} The suite ({md_text(facts.folder)})", "",
              *(suite_lines(facts, md_text) or ["- no files"]), ""]
    return lines


def markdown(board: Board) -> str:
    """The report as Markdown: with several benchmarks, their leaderboards side by side
    first; then for each: leaderboard, kills by kind and by basis, the tasks with the
    largest drop, the suite."""
    lines = ["# evalplus-ng report", ""]
    if len(board.benchmarks) == 1:
        lines += _md_benchmark(board, board.benchmarks[0], "##")
        return "\n".join(lines)
    lines += [board_line(board, md_text), "", "## Side by side (pass@1 unless named, %)", "",
              *_md_table(side_by_side(board), board.models), ""]
    for benchmark in board.benchmarks:
        lines += [f"## {md_text(benchmark.title)}", "",
                  *_md_benchmark(board, benchmark, "###")]
    return "\n".join(lines)
