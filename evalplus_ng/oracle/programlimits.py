"""Per-test time limits of program tasks, from the reference's own runs on each test.

A test's limit is the functions' rule (:func:`evalplus_ng.oracle.calibrate.limit_seconds`):
``max(floor, factor x t)``, where ``t`` is the **slowest** of the reference's runs on that
test (:attr:`LimitRule.runs` of them, in the sandbox), then **rounded up to a power of
two** seconds (1, 2, 4, 8, 16, ...), so that timing again on the same machine mostly gives
the same limits, and so the same file. The floor is 1 s and the factor 4 by default.

* The floor is higher than the functions' 0.2 s because a program's time counts its
  imports and its reading of stdin, which a right program may do more slowly than the
  reference. Most tests take about a millisecond: their limit is the floor, which no
  timing moves.
* The slowest run, not the median, because a limit too tight fails right programs (a
  flake) while one a little loose only lets a slightly slower program through. A run's
  seconds are wall-clock time in the sandbox's child, which load inflates, while the
  sandbox enforces a limit in CPU time where the machine is busy: a busy calibration
  only makes limits more generous.
* The grid is that coarse because those times move a lot on a busy machine: on 120 of
  augment's slow CodeContests tests, timed 6 times each with the machine's two cores
  shared (load 3 to 4), the slowest run was a median 2 times the fastest; two
  calibrations of 3 runs each gave the same limit on 95 of them with powers of two, on 79
  with ``{1, 1.5} x 2^k``, on 51 to the hundredth of a second. A limit is then 4 to 8
  times the slowest run (in that sample, at least 3 times every one of the six runs).

The first run is the one ``augment`` timed when it kept the test. Only where that time
could decide the limit (``factor x t`` at least a quarter of the floor, the rule
functions use to choose what to time again) does the reference run ``runs - 1`` more
times. A run that times out counts as its limit (the rule's limit from the first run
alone); a run that ends otherwise than with the test's output (the reference printed
something else, or raised) counts for nothing but is reported as unstable.

Pure functions on timings and outcomes; the pipeline runs the jobs and keeps the
checkpoints (:mod:`evalplus_ng.pipeline.calibrate_programs`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from evalplus_ng.jobs import program_job
from evalplus_ng.oracle.calibrate import DEFAULT_FACTOR, limit_seconds
from evalplus_ng.records import Fault, Job, JobResult, ProgramTask, ProgramTest, Status

#: A program test's limit is at least this many seconds (see the module's docstring).
PROGRAM_FLOOR_SECONDS = 1.0
#: Runs of the reference on a test whose time could decide its limit (the first is
#: ``augment``'s).
RUNS = 3
#: The grid's steps from one power of two: limits are powers of two, in seconds.
GRID_STEPS = (1.0, 2.0)
#: Tests timed again in one sandbox job (each run ``runs - 1`` times, as whole passes).
REPEAT_CHUNK = 8
#: A job of repeats stops after this many timeouts (its other runs count for nothing): a
#: reference far slower than it was when kept costs a few limits, not one a run.
MAX_TIMEOUTS = 2
#: Faults of runs a job never made.
_UNRUN = frozenset({Fault.NOT_RUN, Fault.NOT_LOADED, Fault.NOT_EXAMINED})


@dataclass(frozen=True)
class LimitRule:
    """How a program test's limit follows from the reference's runs on it."""

    floor_seconds: float = PROGRAM_FLOOR_SECONDS
    factor: float = DEFAULT_FACTOR
    runs: int = RUNS

    def __post_init__(self) -> None:
        if not (self.floor_seconds > 0 and math.isfinite(self.floor_seconds)) or not (
                1 <= self.factor < math.inf) or self.runs < 1:
            raise ValueError("need floor_seconds > 0, factor >= 1 and runs >= 1")

    def words(self) -> str:
        """The rule, for people."""
        return (f"max({self.floor_seconds:g} s, {self.factor:g} x the reference's slowest of "
                f"{self.runs} run{'s' if self.runs > 1 else ''}), rounded up to a power of "
                "two seconds")


#: The default rule.
DEFAULT_RULE = LimitRule()


def on_grid(seconds: float) -> float:
    """The smallest power of two (``2^k``, k any integer) at or above ``seconds``: exact in
    binary floating point, so the same limit is the same bytes."""
    if not (seconds > 0 and math.isfinite(seconds)):
        raise ValueError(f"a limit must be a positive number of seconds, not {seconds}")
    power = 2.0 ** math.floor(math.log2(seconds))
    return next(power * step for step in GRID_STEPS if power * step >= seconds)


def limit_of(times: Sequence[float], rule: LimitRule = LimitRule()) -> float:
    """A test's limit from the reference's times on it (the slowest counts): the rule's
    ``max(floor, factor x slowest)`` on the grid."""
    return on_grid(limit_seconds(max(times, default=0.0), 1.0, rule.floor_seconds,
                                 rule.factor))


def needs_repeats(seconds: float, rule: LimitRule = LimitRule()) -> bool:
    """Whether a test the reference took ``seconds`` on is timed again: only where the
    time could decide the limit (``factor x seconds`` at least a quarter of the floor, as
    for functions); below, the limit is the floor whatever a few more runs say."""
    return rule.runs > 1 and rule.factor * seconds >= rule.floor_seconds / 4


def first_limit(seconds: float, rule: LimitRule = LimitRule()) -> float:
    """The rule's limit (off the grid) from one run alone: what each repeat may take."""
    return limit_seconds(seconds, 1.0, rule.floor_seconds, rule.factor)


def repeat_chunks(firsts: Sequence[float], rule: LimitRule = LimitRule(),
                  size: int = REPEAT_CHUNK) -> list[list[int]]:
    """The positions of the tests (their first times ``firsts``) to time again, in jobs of
    at most ``size`` tests, in order."""
    again = [k for k, seconds in enumerate(firsts) if needs_repeats(seconds, rule)]
    return [again[start:start + size] for start in range(0, len(again), size)]


def repeat_job(task: ProgramTask, tests: Sequence[ProgramTest], firsts: Sequence[float],
               positions: Sequence[int], rule: LimitRule = LimitRule()) -> Job:
    """One sandbox job running the reference ``rule.runs - 1`` more times on the tests at
    ``positions`` (whole passes over them, so that a burst of load spoils one pass rather
    than every run of one test), each run within :func:`first_limit` and judged against
    the test's output (a reference that prints another answer is unstable)."""
    chosen = [tests[k] for k in positions]
    limits = [first_limit(firsts[k], rule) for k in positions]
    passes = rule.runs - 1
    return program_job(task, task.solution, chosen * passes, limits * passes,
                       fail_fast=False, max_timeouts=MAX_TIMEOUTS)


@dataclass(frozen=True)
class Timed:
    """The reference's runs on a task's tests: the slowest time of each, and how many tests
    were timed again, had a run time out, or had a run end otherwise than with the test's
    output (``unstable``)."""

    slowest: tuple[float, ...]
    repeated: int = 0
    timeouts: int = 0
    unstable: int = 0

    def limits(self, rule: LimitRule = LimitRule()) -> tuple[float, ...]:
        """Each test's limit (:func:`limit_of` its slowest run)."""
        return tuple(limit_of([seconds], rule) for seconds in self.slowest)


def timed(firsts: Sequence[float], chunks: Sequence[Sequence[int]],
          results: Sequence[JobResult], rule: LimitRule = LimitRule()) -> Timed:
    """The slowest run of each test, from its first time (``firsts``) and the results of
    the :func:`repeat_job` of each of ``chunks`` (in order). A run that timed out counts as
    its limit; one that did not end with the test's output counts for nothing and makes
    its test unstable (so does a reference that no longer loads); one its job never ran
    (it stopped after :data:`MAX_TIMEOUTS`) counts for nothing."""
    slowest = list(firsts)
    timeouts: set[int] = set()
    unstable: set[int] = set()
    for positions, result in zip(chunks, results, strict=True):
        if result.load.status is not Status.OK:
            unstable.update(positions)
            continue
        for run, outcome in enumerate(result.outcomes):
            position = positions[run % len(positions)]
            if outcome.status is Status.TIMEOUT:
                timeouts.add(position)
                seconds = first_limit(firsts[position], rule)
            elif outcome.status is Status.OK and run < len(result.passed) and result.passed[run]:
                seconds = outcome.seconds
            elif outcome.fault in _UNRUN:
                continue
            else:
                unstable.add(position)
                continue
            slowest[position] = max(slowest[position], seconds)
    return Timed(tuple(slowest), sum(len(positions) for positions in chunks), len(timeouts),
                 len(unstable))
