"""The report's plots as inline SVG drawn by matplotlib: pass@1 per model, kills per
model by failure kind, pass rates per task (the EvalPlus paper's figure).

Deterministic: the same report gives the same bytes (no date, a fixed hash salt, text
drawn as paths).
"""

from __future__ import annotations

import io
from typing import Any

from evalplus_ng.report.summary import Report

COLORS = {"base": "#9ecae1", "original": "#6baed6", "plus": "#08519c", "mini": "#fd8d3c",
          "stress": "#74c476", "full": "#08306b",
          "wrong output": "#d62728", "exception": "#9467bd", "timeout": "#ff7f0e",
          "crash": "#7f7f7f", "not recorded": "#c7c7c7",
          "wrong_answer": "#d62728", "runtime_error": "#9467bd", "output_limit": "#8c564b"}
#: What a pass@1 bar counts: base tests, base and plus tests, the MINI's tests; program
#: tasks' original and full suites.
LEGEND = {"base": "base", "original": "base + original", "plus": "base + plus",
          "mini": "MINI", "full": "every test"}


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
    columns = [c for c, present in (("base", True), ("original", report.has("original")),
                                    ("plus", report.has_plus), ("mini", report.has_mini),
                                    ("full", report.has("full"))) if present]
    figure = _figure(9, 0.8 + 0.09 * len(rows) * (1 + len(columns)))
    axes = figure.subplots()
    height = 0.8 / len(columns)
    top = 0.0
    for offset, column in enumerate(columns):
        values = [getattr(r, column) or 0.0 for r in rows]
        top = max(top, *values)
        axes.barh([i + offset * height for i in range(len(rows))], values, height=height,
                  color=COLORS[column], label=LEGEND[column])
    axes.set_yticks([i + height * (len(columns) - 1) / 2 for i in range(len(rows))],
                    [r.label for r in rows], fontsize=7)
    axes.set_ylim(len(rows) - 0.1, -0.3)  # best first, no margin above the first bar
    axes.set_xlabel("pass@1 (%)")
    axes.set_xlim(0, min(100.0, 10 * (int(top) // 10 + 1)))
    axes.legend(loc="lower right", fontsize=8)
    axes.grid(axis="x", alpha=0.3)
    return _svg(figure)


#: Tasks named under the per-task plot's bars at most (past it, every n-th is).
MAX_TASK_LABELS = 240


def task_label(task_id: str) -> str:
    """A task's name under its bar: the part after the last ``/`` (``HumanEval/53`` ->
    ``53``), at most 14 characters."""
    name = task_id.rpartition("/")[2] or task_id
    return name if len(name) <= 14 else name[:13] + "…"


def task_plot(report: Report) -> str:
    """Pass rate per task, tasks ordered by base pass rate: base bars with plus over them
    (the EvalPlus paper's figure of pass rates per task)."""
    # Stable: ties keep the dataset's order.
    tasks = sorted(report.tasks, key=lambda t: (-t.base, -t.plus))
    figure = _figure(10, 3.6)
    axes = figure.subplots()
    xs = range(len(tasks))
    axes.bar(xs, [t.base for t in tasks], width=1.0, color=COLORS["base"], label="base")
    if report.pooled != "base":
        axes.bar(xs, [t.plus for t in tasks], width=1.0, color=COLORS[report.pooled],
                 label=f"base + {report.pooled}")
    axes.set_xlim(-0.5, len(tasks) - 0.5)
    axes.set_ylim(0, 100)
    # Each task named under its bar (every step-th where there are too many to read).
    step = 1 + len(tasks) // MAX_TASK_LABELS
    shown = range(0, len(tasks), step)
    axes.set_xticks(list(shown), [task_label(tasks[i].task_id) for i in shown], rotation=90,
                    fontsize=max(2.5, min(7.0, 480 / max(1, len(shown)))))
    axes.set_xlabel(f"{len(tasks)} tasks, by base pass rate"
                    + (f" (one in {step} named)" if step > 1 else ""))
    axes.set_ylabel("pass rate (%)")
    axes.legend(loc="upper right", fontsize=8)
    return _svg(figure)


def kills_plot(report: Report) -> str:
    """Stacked bars: each model's kills by failure kind."""
    rows = [r for r in report.rows if r.score is not None and any(r.kills.values())]
    figure = _figure(9, 0.8 + 0.16 * max(1, len(rows)))
    axes = figure.subplots()
    left: list[int] = [0] * len(rows)
    for kind in report.kill_kinds:
        values = [r.kills.get(kind, 0) for r in rows]
        if any(values):
            axes.barh(range(len(rows)), values, left=left, color=COLORS[kind], label=kind)
            left = [a + b for a, b in zip(left, values, strict=True)]
    axes.set_yticks(range(len(rows)), [r.label for r in rows], fontsize=7)
    axes.set_ylim(len(rows) - 0.4, -0.6)
    from matplotlib.ticker import MaxNLocator

    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_xlabel(f"kills (samples passing base, failing {report.pooled})")
    axes.legend(loc="lower right", fontsize=8)
    axes.grid(axis="x", alpha=0.3)
    return _svg(figure)
