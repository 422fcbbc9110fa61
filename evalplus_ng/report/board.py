"""Several benchmarks side by side: results files grouped by the dataset they judged,
each group a :class:`~evalplus_ng.report.summary.Report` with its pass@k, its
per-model x per-task cells and its suite's facts, models named by the models file.

Pure: the pipeline reads the files and hands their contents here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from evalplus_ng.evaluation.program_verdicts import FULL
from evalplus_ng.evaluation.verdicts import PASS_AT_K, estimate_pass_at_k
from evalplus_ng.report.matrix import Cell, Failure, cells
from evalplus_ng.report.models import ModelInfo, metadata_keys
from evalplus_ng.report.summary import PLUS_KINDS, JudgedFile, Report, build, main_files
from evalplus_ng.types import TaskId

#: How the page names a dataset's suite; a dataset not here goes by its own name.
TITLES = {"humaneval": "HumanEval+", "mbpp": "MBPP+"}


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
    #: What else the folder says of its suite, a line each (program tasks: the tasks by
    #: outcome of ``augment``, the new tests' time limits).
    lines: tuple[str, ...] = ()


def dataset_of(judged: JudgedFile) -> str:
    """The dataset a results file judged: the one it records, else (EvalPlus's own
    files record none) the one its task ids name (``HumanEval/0``, ``Mbpp/2``), else ""."""
    if judged.dataset:
        return judged.dataset
    prefixes = {task_id.rpartition("/")[0].lower() for task_id in judged.tasks}
    named = prefixes.pop() if len(prefixes) == 1 else ""
    return named if named in TITLES else ""


def title(dataset: str) -> str:
    """``HumanEval+`` for ``humaneval``."""
    return TITLES.get(dataset, dataset or "unnamed dataset")


def pass_at_ks(judged: JudgedFile, ks: Sequence[int] = PASS_AT_K) -> dict[str, dict[int, float]]:
    """Column (``base``; ``plus`` for a file judged on base and plus, ``full`` for one of
    program tasks judged on every test) -> k -> pass@k in percent, for every k of ``ks``
    that every task's sample count allows (``evaluate``'s unbiased estimator and rule)."""
    totals = [counts.samples for counts in judged.tasks.values()]
    if not totals:
        return {}
    columns = {"base": [counts.base for counts in judged.tasks.values()]}
    second = "plus" if judged.kind in PLUS_KINDS else judged.kind if judged.kind == FULL else ""
    if second:
        columns[second] = [counts.plus for counts in judged.tasks.values()]
    return {column: {k: 100 * estimate_pass_at_k(totals, corrects, k)
                     for k in ks if min(totals) >= k}
            for column, corrects in columns.items()}


@dataclass(frozen=True)
class Benchmark:
    """One dataset's results: the report, the suite's facts, each model's pass@k
    (label -> column -> k -> percent) and cells (label -> task -> :class:`Cell`), both of
    the file its leaderboard row's base rate comes from."""

    dataset: str
    report: Report
    facts: SuiteFacts
    pass_at_k: Mapping[str, Mapping[str, Mapping[int, float]]] = field(default_factory=dict)
    cells: Mapping[str, Mapping[TaskId, Cell]] = field(default_factory=dict)

    @property
    def title(self) -> str:
        return title(self.dataset) + (" (stdin/stdout programs)" if self.report.programs
                                      else "")

    @property
    def ks(self) -> tuple[int, ...]:
        """The k above 1 some model's sample counts allow (pass@1 is the leaderboard's)."""
        return tuple(sorted({k for table in self.pass_at_k.values()
                             for row in table.values() for k in row if k > 1}))


@dataclass(frozen=True)
class Board:
    """Every benchmark's results (in :data:`TITLES` order, then by name) and the models
    file's entries, keyed by display name."""

    benchmarks: tuple[Benchmark, ...]
    models: Mapping[str, ModelInfo] = field(default_factory=dict)

    @property
    def files(self) -> int:
        return sum(b.report.files for b in self.benchmarks)

    @property
    def metadata(self) -> tuple[str, ...]:
        """The models file's metadata keys: a column each."""
        return metadata_keys(self.models)

    def labels(self) -> list[str]:
        """Every model, for the table of benchmarks side by side: those with results in
        more benchmarks first, then by mean plus (else base) pass@1, then by name."""
        scores: dict[str, list[float]] = {}
        for benchmark in self.benchmarks:
            for row in benchmark.report.rows:
                scores.setdefault(row.label, []).append(
                    row.score if row.score is not None else row.base)
        return sorted(scores, key=lambda label: (-len(scores[label]),
                                                 -sum(scores[label]) / len(scores[label]),
                                                 label))


def single(report: Report, facts: SuiteFacts) -> Board:
    """A board of one report, without pass@k or cells (for tests and callers that hold
    a :class:`Report` only)."""
    return Board((Benchmark(report.datasets[0] if report.datasets else "", report, facts),))


def _order(dataset: str) -> tuple[int, str]:
    names = list(TITLES)
    return (names.index(dataset) if dataset in names else len(names), dataset)


def board(files: Sequence[JudgedFile], failures: Mapping[str, Mapping[TaskId, Failure]],
          facts: Mapping[str, SuiteFacts], models: Mapping[str, ModelInfo] | None = None,
          ) -> Board:
    """The board over ``files``, grouped by :func:`dataset_of`; ``failures``: each file's
    first failures by its path; ``facts``: each dataset's suite; ``models``: the models
    file's entries by results-file stem (files of a stem it names take its display name).

    Raises :class:`~evalplus_ng.report.summary.DuplicateResultsError` for two files of
    one model, dataset and suite kind."""
    models = models or {}
    named = [replace(f, label=models[f.label].name) if f.label in models else f
             for f in files]
    grouped: dict[str, list[JudgedFile]] = {}
    for judged in named:
        grouped.setdefault(dataset_of(judged), []).append(judged)
    benchmarks = []
    for dataset in sorted(grouped, key=_order):
        group = grouped[dataset]
        mains = main_files(group)
        benchmarks.append(Benchmark(
            dataset, build(group), facts.get(dataset, SuiteFacts("")),
            {label: pass_at_ks(main) for label, main in mains.items()},
            {label: cells(main.tasks, failures.get(main.path, {}))
             for label, main in mains.items()}))
    shown = {f.label for f in named}
    return Board(tuple(benchmarks),
                 {info.name: info for info in models.values() if info.name in shown})
