"""Programs judged against a program task's tests (:class:`~evalplus_ng.records.ProgramTask`).

Each distinct sample (same task, same code) is one sandbox job: its public tests first,
then the hidden tests of the chosen suite (:data:`PROGRAM_SUITES`: none for ``base``; the
dataset's, ``augment``'s plus or stress tests, or all), each input given on stdin to a fresh
process running the program (:mod:`evalplus_ng.sandbox.stdio`) and its stdout judged with
the task's equality (:mod:`evalplus_ng.textjudge`), stopping at the first failure unless
``details``. The public tests give the ``base`` verdict, the suite's tests the suite's
one, as EvalPlus's base and plus; each test run has a status a contest judge would give it
(:class:`RunStatus`).

Each test runs within its own limit where it has one (``time_limit`` of the test:
``augment`` calibrates it from the reference's runs), else the task's, else the
configuration's (``--min-time-limit``, 10 s by default), and never below the
configuration's ``min_time_limit`` when set. A failure is either of correctness (a wrong
answer, a runtime error, too much output) or of efficiency (a timeout): the two are
counted apart (:func:`failure_counts`).
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from evalplus_ng.evaluation.evaluate import PASS_AT_K, columns_pass_at_k
from evalplus_ng.jobs import program_job
from evalplus_ng.protocols import Executor
from evalplus_ng.records import (
    DATASET_ORIGIN,
    PLUS_ORIGIN,
    PROGRAM_EQUALITIES,
    PROGRAM_OUTPUT_BYTES,
    STRESS_ORIGIN,
    TOKENS,
    Fault,
    JobResult,
    Outcome,
    ProgramTask,
    ProgramTest,
    Sample,
    Status,
    Verdict,
)
from evalplus_ng.types import TaskId

#: Seconds a test may take where the task names no limit: what CodeContests' verdicts in
#: ``../shared/datasets/stdio`` were measured with.
DEFAULT_TIME_LIMIT = 10.0

#: The suites a program task is judged on, each the origins of the hidden tests it runs
#: (:attr:`~evalplus_ng.records.ProgramTest.origin`) after the public ones: ``base`` the
#: public tests alone; ``original`` the dataset's own tests; ``plus`` and ``stress`` the
#: tiers ``augment`` made (correctness, efficiency); ``full`` every test.
BASE, ORIGINAL, FULL = "base", "original", "full"
PROGRAM_SUITES: dict[str, frozenset[str]] = {
    BASE: frozenset(),
    ORIGINAL: frozenset({DATASET_ORIGIN}),
    PLUS_ORIGIN: frozenset({PLUS_ORIGIN}),
    STRESS_ORIGIN: frozenset({STRESS_ORIGIN}),
    FULL: frozenset({DATASET_ORIGIN, PLUS_ORIGIN, STRESS_ORIGIN}),
}


class RunStatus(enum.Enum):
    """What one test run did, as a contest judge names it."""

    PASS = "pass"
    WRONG_ANSWER = "wrong_answer"  #: stdout differs from the expected output
    RUNTIME_ERROR = "runtime_error"  #: raised, exited with another code, crashed, no syntax
    TIMEOUT = "timeout"
    OUTPUT_LIMIT = "output_limit"  #: more than the output cap on stdout


#: The failures of correctness: the program's answer is wrong, whatever its speed.
CORRECTNESS = (RunStatus.WRONG_ANSWER, RunStatus.RUNTIME_ERROR, RunStatus.OUTPUT_LIMIT)


def run_status(outcome: Outcome, passed: bool) -> RunStatus:
    """The status of one run from its sandbox outcome (decided by its kind, never its text)."""
    if passed:
        return RunStatus.PASS
    if outcome.status is Status.TIMEOUT:
        return RunStatus.TIMEOUT
    if outcome.status is Status.ERROR:
        return (RunStatus.OUTPUT_LIMIT if outcome.fault is Fault.TOO_LARGE
                else RunStatus.RUNTIME_ERROR)
    if outcome.status is Status.CRASH:
        return RunStatus.RUNTIME_ERROR
    return RunStatus.WRONG_ANSWER  # an output (OK, or one the parent could not read)


@dataclass(frozen=True)
class ProgramRun:
    """One test run: the test's place in the task's ``tests``, whether it is public, its
    status, the seconds the program took, for a failure what the sandbox said, and the
    test's limit."""

    index: int
    public: bool
    status: RunStatus
    seconds: float = 0.0
    error: str = ""
    #: The seconds the test was allowed (:meth:`ProgramConfig.limit`).
    time_limit: float = 0.0


@dataclass(frozen=True)
class ProgramConfig:
    """How programs are judged.

    ``time_limit`` is a test's, in seconds, where neither the test nor the task names one;
    ``min_time_limit``, when set, is the least any test gets (the test's or the task's
    own limit is raised to it: a slower machine's leeway); ``details`` runs every test
    (else a sample stops at its first failure); ``suite`` names the tests run
    (:data:`PROGRAM_SUITES`). ``equality`` and ``atol``, when set, replace every task's
    own (the option that turns token-wise comparison and a float tolerance on for all
    tasks).
    """

    time_limit: float = DEFAULT_TIME_LIMIT
    details: bool = False
    suite: str = FULL
    max_output_bytes: int = PROGRAM_OUTPUT_BYTES
    equality: str | None = None
    atol: float | None = None
    min_time_limit: float | None = None

    def __post_init__(self) -> None:
        if self.time_limit <= 0:
            raise ValueError(f"time_limit must be above 0, not {self.time_limit}")
        if self.min_time_limit is not None and self.min_time_limit <= 0:
            raise ValueError(f"min_time_limit must be above 0, not {self.min_time_limit}")
        if self.suite not in PROGRAM_SUITES:
            raise ValueError(f"unknown program suite {self.suite!r}; known: "
                             f"{', '.join(PROGRAM_SUITES)}")
        if self.equality is not None and self.equality not in PROGRAM_EQUALITIES:
            raise ValueError(f"unknown program equality {self.equality!r}; known: "
                             f"{', '.join(PROGRAM_EQUALITIES)}")
        if self.atol and (self.equality or TOKENS) != TOKENS:
            raise ValueError(f"a tolerance compares numbers token by token: it needs "
                             f"equality {TOKENS!r}")

    @property
    def base_only(self) -> bool:
        """Whether only the public tests run (the ``base`` suite)."""
        return self.suite == BASE

    def task(self, task: ProgramTask) -> ProgramTask:
        """``task`` as judged: with the comparison this configuration sets, if any."""
        equality = self.equality or (TOKENS if self.atol else task.equality)
        atol = task.atol if self.atol is None else self.atol
        if (equality, atol) == (task.equality, task.atol):
            return task
        return replace(task, equality=equality, atol=atol)

    def limit(self, task: ProgramTask, test: ProgramTest) -> float:
        """The seconds ``test`` of ``task`` may take: its own limit, else the task's, else
        :attr:`time_limit`; at least :attr:`min_time_limit` when set."""
        limit = test.time_limit or task.time_limit or self.time_limit
        return limit if self.min_time_limit is None else max(limit, self.min_time_limit)


@dataclass(frozen=True)
class ProgramResult:
    """A sample's verdicts: ``base`` on the public tests, ``full`` on the suite's tests
    (the public ones too; None for the ``base`` suite), and each test run, in the order
    run (public first).
    ``refused`` is why it failed unrun (:data:`~evalplus_ng.records.REFUSALS`), if it did."""

    task_id: TaskId
    line: int
    code: str
    base: Verdict
    full: Verdict | None
    tests: tuple[ProgramRun, ...]
    refused: str = ""

    @property
    def first_failure(self) -> ProgramRun | None:
        """The first test run that did not pass (the one that stopped the sample)."""
        return next((run for run in self.tests if run.status is not RunStatus.PASS), None)


def run_order(task: ProgramTask, suite: str = FULL) -> list[int]:
    """Indices of the task's tests that ``suite`` runs (:data:`PROGRAM_SUITES`), in the
    order they run: the public ones, then the suite's hidden ones in file order."""
    origins = PROGRAM_SUITES[suite]
    public = [i for i, test in enumerate(task.tests) if test.public]
    return public + [i for i, test in enumerate(task.tests)
                     if not test.public and test.origin in origins]


def runs_of(task: ProgramTask, order: Sequence[int], result: JobResult,
            limits: Sequence[float] = ()) -> tuple[ProgramRun, ...]:
    """The test runs of a judged job over ``order`` (each within ``limits``, in the same
    order, where given); a program that did not load (a syntax error) fails its first
    test, as ``python main.py`` would exit there."""
    allowed = list(limits) or [0.0] * len(order)
    if result.load.status is not Status.OK:
        status = (RunStatus.TIMEOUT if result.load.status is Status.TIMEOUT
                  else RunStatus.RUNTIME_ERROR)
        return (ProgramRun(order[0], task.tests[order[0]].public, status, 0.0,
                           result.load.error or "", allowed[0]),) if order else ()
    return tuple(
        ProgramRun(order[k], task.tests[order[k]].public, run_status(outcome, passed),
                   outcome.seconds, "" if passed else outcome.error or "", allowed[k])
        for k, (outcome, passed) in enumerate(zip(result.outcomes, result.passed,
                                                  strict=True)))


def column(runs: Iterable[ProgramRun], count: int) -> Verdict:
    """The verdict over ``count`` tests whose runs (in order) are ``runs``: pass when all
    ran and passed, else fail (EvalPlus's words; what the first failure was, a timeout
    among them, is its run's status)."""
    ran = list(runs)
    passed = all(run.status is RunStatus.PASS for run in ran)
    return Verdict.PASS if passed and len(ran) == count else Verdict.FAIL


def judge_programs(tasks: Mapping[TaskId, ProgramTask], samples: Sequence[Sample],
                   executor: Executor, config: ProgramConfig = ProgramConfig(),
                   on_result: Callable[[int, int], None] | None = None,
                   ) -> list[ProgramResult]:
    """Judge each sample (a whole program for its task) on its task's tests, in the
    executor's sandbox; results in sample order. ``on_result(done, total)`` hears each
    distinct program judged."""
    judged_tasks = {task_id: config.task(task) for task_id, task in tasks.items()}
    distinct: dict[tuple[TaskId, str], int] = {}
    for sample in samples:
        if not sample.refused:
            distinct.setdefault((sample.task_id, sample.code), len(distinct))
    keys = list(distinct)

    orders = {task_id: run_order(task, config.suite) for task_id, task in judged_tasks.items()}
    limits = {task_id: [config.limit(task, task.tests[i]) for i in orders[task_id]]
              for task_id, task in judged_tasks.items()}
    plans = [(judged_tasks[task_id], orders[task_id]) for task_id, _code in keys]
    jobs = (program_job(task, code, [task.tests[i] for i in order], limits[task.task_id],
                        fail_fast=not config.details, max_output_bytes=config.max_output_bytes)
            for (task, order), (_task_id, code) in zip(plans, keys, strict=True))
    runs: list[tuple[ProgramRun, ...]] = []
    for done, result in enumerate(executor.map(jobs), start=1):
        task, order = plans[done - 1]
        runs.append(runs_of(task, order, result, limits[task.task_id]))
        if on_result is not None:
            on_result(done, len(keys))
    results = []
    for sample in samples:
        task = judged_tasks[sample.task_id]
        if sample.refused:
            results.append(ProgramResult(sample.task_id, sample.line, sample.code, Verdict.FAIL,
                                         None if config.base_only else Verdict.FAIL, (),
                                         sample.refused))
            continue
        index = distinct[sample.task_id, sample.code]
        tests, order = runs[index], plans[index][1]
        public = len(task.base_tests)
        results.append(ProgramResult(
            sample.task_id, sample.line, sample.code,
            column((run for run in tests if run.public), public),
            None if config.base_only else column(tests, len(order)), tests))
    return results


def failure_kind(result: ProgramResult, column: str = FULL) -> str:
    """What failed a sample in ``column`` (``base``, or the suite's), "" where it passed:
    ``refused`` (it never ran), ``correctness`` where a run it made there got a wrong
    answer, a runtime error or too much output, else ``timeout`` (every failing run ran
    out of time: right where it finished, too slow somewhere). Without ``details`` a
    sample stops at its first failure, which then decides."""
    verdict = result.base if column == BASE else result.full
    if verdict is not Verdict.FAIL:
        return ""
    if result.refused:
        return REFUSED
    runs = [run for run in result.tests if column != BASE or run.public]
    if all(run.status not in CORRECTNESS for run in runs) and any(
            run.status is RunStatus.TIMEOUT for run in runs):
        return RunStatus.TIMEOUT.value
    return CORRECTNESS_FAILURE


#: The kinds of :func:`failure_kind`.
CORRECTNESS_FAILURE, REFUSED = "correctness", "refused"


def failure_counts(results: Iterable[ProgramResult], column: str = FULL) -> dict[str, Any]:
    """The samples failing ``column`` (``base``, or the suite's), correctness apart from
    efficiency: ``correctness`` by the status of their first such run (``wrong_answer``,
    ``runtime_error``, ``output_limit``), ``timeout`` (only timeouts failed them) and
    ``refused`` (they never ran), with ``samples`` failing in all."""
    statuses: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    for result in results:
        kind = failure_kind(result, column)
        if not kind:
            continue
        kinds[kind] += 1
        if kind == CORRECTNESS_FAILURE:
            runs = [run for run in result.tests if column != BASE or run.public]
            first = next((run.status for run in runs if run.status in CORRECTNESS),
                         RunStatus.RUNTIME_ERROR)  # a run cut short, with no status
            statuses[first.value] += 1
    return {"samples": sum(kinds.values()),
            CORRECTNESS_FAILURE: {status.value: statuses[status.value]
                                  for status in CORRECTNESS},
            RunStatus.TIMEOUT.value: kinds[RunStatus.TIMEOUT.value],
            REFUSED: kinds[REFUSED]}


def program_pass_at_k(results: Sequence[ProgramResult], ks: Sequence[int] = PASS_AT_K,
                      suite: str = FULL) -> dict[str, dict[int, float]]:
    """pass@k for ``base`` and (unless only base was judged) the suite's tests (the
    column named after ``suite``), for k <= min n."""
    columns: dict[str, Callable[[ProgramResult], bool]] = {
        BASE: lambda r: r.base is Verdict.PASS}
    if any(r.full is not None for r in results):
        columns[suite] = lambda r: r.full is Verdict.PASS
    return columns_pass_at_k(results, columns, ks)
