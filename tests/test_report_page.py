"""`report`'s page on literal results documents: the models file, pass@k, benchmarks side
by side, the per-model x per-task matrix, and the DOM headless Chromium holds after the
page's script ran (tables sorted by a click, a cell opened by a link)."""

from __future__ import annotations

import hashlib
import html
import json
import re
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from click.testing import CliRunner

from evalplus_ng.cli import main
from evalplus_ng.report import plots
from evalplus_ng.report.board import SuiteFacts, board, dataset_of, pass_at_ks
from evalplus_ng.report.matrix import CODE_CHARS, Failure, cells, first_failures
from evalplus_ng.report.models import ModelInfo, ModelsFormatError, metadata_keys, model_infos
from evalplus_ng.report.page import cell_id
from evalplus_ng.report.render import markdown, md_text, md_url
from evalplus_ng.report.summary import DuplicateResultsError, Report, TaskRate, judged_file

HOSTILE = "def add(x, y):\n    return '</pre><script>document.title = \"pwned\"</script>'\n"


def _entry(task_id: str, base: str, plus: str, *, failure: str = "", test: Any = None,
           code: str = "def f(x):\n    return x\n", kill_test: Any = None) -> dict[str, Any]:
    """A sample's verdict; ``test``: the first failing input of the tier it failed."""
    tier = "base" if base != "pass" else "plus"
    entry: dict[str, Any] = {"task_id": task_id, "solution": code, "base_status": base,
                             "plus_status": plus, "base_fail_tests": [],
                             "plus_fail_tests": []}
    if test is not None:
        entry[f"{tier}_fail_tests"] = [test]
    if failure:
        entry[f"{tier}_failure"] = failure
    if kill_test is not None:
        entry.update(kill="like base", kill_test=kill_test)
    return entry


def _results(dataset: str | None, entries: list[dict[str, Any]], kind: str = "plus",
             digest: str = "h") -> dict[str, Any]:
    """A results document (``dataset`` None: EvalPlus's own layout, which names none)."""
    table: dict[str, list[dict[str, Any]]] = {}
    for entry in entries:
        table.setdefault(entry["task_id"], []).append(entry)
    if dataset is None:
        return {"hash": digest, "eval": table}
    return {"hash": digest, "evalplus_ng": {"suite": kind, "dataset": dataset, "hash": digest},
            "eval": table}


def test_models_file_gives_names_metadata_and_links() -> None:
    infos = model_infos({"a": "Model A", "c": {"family": "X"},
                         "b": {"name": "B", "size": "7B", "open": True, "params": 7,
                               "link": "https://example.org/b"}})
    assert infos["a"] == ModelInfo("Model A")
    assert infos["b"] == ModelInfo("B", {"size": "7B", "open": "yes", "params": "7"},
                                   "https://example.org/b")
    assert infos["c"].name == "c"  # no name: the stem
    assert metadata_keys(infos) == ("family", "size", "open", "params")


@pytest.mark.parametrize("document, problem", [
    ([], "not a models file"),
    ({"a": 3}, "a: a display name or an object of metadata, not int"),
    ({"a": {"link": "javascript:alert(1)"}}, "a.link: an http\\(s\\) URL"),
    ({"a": {"size": [7]}}, "a.size: a text or a number, not list"),
])
def test_a_malformed_models_file_is_named(document: Any, problem: str) -> None:
    with pytest.raises(ModelsFormatError, match=problem):
        model_infos(document)


def test_pass_at_k_for_every_k_the_sample_counts_allow() -> None:
    ten = [*[_entry("HumanEval/0", "pass", "pass")] * 3,
           *[_entry("HumanEval/0", "fail", "fail")] * 7,
           *[_entry("HumanEval/1", "pass", "fail")] * 10]
    judged = judged_file(_results("humaneval", ten), "a", "a.json")
    table = pass_at_ks(judged)
    # HumanEval/0: 3 of 10 pass, so pass@10 is 1; HumanEval/1: all pass base, none plus.
    assert table["base"] == pytest.approx({1: 65.0, 10: 100.0})
    assert table["plus"] == pytest.approx({1: 15.0, 10: 50.0})
    assert table["plus"][1] == pytest.approx(judged.pass_at_1("plus"))
    # One task with nine samples: pass@10 is not defined for the file.
    nine = judged_file(_results("humaneval", ten[1:]), "a", "a.json")
    assert set(pass_at_ks(nine)["plus"]) == {1}
    # A base-only file has no plus column.
    base = judged_file(_results("humaneval", ten, kind="base"), "a", "a.json")
    assert set(pass_at_ks(base)) == {"base"}


def test_first_failure_of_each_task_with_its_input_and_code() -> None:
    long_code = "x" * (CODE_CHARS + 10)
    document = _results("humaneval", [
        _entry("HumanEval/0", "pass", "pass"),
        _entry("HumanEval/0", "pass", "fail", failure="wrong output", test=[[1, 2], "a"],
               kill_test=[[3]]),
        _entry("HumanEval/0", "fail", "fail", failure="exception", test=[0]),
        _entry("HumanEval/1", "fail", "fail", failure="exception", code=long_code),
        _entry("HumanEval/2", "pass", "pass")])
    failures = first_failures(document)
    assert failures["HumanEval/0"] == Failure(1, "plus", "fail", "wrong output",
                                              "([1, 2], 'a')", "([3])",
                                              "def f(x):\n    return x\n")
    one = failures["HumanEval/1"]
    assert (one.tier, one.test) == ("base", None)  # no input listed: the code did not load
    assert one.code.endswith(f"... ({CODE_CHARS + 10:,} characters in all)")
    assert "HumanEval/2" not in failures
    matrix = cells(judged_file(document, "a", "a.json").tasks, failures)
    assert (matrix["HumanEval/0"].samples, matrix["HumanEval/0"].plus) == (3, 1)
    assert matrix["HumanEval/2"].failure is None and matrix["HumanEval/2"].share == 1.0


def test_benchmarks_side_by_side_one_row_per_display_name() -> None:
    he = [_entry("HumanEval/0", "pass", "pass"), _entry("HumanEval/1", "pass", "fail")]
    mb = [_entry("Mbpp/2", "pass", "pass"), _entry("Mbpp/3", "fail", "fail")]
    files = [judged_file(_results("humaneval", he), "a_he", "he/a.json"),
             judged_file(_results("humaneval", he[:1]), "b", "he/b.json"),
             judged_file(_results("mbpp", mb), "a_mbpp", "mb/a.json"),
             judged_file(_results(None, mb[:1]), "c", "mb/c.json")]
    assert [dataset_of(f) for f in files] == ["humaneval", "humaneval", "mbpp", "mbpp"]
    models = model_infos({"a_he": {"name": "A", "size": "7B"},
                          "a_mbpp": {"name": "A", "size": "7B"}})
    shown = board(files, {}, {"humaneval": SuiteFacts("he-out")}, models)
    assert [(b.title, [r.label for r in b.report.rows]) for b in shown.benchmarks] == [
        ("HumanEval+", ["b", "A"]), ("MBPP+", ["c", "A"])]
    assert shown.labels() == ["A", "b", "c"]  # in both first, then by pass@1, then name
    text = markdown(shown)
    assert ("| model | size | HumanEval+ tasks | HumanEval+ base | HumanEval+ plus | "
            "HumanEval+ drop | MBPP+ tasks | MBPP+ base | MBPP+ plus | MBPP+ drop |") in text
    assert "| A | 7B | 2 | 100.0 | 50.0 | 50.0 | 2 | 50.0 | 50.0 | 0.0 |" in text
    assert "| c |  |  |  |  |  | 1 | 100.0 | 100.0 | 0.0 |" in text
    assert "## HumanEval+" in text and "### The suite (he-out)" in text
    # Two files of one model, benchmark and suite are still an error.
    twice = model_infos({"a_he": "A", "b": "A"})
    with pytest.raises(DuplicateResultsError, match="two results files for A on the plus"):
        board(files, {}, {}, twice)


def _write(path: Path, document: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_a_mini_judged_by_its_path_is_reported_as_the_mini(tmp_path: Path) -> None:
    he, mb = tmp_path / "he-out", tmp_path / "mb-out"
    for folder, dataset in ((he, "humaneval"), (mb, "mbpp")):
        _write(folder / "stats.json", {"config": {"dataset": dataset},
                                       "plus_inputs": {"avg": 1, "median": 1, "min": 1,
                                                       "max": 1}})
    (he / "HumanEvalPlus-Mini.jsonl.gz").write_bytes(b"a mini")
    digest = hashlib.sha256(b"a mini").hexdigest()
    rows = [_entry("HumanEval/0", "pass", "pass"), _entry("HumanEval/0", "pass", "fail")]
    _write(tmp_path / "plus" / "m_eval_results.json", _results("humaneval", rows))
    _write(tmp_path / "mini" / "m_eval_results.json",
           _results("humaneval", rows[:1], kind="file", digest=digest))
    _write(tmp_path / "mbpp" / "m_eval_results.json",
           _results("mbpp", [_entry("Mbpp/2", "pass", "pass")]))
    result = CliRunner().invoke(main, [
        "report", str(tmp_path / "plus"), str(tmp_path / "mini"), str(tmp_path / "mbpp"),
        "--artifacts", str(he), "--artifacts", str(mb), "--out", str(tmp_path / "r")])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "r" / "report.md").read_text(encoding="utf-8")
    assert "| # | model | tasks | samples | base | plus | drop | MINI |" in text
    assert "| 1 | m | 1 | 2 | 100.0 | 50.0 | 50.0 | 100.0 |" in text
    # Each benchmark's suite from the folder of its dataset.
    assert f"### The suite ({he})" in text and f"### The suite ({mb})" in text
    assert "warning" not in text
    bad = _write(tmp_path / "models.json", {"m": {"link": "file:///etc/passwd"}})
    result = CliRunner().invoke(main, ["report", str(tmp_path / "plus"), "--models", str(bad),
                                       "--out", str(tmp_path / "r2")])
    assert result.exit_code == 2
    assert result.stderr.strip() == (f"error: {bad}: m.link: an http(s) URL, not "
                                     "'file:///etc/passwd'")


class _Tables(HTMLParser):
    """Each table's rows by the table's id: (part, [(cell text, cell attributes)])."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[tuple[str, list[tuple[str, dict[str, str | None]]]]]] = {}
        self.table = self.part = ""
        self.row: list[tuple[str, dict[str, str | None]]] | None = None
        self.cell: list[str] | None = None
        self.attrs: dict[str, str | None] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.table = dict(attrs).get("id") or ""
            self.tables[self.table] = []
        elif tag in ("thead", "tbody", "tfoot"):
            self.part = tag
        elif tag == "tr":
            self.row = []
        elif tag in ("td", "th"):
            self.cell, self.attrs = [], dict(attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self.row is not None and self.cell is not None:
            self.row.append(("".join(self.cell).strip(), self.attrs))
            self.cell = None
        elif tag == "tr" and self.row is not None:
            self.tables[self.table].append((self.part, self.row))
            self.row = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def _tables(text: str) -> _Tables:
    parser = _Tables()
    parser.feed(text)
    return parser


def _head(parser: _Tables, table: str) -> list[str]:
    """The column names: the last header row."""
    return [c for c, _ in [row for part, row in parser.tables[table] if part == "thead"][-1]]


def _column(parser: _Tables, table: str, name: str) -> list[str]:
    at = _head(parser, table).index(name)
    return [row[at][0] for part, row in parser.tables[table] if part == "tbody"]


def _markdown_rows(text: str) -> list[tuple[str, ...]]:
    """The data rows of every Markdown table (links as their text, bold as plain)."""
    rows: list[tuple[str, ...]] = []
    inside = False
    for line in text.splitlines():
        if line.startswith("|---"):
            inside = True
        elif inside and line.startswith("| "):
            rows.append(tuple(re.sub(r"\[(.*)\]\(.*\)", r"\1", cell.strip())
                              .replace("\\|", "|").strip("*")
                              for cell in line[2:-2].split(" | ")))
        else:
            inside = False
    return rows


#: Clicks, as a user would, the header cells named: "table id|column" (twice: the
#: other way round).
_CLICKS = """<script>
[%s].forEach(function (spec) {
  var parts = spec.split("|"), table = document.getElementById(parts[0]);
  var heads = table.tHead.rows[table.tHead.rows.length - 1].cells;
  Array.prototype.forEach.call(heads, function (th) {
    if (th.textContent === parts[1]) { th.click(); }
  });
});
</script></body>"""


def test_page_sorts_opens_cells_and_holds_the_markdown_in_chromium(
        tmp_path: Path, chromium: Callable[..., str]) -> None:
    he = ([_entry("HumanEval/0", "pass", "pass")] * 4
          + [_entry("HumanEval/0", "pass", "fail", failure="wrong output", test=[-3, 4],
                    code=HOSTILE)] * 6
          + [_entry("HumanEval/2", "pass", "pass")] * 10
          + [_entry("HumanEval/10", "fail", "fail", failure="exception", test=["x"])] * 10)
    strong = [_entry(f"HumanEval/{n}", "pass", "pass") for n in (0, 2, 10)] * 10
    _write(tmp_path / "he" / "a_eval_results.json", _results("humaneval", he))
    _write(tmp_path / "he" / "zed_eval_results.json", _results("humaneval", strong))
    _write(tmp_path / "mb" / "a-mbpp_eval_results.json",
           _results("mbpp", [_entry("Mbpp/2", "pass", "pass"), _entry("Mbpp/3", "fail", "fail")]))
    _write(tmp_path / "mb" / "theirs_eval_results.json",
           _results(None, [_entry("Mbpp/2", "pass", "fail")]))
    models = _write(tmp_path / "models.json", {
        "a": {"name": "Model A", "size": "7B", "link": "https://example.org/a"},
        "a-mbpp": {"name": "Model A", "size": "7B"}, "zed": {"name": "Zed", "size": "70B"}})
    out = tmp_path / "report"
    result = CliRunner().invoke(main, ["report", str(tmp_path / "he"), str(tmp_path / "mb"),
                                       "--models", str(models), "--out", str(out)])
    assert result.exit_code == 0, result.output
    content = (out / "report.html").read_text(encoding="utf-8")
    text = (out / "report.md").read_text(encoding="utf-8")
    # One file: one inline script (ours), nothing fetched; a sample's code is escaped.
    assert content.count("<script") == 1 and "src=" not in content and "<link" not in content
    assert "&lt;/pre&gt;&lt;script&gt;document.title" in content
    static = _tables(content)
    # Everything of the Markdown is on the page: each of its table rows is a row there.
    rows = {tuple(c for c, _ in row) for table in static.tables.values() for _, row in table}
    markdown_rows = _markdown_rows(text)
    assert len(markdown_rows) > 10
    for row in markdown_rows:
        assert row in rows, row
    # pass@k: every HumanEval+ task has 10 samples; MBPP+'s have one.
    assert _column(static, "leaderboard-humaneval", "plus pass@10") == ["100.0", "66.7"]
    assert "base pass@10" in _head(static, "leaderboard-humaneval")
    assert "base pass@10" not in _head(static, "leaderboard-mbpp")
    for note in ("No pass@100 here: a model's pass@k needs at least k samples of every task "
                 "(the fewest a model has of a task here: 10).",
                 "No pass@10 or pass@100 here: a model's pass@k needs at least k samples of "
                 "every task (the fewest a model has of a task here: 1)."):
        assert note in text and f"<p>{note.replace(chr(39), '&#x27;')}</p>" in content
    # Without the script (JS off): the default order, nothing sorted.
    assert _column(static, "leaderboard-humaneval", "model") == ["Zed", "Model A"]
    assert not any("aria-sort" in attrs for table in static.tables.values()
                   for _, row in table for _, attrs in row)
    clicks = ", ".join(json.dumps(spec) for spec in (
        "leaderboard-humaneval|model", "side-by-side|model", "side-by-side|model",
        "matrix-humaneval|Model A", "leaderboard-mbpp|base"))
    clicked = out / "clicked.html"
    clicked.write_text(content.replace("</body>", _CLICKS % clicks), encoding="utf-8")
    link = cell_id("humaneval", "HumanEval/0", "Model A")
    dom = chromium(f"{clicked.as_uri()}#{quote(link)}", "--dump-dom",
                   "--virtual-time-budget=5000")
    after = _tables(dom)
    assert "<title>evalplus-ng report</title>" in dom  # the sample's script never ran
    assert _column(after, "leaderboard-humaneval", "model") == ["Model A", "Zed"]
    assert _column(after, "side-by-side", "model") == ["Zed", "theirs", "Model A"]
    # The matrix sorted by a model's share of passing samples: 0/10, 4/10, 10/10.
    assert _column(after, "matrix-humaneval", "task") == ["HumanEval/10", "HumanEval/0",
                                                          "HumanEval/2"]
    assert [re.match(r"\d+/\d+", c).group() for c in  # type: ignore[union-attr]
            _column(after, "matrix-humaneval", "Model A")] == ["0/10", "4/10", "10/10"]
    heads = {attrs.get("aria-sort") for table in after.tables.values() for part, row in table
             for _, attrs in row if part == "thead"}
    assert {"ascending", "descending"} <= heads
    assert _column(after, "leaderboard-mbpp", "base") == ["50.0", "100.0"]
    # The link opened the matrix and the cell it names, which shows the first failure.
    opened = re.search(r'<td class="c kill" id="([^"]+)"[^>]*><details open="">(.*?)</td>',
                       dom, re.S)
    assert opened is not None and opened.group(1) == link
    assert re.search(r'<details class="tasks" id="tasks-humaneval" open="">', dom)
    assert "first failing input: <code>(-3, 4)</code>" in opened.group(2)
    assert "&lt;/pre&gt;&lt;script&gt;" in opened.group(2)


#: Model names (from results files' names: no "/") and a task id that would be Markdown:
#: a cell boundary, HTML, a link, emphasis, code, an image, a line break.
MARKUP_NAMES = ("a|b", "<img src=x onerror=alert(1)>", "[link](https:e.example)",
                "*em* _em_ __init__", "`code`", "![img](x.png)", "two\nlines ~~gone~~")
MARKUP_TASK = "T|<i>1<i>_x_"


def test_report_md_shows_names_as_written_and_no_markup_of_theirs(tmp_path: Path) -> None:
    markdown_it = pytest.importorskip("markdown_it")
    rows = [_entry(MARKUP_TASK, "pass", "pass"), _entry(MARKUP_TASK, "pass", "fail")]
    for name in MARKUP_NAMES:
        _write(tmp_path / "results" / f"{name}_eval_results.json", _results("humaneval", rows))
    result = CliRunner().invoke(main, ["report", str(tmp_path / "results"), "--out",
                                       str(tmp_path / "r")])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "r" / "report.md").read_text(encoding="utf-8")
    parser = markdown_it.MarkdownIt("commonmark").enable("table").enable("strikethrough")
    tokens = parser.parse(text)
    assert not [t for t in tokens if t.type == "html_block"]
    # Every cell of every table: text alone (strong text is the total row's own "all").
    cells = [tokens[i + 1] for i, t in enumerate(tokens) if t.type in ("td_open", "th_open")]
    markup = [(c.content, child.type) for c in cells for child in c.children or []
              if child.type not in ("text", "strong_open", "strong_close")]
    assert markup == []
    assert {c.content for c in cells if "strong_open" in [x.type for x in c.children or []]
            } == {"**all**"}
    # Each name is one cell, shown as written (a line break as a space).
    shown = {html.unescape(parser.renderInline(c.content)) for c in cells}
    assert {name.replace("\n", " ") for name in MARKUP_NAMES} <= shown
    assert MARKUP_TASK in shown


def test_markdown_escapes_markup_and_keeps_words_whole() -> None:
    assert md_text("TheBloke_Manticore-13B_ALPACA") == "TheBloke_Manticore-13B_ALPACA"
    assert md_text("_em_ __init__ a*b") == r"\_em\_ \_\_init\_\_ a\*b"
    assert md_text("<a href=x>[y](z)</a>|`c`~\\") == r"\<a href=x\>\[y\](z)\</a\>\|\`c\`\~\\"
    assert md_text("one\r\ntwo\nthree") == "one two three"
    # A link's destination ends at no character of its own, and breaks no table row.
    assert md_url("https://e.example/a b)c|d<e>`") == "https://e.example/a%20b%29c%7Cd%3Ce%3E%60"


def test_models_judged_on_fewer_tasks_are_named_and_no_drop_is_no_table() -> None:
    # A model judged on one task ranked first without a word; "0 largest drops" over an
    # empty table.
    many = [_entry(f"HumanEval/{i}", "pass", "pass" if i else "fail") for i in range(3)]
    few = [_entry("HumanEval/1", "pass", "pass")]
    files = [judged_file(_results("humaneval", many), "wide", "a.json"),
             judged_file(_results("humaneval", few), "narrow", "b.json")]
    text = markdown(board(files, {}, {}, {}))
    assert [row.label for row in board(files, {}, {}, {}).benchmarks[0].report.rows] == [
        "narrow", "wide"]
    assert ("**Warning**: the models were judged on different numbers of tasks (narrow on "
            "1, of 3): a pass rate over fewer tasks does not compare with one over more, "
            "whatever the ranking.") in text
    assert "1 of 3 tasks lose samples from base to plus; the 1 largest drops:" in text
    same = [judged_file(_results("humaneval", [_entry(f"HumanEval/{i}", "pass", "pass")
                                               for i in range(2)]), label, f"{label}.json")
            for label in ("x", "y")]
    text = markdown(board(same, {}, {}, {}))
    assert "different numbers of tasks" not in text
    assert "No task of 2 loses samples from base to plus." in text
    assert "largest drops" not in text and "| task | samples |" not in text


def test_the_per_task_plot_names_its_tasks() -> None:
    # The 164-task chart had no task labels.
    def named(count: int) -> list[str]:
        report = Report((), tuple(TaskRate(f"Toy/t{i}", 4, 100.0 - i % 7, 25.0)
                                  for i in range(count)), {}, (), 1)
        return re.findall(r"<!-- (.*?) -->", plots.task_plot(report))

    shown = named(164)
    assert {f"t{i}" for i in range(164)} <= set(shown)
    assert "164 tasks, by base pass rate" in shown
    shown = named(500)
    assert "500 tasks, by base pass rate (one in 3 named)" in shown
    assert len({f"t{i}" for i in range(500)} & set(shown)) == 167
    assert plots.task_label("cc/1000_A. A very long contest name") == "1000_A. A ver…"
