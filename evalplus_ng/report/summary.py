"""What several models' results say, side by side: the numbers behind ``evalplus-ng report``.

Pure functions on plain data: :func:`judged_file` turns one results document (as
``evaluate`` writes it, or as EvalPlus does) into per-task counts; :func:`build`
gathers many into a :class:`Report`: a leaderboard (pass@1 on base, plus and the
MINI, and the drop from base to plus), per-task pass rates pooled over models, and
what kind of failure the plus tests find. :mod:`evalplus_ng.report.render` writes it out.

A **kill** is a sample that passes the base tests and fails the plus tests; samples
failing base count in the base pass rate and nowhere else. A kill is split by what it
rests on (:mod:`evalplus_ng.evaluation.edges`): an input like the base tests, or edge classes the
prompt does not mention.

Results files of program tasks (:mod:`evalplus_ng.report.program_results`) fill the same records:
their suites are the columns (``base`` the public tests, ``original``, ``plus``,
``stress``, ``full``), a kill passes the public tests and fails the hidden ones, split by
what failed it (:data:`PROGRAM_KILL_KINDS`: correctness apart from timeouts) and by the
tier of its first failing test (:data:`PROGRAM_KILL_BASES`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from evalplus_ng.evaluation.program_verdicts import (
    CORRECTNESS,
    FULL,
    ORIGINAL,
    REFUSED,
    TIERS,
    RunStatus,
)
from evalplus_ng.evaluation.verdicts import (
    EDGE,
    FAILURES,
    LIKE_BASE,
    Completeness,
    completeness,
)
from evalplus_ng.oracle.defects import task_order
from evalplus_ng.types import TaskId

#: The failure kind of a kill whose results file does not record one (EvalPlus's files,
#: or evalplus-ng's before it did): only "timeout" can be told from the status.
UNRECORDED = "not recorded"
KILL_KINDS = (*FAILURES, UNRECORDED)
#: What a kill rests on, as results files record it (:data:`UNRECORDED` for files
#: without it).
KILL_BASES = (LIKE_BASE, EDGE, UNRECORDED)
#: Suite kinds a results file may name; a suite file given by path (``file``) and an
#: EvalPlus results file are judged on base and plus tests, as ``plus`` is.
PLUS_KINDS = ("plus", "file")
#: What failed a kill of program tasks: correctness (its first such run's status), then
#: efficiency (only timeouts failed it;
#: :func:`~evalplus_ng.evaluation.program_verdicts.failure_status`).
PROGRAM_KILL_KINDS = (*(status.value for status in CORRECTNESS), RunStatus.TIMEOUT.value)
#: What a kill of program tasks rests on: the tier of its first failing test
#: (:data:`UNRECORDED` where the results file does not say, in the ``full`` suite).
PROGRAM_KILL_BASES = (*TIERS[1:], UNRECORDED)
#: A suite's failing samples of program tasks by kind: the kills' kinds, and refused
#: (never run).
PROGRAM_FAILURES = (*PROGRAM_KILL_KINDS, REFUSED)
#: The order of a model's suites of program tasks in the table of failures.
PROGRAM_SUITE_ORDER = ("base", ORIGINAL, "plus", "mini", "stress", "stress-mini", FULL)


class ResultsFormatError(ValueError):
    """A results document that is not in EvalPlus's ``*_eval_results.json`` layout."""


@dataclass(frozen=True)
class TaskCounts:
    """One task's samples in one results file: how many, how many pass base, how many
    pass base and plus, the kills (base pass, plus fail) by failure kind, by what they
    rest on (:data:`KILL_BASES`), and the edge kills by edge class (a kill counts under
    each edge class of its first failing plus test)."""

    samples: int
    base: int
    plus: int
    kills: Mapping[str, int] = field(default_factory=dict)
    bases: Mapping[str, int] = field(default_factory=dict)
    edges: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class JudgedFile:
    """One results file: whose samples (``label``), which suite kind judged them, the
    suite's hash, the dataset, and the per-task counts."""

    label: str
    path: str
    kind: str
    digest: str
    dataset: str
    tasks: Mapping[TaskId, TaskCounts]
    #: What the file says of its completeness; None where it says nothing (EvalPlus's
    #: files, which EvalPlus writes whole, and evalplus-ng's before format 2).
    mark: Completeness | None = None
    #: A file of program tasks, and (for those) its suite's failing samples by kind
    #: (:data:`PROGRAM_FAILURES`; ``samples``: all it judged).
    programs: bool = False
    failures: Mapping[str, int] = field(default_factory=dict)

    @property
    def partial(self) -> bool:
        """The file says its run stopped before every sample was judged."""
        return self.mark is not None and not self.mark.complete

    @property
    def samples(self) -> int:
        return sum(counts.samples for counts in self.tasks.values())

    def pass_at_1(self, column: str) -> float:
        """Mean over tasks of the share of samples passing ``column`` ("base" or "plus")
        (the unbiased pass@1 estimator), in percent."""
        if not self.tasks:
            return 0.0
        shares = [(c.base if column == "base" else c.plus) / c.samples
                  for c in self.tasks.values()]
        return 100 * sum(shares) / len(shares)

    @property
    def kills(self) -> Counter[str]:
        total: Counter[str] = Counter()
        for counts in self.tasks.values():
            total.update(counts.kills)
        return total

    @property
    def bases(self) -> Counter[str]:
        return sum((Counter(c.bases) for c in self.tasks.values()), Counter())

    @property
    def edges(self) -> Counter[str]:
        return sum((Counter(c.edges) for c in self.tasks.values()), Counter())


def kill_basis(entry: Mapping[str, Any]) -> tuple[str, tuple[str, ...]]:
    """What a kill's results entry says it rests on (:data:`KILL_BASES`), and for an edge
    kill the edge classes of its first failing plus test."""
    basis = entry.get("kill")
    if basis == LIKE_BASE:
        return LIKE_BASE, ()
    if basis != EDGE:
        return UNRECORDED, ()
    edges = entry.get("plus_fail_edges")
    return EDGE, tuple(str(e) for e in edges) if isinstance(edges, list) else ()


def _kind_of_kill(entry: Mapping[str, Any]) -> str:
    recorded = entry.get("plus_failure")
    if isinstance(recorded, str) and recorded in FAILURES:
        return recorded
    return "timeout" if entry.get("plus_status") == "timeout" else UNRECORDED


def judged_file(document: Any, label: str, path: str) -> JudgedFile:
    """The counts of one results document; :class:`ResultsFormatError` names what is
    wrong with one that is not a results document."""
    if not isinstance(document, dict) or not isinstance(document.get("eval"), dict):
        raise ResultsFormatError("not a results file: no \"eval\" object of tasks")
    ours = document.get("evalplus_ng")
    ours = ours if isinstance(ours, dict) else {}
    tasks: dict[TaskId, TaskCounts] = {}
    for task_id, entries in document["eval"].items():
        if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
            raise ResultsFormatError(f"{task_id}: not a list of sample verdicts")
        try:
            base = [e["base_status"] == "pass" for e in entries]
            plus = [b and e["plus_status"] == "pass" for b, e in zip(base, entries, strict=True)]
        except KeyError as exc:
            raise ResultsFormatError(f"{task_id}: a verdict without {exc.args[0]}") from None
        killed = [e for b, p, e in zip(base, plus, entries, strict=True) if b and not p]
        bases = [kill_basis(e) for e in killed]
        if entries:
            tasks[str(task_id)] = TaskCounts(
                len(entries), sum(base), sum(plus), dict(Counter(map(_kind_of_kill, killed))),
                dict(Counter(basis for basis, _ in bases)),
                dict(Counter(edge for _, edges in bases for edge in edges)))
    # EvalPlus's own files judge base and plus, but for --base_only (no plus status at all).
    statuses = [e.get("plus_status") for entries in document["eval"].values() for e in entries]
    unrecorded = "base" if statuses and all(s is None for s in statuses) else "plus"
    kind = str(ours.get("suite", unrecorded))
    return JudgedFile(label, path, kind, str(document.get("hash", "")),
                      str(ours.get("dataset", "")), tasks, completeness(document))


@dataclass(frozen=True)
class ModelRow:
    """A leaderboard row: one label's files, pass@1 in percent per column."""

    label: str
    samples: int
    tasks: int
    base: float
    plus: float | None
    mini: float | None
    stress: float | None
    kills: Mapping[str, int]
    #: The kills by what they rest on, and the edge kills by edge class.
    bases: Mapping[str, int] = field(default_factory=dict)
    edges: Mapping[str, int] = field(default_factory=dict)
    #: pass@1 on the edge suite (inputs unlike the base tests,
    #: :mod:`evalplus_ng.generate.likeness`).
    edge: float | None = None
    #: Suite kind -> how far its file got, for files that say they are partial
    #: (``report --include-partial``).
    partial: Mapping[str, str] = field(default_factory=dict)
    #: pass@1 on program tasks' ``original`` (the dataset's hidden tests) and ``full``
    #: (every test) suites.
    original: float | None = None
    full: float | None = None
    #: Program tasks: suite kind -> its failing samples by kind (:attr:`JudgedFile.failures`).
    failures: Mapping[str, Mapping[str, int]] = field(default_factory=dict)

    @property
    def drop(self) -> float | None:
        """From base to the row's :attr:`score` (plus; program tasks: full, else plus)."""
        return None if self.score is None else self.base - self.score

    @property
    def score(self) -> float | None:
        """The pass@1 the row ranks by and its kills come from: full (program tasks:
        every test), else plus."""
        return self.full if self.full is not None else self.plus


@dataclass(frozen=True)
class TaskRate:
    """One task's pass rates pooled over every model's samples (percent)."""

    task_id: TaskId
    samples: int
    base: float
    plus: float

    @property
    def drop(self) -> float:
        return self.base - self.plus


@dataclass(frozen=True)
class Report:
    """Everything the report shows, but the suite's own files (stats, audit)."""

    rows: tuple[ModelRow, ...]
    tasks: tuple[TaskRate, ...]
    #: Suite kind -> the distinct suite hashes its files were judged with.
    digests: Mapping[str, tuple[str, ...]]
    datasets: tuple[str, ...]
    files: int
    #: Results of program tasks, and the suite column the per-task rates pool
    #: (program tasks' ``full`` where a model has it, else ``plus``, else ``base``).
    programs: bool = False
    pooled: str = "plus"

    @property
    def has_plus(self) -> bool:
        return any(row.plus is not None for row in self.rows)

    def has(self, column: str) -> bool:
        """Some model has a pass@1 in ``column`` (a :class:`ModelRow` field: ``original``,
        ``full``, ...)."""
        return any(getattr(row, column) is not None for row in self.rows)

    @property
    def has_kills(self) -> bool:
        """Some model was judged beyond base (plus, or full): kills to count."""
        return any(row.score is not None for row in self.rows)

    @property
    def kill_kinds(self) -> tuple[str, ...]:
        return PROGRAM_KILL_KINDS if self.programs else KILL_KINDS

    @property
    def kill_bases(self) -> tuple[str, ...]:
        return PROGRAM_KILL_BASES if self.programs else KILL_BASES

    @property
    def has_mini(self) -> bool:
        return any(row.mini is not None for row in self.rows)

    @property
    def has_stress(self) -> bool:
        return any(row.stress is not None for row in self.rows)

    @property
    def has_edge(self) -> bool:
        return any(row.edge is not None for row in self.rows)

    @property
    def kills(self) -> Counter[str]:
        total: Counter[str] = Counter()
        for row in self.rows:
            total.update(row.kills)
        return total

    @property
    def bases(self) -> Counter[str]:
        return sum((Counter(row.bases) for row in self.rows), Counter())

    @property
    def edges(self) -> Counter[str]:
        return sum((Counter(row.edges) for row in self.rows), Counter())


class DuplicateResultsError(ValueError):
    """Two results files for the same label and suite kind; ``path`` is the later one."""

    def __init__(self, message: str, path: str) -> None:
        super().__init__(message)
        self.path = path


def _group(files: Iterable[JudgedFile]) -> dict[str, dict[str, JudgedFile]]:
    """label -> kind -> file (``file`` kinds count as ``plus``)."""
    grouped: dict[str, dict[str, JudgedFile]] = {}
    for judged in files:
        kind = "plus" if judged.kind in PLUS_KINDS else judged.kind
        mine = grouped.setdefault(judged.label, {})
        if kind in mine:
            raise DuplicateResultsError(
                f"two results files for {judged.label} on the {kind} suite: "
                f"{mine[kind].path} and {judged.path}", judged.path)
        mine[kind] = judged
    return grouped


#: The suites whose file a row's kills come from, the first a model has: program tasks'
#: ``full`` (every test: its kills split by the tier that found them), else plus.
FOUND = (FULL, "plus")


def _found(kinds: Mapping[str, JudgedFile]) -> JudgedFile | None:
    return next((kinds[kind] for kind in FOUND if kind in kinds), None)


def _main(kinds: Mapping[str, JudgedFile]) -> JudgedFile:
    """The file a row's base rate, kills and tasks come from: full (program tasks), else
    plus, else base, else any."""
    return _found(kinds) or kinds.get("base") or next(iter(kinds.values()))


def main_files(files: Iterable[JudgedFile]) -> dict[str, JudgedFile]:
    """Label -> the file its leaderboard row's base rate, kills and tasks come from."""
    return {label: _main(kinds) for label, kinds in _group(files).items()}


def _row(label: str, kinds: Mapping[str, JudgedFile]) -> ModelRow:
    main = _main(kinds)

    def rate(kind: str) -> float | None:
        judged = kinds.get(kind)
        return judged.pass_at_1("plus") if judged else None

    found = _found(kinds)
    return ModelRow(label, main.samples, len(main.tasks), main.pass_at_1("base"),
                    rate("plus"), rate("mini"), rate("stress"),
                    dict(found.kills) if found else {}, dict(found.bases) if found else {},
                    dict(found.edges) if found else {}, rate("edge"),
                    {kind: judged.mark.text() for kind, judged in kinds.items()
                     if judged.partial and judged.mark is not None},
                    rate(ORIGINAL), rate(FULL),
                    {kind: judged.failures for kind, judged in kinds.items()
                     if judged.programs})


def build(files: Sequence[JudgedFile]) -> Report:
    """The report over ``files``: one leaderboard row per label (best plus pass@1 first,
    then best base), tasks in dataset order with their pass rates pooled over models."""
    grouped = _group(files)
    rows = sorted((_row(label, kinds) for label, kinds in grouped.items()),
                  key=lambda r: (-(r.score if r.score is not None else -1.0), -r.base, r.label))
    # Pooled over the models judged on full (program tasks) or else plus when there are
    # any (a base-only model has no such rate to add), else over every model's base
    # verdicts.
    column = next((kind for kind in FOUND
                   if any(kind in kinds for kinds in grouped.values())), "base")
    pooled: dict[TaskId, list[int]] = {}
    for kinds in grouped.values():
        main = kinds.get(column)
        if main is None:
            continue
        for task_id, counts in main.tasks.items():
            sums = pooled.setdefault(task_id, [0, 0, 0])
            sums[0] += counts.samples
            sums[1] += counts.base
            sums[2] += counts.base if column == "base" else counts.plus
    tasks = tuple(TaskRate(task_id, n, 100 * base / n, 100 * plus / n)
                  for task_id, (n, base, plus) in sorted(pooled.items(),
                                                         key=lambda item: task_order(item[0])))
    digests: dict[str, set[str]] = {}
    for judged in files:
        digests.setdefault(judged.kind, set()).add(judged.digest)
    return Report(tuple(rows), tasks, {kind: tuple(sorted(d)) for kind, d in digests.items()},
                  tuple(sorted({f.dataset for f in files if f.dataset})), len(files),
                  any(f.programs for f in files), column)
