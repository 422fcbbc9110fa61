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

A task with a checker program (:mod:`evalplus_ng.checker`: "print any valid answer") is
judged fail-fast too, in rounds: the program runs its tests up to the first output the
task's equality does not pass (or the first run that does not end normally), the checker
judges that output, and only where it accepts does the program go on, from the next test;
a reject (``wrong_answer``) or a broken checker (``checker_error``) ends the sample. The
parent holds at most that one output of a program at a time.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from evalplus_ng.checker import STDIN_BYTES, Said, message, said, stdin_bytes
from evalplus_ng.evaluation.assertdiff import first_wrong_output, text_diff
from evalplus_ng.evaluation.verdicts import PASS_AT_K, columns_pass_at_k
from evalplus_ng.jobs import checker_job, program_job
from evalplus_ng.protocols import Executor
from evalplus_ng.records import (
    DATASET_ORIGIN,
    PLUS_ORIGIN,
    PROGRAM_EQUALITIES,
    PROGRAM_OUTPUT_BYTES,
    STRESS_ORIGIN,
    TOKENS,
    Fault,
    Job,
    JobResult,
    Kept,
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
#: The ``kind`` a results file of programs names in its ``evalplus_ng`` record.
RESULTS_KIND = "programs"
#: The tiers of a task's tests, in the order ``full`` runs them (:attr:`ProgramRun.tier`).
PUBLIC = "public"
TIERS = (PUBLIC, ORIGINAL, PLUS_ORIGIN, STRESS_ORIGIN)
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
    #: The task's checker broke on the output (raised, exited with a code, timed out): a
    #: failure of the test, but not the sample's fault (see :mod:`evalplus_ng.checker`).
    CHECKER_ERROR = "checker_error"


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
    #: The test's origin (:attr:`~evalplus_ng.records.ProgramTest.origin`: "" for the
    #: dataset's own tests, ``plus`` or ``stress`` for ``augment``'s).
    origin: str = ""

    @property
    def tier(self) -> str:
        """Which tests the run's test is of (:data:`TIERS`): ``public``, ``original`` (the
        dataset's hidden tests), ``plus`` or ``stress``."""
        return PUBLIC if self.public else (self.origin or ORIGINAL)


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
    #: Where the first failing run printed a wrong answer: its stdout against the expected
    #: output (:func:`~evalplus_ng.evaluation.assertdiff.text_diff`); "" otherwise.
    diff: str = ""

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
        first = task.tests[order[0]] if order else None
        return (ProgramRun(order[0], first.public, status, 0.0, result.load.error or "",
                           allowed[0], first.origin),) if first is not None else ()
    return tuple(
        ProgramRun(order[k], task.tests[order[k]].public, run_status(outcome, passed),
                   outcome.seconds, "" if passed else outcome.error or "", allowed[k],
                   task.tests[order[k]].origin)
        for k, (outcome, passed) in enumerate(zip(result.outcomes, result.passed,
                                                  strict=True)))


#: A test's status from what the checker said of its output.
_SAID = {Said.ACCEPT: RunStatus.PASS, Said.REJECT: RunStatus.WRONG_ANSWER,
         Said.ERROR: RunStatus.CHECKER_ERROR}
#: Distinct programs of tasks with a checker judged together, in rounds: each holds at
#: most one output (the one its checker is to read, and the checker's stdin made of it)
#: between a round's two jobs.
CHECKER_ROUND = 16


def checked_run(run: ProgramRun, result: JobResult) -> ProgramRun:
    """``run`` once the checker judged its output (``result``: the checker's job on that
    one output): it passes where the checker accepts; a reject is a ``wrong_answer`` and a
    broken checker a ``checker_error``, both showing what the checker said."""
    if result.load.status is not Status.OK:
        return replace(run, status=RunStatus.CHECKER_ERROR,
                       error=f"checker: {result.load.error or result.load.status.value}")
    if not result.outcomes:
        return replace(run, status=RunStatus.CHECKER_ERROR, error="checker: not run")
    outcome, accepted = result.outcomes[0], result.passed[0]
    return replace(run, status=_SAID[said(outcome, accepted)],
                   error="" if accepted else f"checker: {message(outcome)}")


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
    judged = dict(judge_programs_staged(tasks, samples, executor, config, on_result))
    return [judged[position] for position in range(len(samples))]


def judge_programs_staged(tasks: Mapping[TaskId, ProgramTask], samples: Sequence[Sample],
                          executor: Executor, config: ProgramConfig = ProgramConfig(),
                          on_result: Callable[[int, int], None] | None = None,
                          done: Mapping[int, ProgramResult] | None = None,
                          ) -> Iterator[tuple[int, ProgramResult]]:
    """(position, result) of each sample as its program is judged (:func:`judge_programs`):
    the samples in ``done`` (a resumed run's, by position) and the refused ones first,
    then each distinct program's samples as it ends, so that a caller can keep what is
    judged when the run stops."""
    done = done or {}
    judged_tasks = {task_id: config.task(task) for task_id, task in tasks.items()}
    distinct: dict[tuple[TaskId, str], int] = {}
    for position, sample in enumerate(samples):
        if position in done:
            yield position, done[position]
        elif sample.refused:
            yield position, ProgramResult(sample.task_id, sample.line, sample.code,
                                          Verdict.FAIL, None if config.base_only
                                          else Verdict.FAIL, (), sample.refused)
        else:
            distinct.setdefault((sample.task_id, sample.code), len(distinct))
    keys = list(distinct)
    sharing: dict[int, list[int]] = {}
    for position, sample in enumerate(samples):
        if position not in done and not sample.refused:
            sharing.setdefault(distinct[sample.task_id, sample.code], []).append(position)

    orders = {task_id: run_order(task, config.suite) for task_id, task in judged_tasks.items()}
    limits = {task_id: [config.limit(task, task.tests[i]) for i in orders[task_id]]
              for task_id, task in judged_tasks.items()}
    plans = [(judged_tasks[task_id], orders[task_id]) for task_id, _code in keys]
    count = 0

    def ended(k: int, tests: tuple[ProgramRun, ...],
              diff: str = "") -> Iterator[tuple[int, ProgramResult]]:
        nonlocal count
        count += 1
        if on_result is not None:
            on_result(count, len(keys))
        task, order = plans[k]
        base = column((run for run in tests if run.public), len(task.base_tests))
        full = None if config.base_only else column(tests, len(order))
        for position in sharing[k]:
            sample = samples[position]
            yield position, ProgramResult(sample.task_id, sample.line, sample.code, base,
                                          full, tests, diff=diff)

    plain = [k for k, (task, _order) in enumerate(plans) if not task.checker]
    jobs = (program_job(plans[k][0], keys[k][1], [plans[k][0].tests[i] for i in plans[k][1]],
                        limits[plans[k][0].task_id], fail_fast=not config.details,
                        max_output_bytes=config.max_output_bytes, kept=Kept.FIRST_FAILED)
            for k in plain)
    for result, k in zip(executor.map(jobs), plain, strict=True):
        yield from ended(k, runs_of(*plans[k], result, limits[plans[k][0].task_id]),
                         _diff(*plans[k], result))
    with_checker = [k for k, (task, _order) in enumerate(plans) if task.checker]
    for start in range(0, len(with_checker), CHECKER_ROUND):
        chunk = with_checker[start:start + CHECKER_ROUND]
        for k, got in zip(chunk, _judge_checked([(*plans[k], keys[k][1]) for k in chunk],
                                                executor, config), strict=True):
            yield from ended(k, got)


def _diff(task: ProgramTask, order: Sequence[int], result: JobResult) -> str:
    """The first failing run of ``result`` (over ``order``) as a diff of its stdout against
    the expected output, where it printed a wrong answer the result kept; else ""."""
    index = first_wrong_output(result.outcomes, result.passed)
    if index is None or result.load.status is not Status.OK:
        return ""
    printed = result.outcomes[index].value
    return text_diff(task.tests[order[index]].output, printed) if isinstance(printed,
                                                                               str) else ""


def results_from_entries(table: Any, samples: Sequence[Sample],
                         tasks: Mapping[TaskId, ProgramTask], suite: str,
                         ) -> dict[int, ProgramResult]:
    """The results an earlier run's results file holds (its ``eval`` table, as
    :func:`~evalplus_ng.pipeline.programs.result_entry` writes each) for ``samples``, by
    position, matched by content (task and code): identical code gets the verdict it got
    then. An entry that does not read back is judged again. The caller checks first that
    the file is genuine and was judged with the same suite and settings."""
    saved: dict[tuple[TaskId, str], dict[str, Any]] = {}
    for task_id, entries in (table.items() if isinstance(table, dict) else ()):
        for entry in entries if isinstance(entries, list) else ():
            if isinstance(entry, dict) and isinstance(entry.get("solution"), str):
                saved.setdefault((str(task_id), entry["solution"]), entry)
    done: dict[int, ProgramResult] = {}
    for position, sample in enumerate(samples):
        entry = saved.get((sample.task_id, sample.code))
        task = tasks.get(sample.task_id)
        if entry is None or task is None:
            continue
        try:
            runs = tuple(ProgramRun(int(run["index"]), bool(run["public"]),
                                    RunStatus(run["status"]), float(run["seconds"]),
                                    str(run.get("error", "")), float(run["time_limit"]),
                                    task.tests[int(run["index"])].origin)
                         for run in entry["tests"])
            full = None if suite == BASE else entry[f"{suite}_status"]
            done[position] = ProgramResult(
                sample.task_id, sample.line, sample.code, Verdict(entry["base_status"]),
                None if full is None else Verdict(full), runs, str(entry.get("refused", "")),
                str(entry.get("diff", "")))
        except (KeyError, TypeError, ValueError, IndexError):
            continue
    return done


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
    timed_out = failure_status(run.status for run in runs) is RunStatus.TIMEOUT
    return RunStatus.TIMEOUT.value if timed_out else CORRECTNESS_FAILURE


def failure_status(statuses: Iterable[RunStatus]) -> RunStatus:
    """The status a failing sample is counted under, from its runs' statuses in a column
    (in the order run): ``timeout`` where no run failed on correctness and one timed out
    (right where it finished, too slow somewhere), else the first failure of correctness
    (``runtime_error`` where there is none: a run cut short, or a broken checker)."""
    seen = list(statuses)
    if all(status not in CORRECTNESS for status in seen) and RunStatus.TIMEOUT in seen:
        return RunStatus.TIMEOUT
    return next((status for status in seen if status in CORRECTNESS), RunStatus.RUNTIME_ERROR)


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
            statuses[failure_status(run.status for run in result.tests
                                    if column != BASE or run.public).value] += 1
    return {"samples": sum(kinds.values()),
            CORRECTNESS_FAILURE: {status.value: statuses[status.value]
                                  for status in CORRECTNESS},
            RunStatus.TIMEOUT.value: kinds[RunStatus.TIMEOUT.value],
            REFUSED: kinds[REFUSED]}


def _judge_checked(programs: Sequence[tuple[ProgramTask, list[int], str]], executor: Executor,
                   config: ProgramConfig) -> list[tuple[ProgramRun, ...]]:
    """The runs of programs of tasks with a checker (each its task, its tests' order and
    its code), fail-fast at the first wrong output as other programs are, in rounds: each
    program runs its tests up to the first output the task's equality does not pass (or
    the first run that does not end normally), then the checker judges that one output;
    where it accepts, the program goes on from the next test in the next round. With
    ``details`` every test runs, a failing one as any other. A program's result keeps only
    the output its checker is to read (none of those that passed)."""
    limits = [[config.limit(task, task.tests[i]) for i in order] for task, order, _ in programs]
    runs: list[list[ProgramRun]] = [[] for _ in programs]
    active = [k for k, (_task, order, _code) in enumerate(programs) if order]
    while active:

        def rest(k: int) -> Job:
            task, order, code = programs[k]
            done = len(runs[k])
            return program_job(task, code, [task.tests[i] for i in order[done:]],
                               limits[k][done:], fail_fast=True, kept=Kept.FAILED,
                               max_output_bytes=config.max_output_bytes)

        going: list[int] = []
        checks: list[tuple[int, Job | str]] = []
        for k, result in zip(active, executor.map(rest(k) for k in active), strict=True):
            task, order, _code = programs[k]
            done = len(runs[k])
            runs[k] += runs_of(task, order[done:], result, limits[k][done:])
            outcomes = result.outcomes
            if result.load.status is not Status.OK or not outcomes or result.passed[-1]:
                continue  # did not load (its first test failed), or passed to the end
            test = task.tests[order[len(runs[k]) - 1]]
            output = outcomes[-1].value
            if outcomes[-1].status is Status.OK and isinstance(output, str):
                checks.append((k, _checker(task, test, output, config)))
            elif config.details and len(runs[k]) < len(order):
                going.append(k)
        judged = executor.map(job for _k, job in checks if isinstance(job, Job))
        for k, check in checks:
            run = runs[k][-1]
            run = runs[k][-1] = (checked_run(run, next(judged)) if isinstance(check, Job) else
                                 replace(run, status=RunStatus.CHECKER_ERROR, error=check))
            if (run.status is RunStatus.PASS or config.details) and len(runs[k]) < len(
                    programs[k][1]):
                going.append(k)
        active = sorted(going)
    return [tuple(run) for run in runs]


def _checker(task: ProgramTask, test: ProgramTest, output: str,
             config: ProgramConfig) -> Job | str:
    """The checker's job on one output of ``test``; where its stdin would be more than the
    sandbox takes (:data:`~evalplus_ng.checker.STDIN_BYTES`), the checker error to report
    instead, the stdin never built."""
    size = stdin_bytes(test.input, test.output, output)
    if size > STDIN_BYTES:
        return (f"checker: not run: its input would be {size} bytes, more than "
                f"{STDIN_BYTES}")
    return checker_job(task, [(test, output)], task.time_limit or config.time_limit)


def program_pass_at_k(results: Sequence[ProgramResult], ks: Sequence[int] = PASS_AT_K,
                      suite: str = FULL) -> dict[str, dict[int, float]]:
    """pass@k for ``base`` and (unless only base was judged) the suite's tests (the
    column named after ``suite``), for k <= min n."""
    columns: dict[str, Callable[[ProgramResult], bool]] = {
        BASE: lambda r: r.base is Verdict.PASS}
    if any(r.full is not None for r in results):
        columns[suite] = lambda r: r.full is Verdict.PASS
    return columns_pass_at_k(results, columns, ks)
