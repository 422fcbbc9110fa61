"""Per-test time limits of program tasks, from the reference's own runs on the tests.

A test's limit is the functions' rule (:func:`evalplus_ng.oracle.timelimits.limit_seconds`):
``max(floor, factor x t)``, where ``t`` is the **slowest** of the reference's runs on that
test (:attr:`LimitRule.runs` of them, in the sandbox; on a slow test outside its task's
sample, an estimate: below), then **rounded up to a power of two** seconds (1, 2, 4, 8,
16, ...), so that timing again on the same machine mostly gives the same limits, and so
the same file. The floor is 1 s and the factor 4 by default.

* The floor is higher than the functions' 0.2 s because a program's time counts its
  imports and its reading of stdin, which a right program may do more slowly than the
  reference. Most tests take about a millisecond: their limit is the floor, which no
  timing moves.
* The slowest run, not the median, because a limit too tight fails right programs (a
  flake) while one a little loose only lets a slightly slower program through. A run's
  seconds are the CPU time the program used in the sandbox's child, the time the
  sandbox enforces a limit in where the machine is busy (:mod:`evalplus_ng.sandbox.stdio`).
* The grid is that coarse because those times move a lot on a busy machine: on 120 of
  augment's slow CodeContests tests, timed 6 times each with the machine's two cores
  shared (load 3 to 4), the slowest run was a median 2 times the fastest; two
  calibrations of 3 runs each gave the same limit on 95 of them with powers of two, on 79
  with ``{1, 1.5} x 2^k``, on 51 to the hundredth of a second. A limit is then 4 to 8
  times the slowest run (in that sample, at least 3 times every one of the six runs).

The first run is the one ``augment`` timed when it kept the test. Only where that time
could decide the limit (``factor x t`` at least a quarter of the floor, the rule
functions use to choose what to time again) is the test timed again, and of those only
a **sample**, the task's :attr:`LimitRule.sample` slowest by first time (16; ties: the
earlier test), runs ``runs - 1`` more times. A run that times out counts as its limit
(the rule's limit from the first run alone); a run that ends otherwise than with the
test's output (the reference printed something else, or raised) counts for nothing but
is reported as unstable.

The sample gives the task's **slowdown** ``rho``: the largest ``slowest / first`` of its
sampled tests (at least 1); every other test whose time could decide its limit is not
run again but gets ``first x rho`` as its slowest run (it is *estimated*). Why: running
every such test again was ~10 of the 22.5 minutes of ``augment`` on CodeContests (3,203
tests of 44 of the 221 tasks, ~1,540 CPU-s on two cores; the tail: tasks of 100 to 300
tests of 0.2 to 1.3 s each); running the 16 slowest of each task again costs ~340 CPU-s.
How much slower a run is than the first is mostly a property of the machine's load at
the time, not of the test: a ratio from a task's slowest tests, timed together, carries
to its quicker ones, conservatively since the largest ratio is used. Checked on a real
calibration where all 3,203 tests ran 3 times: estimating the 2,735 outside the 16
slowest of each task from the others gave the same limit on 87%, a step looser on 6%, a
step tighter on 6%, and every estimated limit was at least 2.8 times (all but one at
least 3 times) the slowest of the test's three real runs (two full calibrations of 120
slow tests agreed on 79%, above).

* A sampled test whose run **timed out** gives ``first_limit / first``: its run took at
  least its limit, so the slowdown was at least that. That can be large (16 on a 62.5 ms
  test, where the floor is the limit) and then loosens every estimated limit of the
  task: the safe side, and a timeout there is rare (the first run took a quarter of the
  limit at most).
* A sampled test that was **unstable** (or whose job did not load) gives no ratio: its
  runs say nothing sure of time. With no ratio, ``rho`` is 1: the estimated tests' limits
  are the first run's.
* A sampled test whose runs were never made (its job stopped at :data:`MAX_TIMEOUTS`)
  gives 1, as its slowest is its first: nothing.

Pure functions on timings and outcomes; the pipeline runs the jobs and keeps the
checkpoints (:mod:`evalplus_ng.pipeline.programs.calibrate`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from evalplus_ng.jobs import program_job
from evalplus_ng.oracle.timelimits import DEFAULT_FACTOR, limit_seconds
from evalplus_ng.records import Fault, Job, JobResult, ProgramTask, ProgramTest, Status

#: A program test's limit is at least this many seconds (see the module's docstring).
PROGRAM_FLOOR_SECONDS = 1.0
#: Runs of the reference on a test whose time could decide its limit (the first is
#: ``augment``'s).
RUNS = 3
#: The grid's steps from one power of two: limits are powers of two, in seconds.
GRID_STEPS = (1.0, 2.0)
#: Tests of a task timed again, at most: its slowest (by first time) of those whose time
#: could decide their limit; the others' times are estimated from them.
SAMPLE = 16
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
    #: Tests of a task timed again at most (its slowest); the others are estimated.
    sample: int = SAMPLE

    def __post_init__(self) -> None:
        if not (self.floor_seconds > 0 and math.isfinite(self.floor_seconds)) or not (
                1 <= self.factor < math.inf) or self.runs < 1 or self.sample < 1:
            raise ValueError("need floor_seconds > 0, factor >= 1, runs >= 1 and sample >= 1")

    def words(self) -> str:
        """The rule, for people."""
        words = (f"max({self.floor_seconds:g} s, {self.factor:g} x the reference's slowest of "
                 f"{self.runs} run{'s' if self.runs > 1 else ''}), rounded up to a power of "
                 "two seconds")
        if self.runs > 1:
            words += (f"; run again on a task's {self.sample} slowest tests, the others' "
                      "times scaled by the largest slowdown seen there")
        return words


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


def sampled(firsts: Sequence[float], rule: LimitRule = LimitRule()) -> list[int]:
    """The positions (ascending) of the tests (their first times ``firsts``) timed again:
    of those that :func:`needs_repeats`, the ``rule.sample`` slowest by first time (of
    equal times, the earlier)."""
    again = [k for k, seconds in enumerate(firsts) if needs_repeats(seconds, rule)]
    return sorted(sorted(again, key=lambda k: (-firsts[k], k))[:rule.sample])


def repeat_chunks(firsts: Sequence[float], rule: LimitRule = LimitRule(),
                  size: int = REPEAT_CHUNK) -> list[list[int]]:
    """The positions of the tests (their first times ``firsts``) to time again
    (:func:`sampled`), in jobs of at most ``size`` tests, in order."""
    again = sampled(firsts, rule)
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
    """The reference's runs on a task's tests: the slowest time of each (measured or
    estimated), how many tests were timed again (``repeated``) or had their slowest
    estimated (``estimated``) and by what slowdown (``slowdown``), and how many had a run
    time out or end otherwise than with the test's output (``unstable``)."""

    slowest: tuple[float, ...]
    repeated: int = 0
    timeouts: int = 0
    unstable: int = 0
    estimated: int = 0
    slowdown: float = 1.0

    def limits(self, rule: LimitRule = LimitRule()) -> tuple[float, ...]:
        """Each test's limit (:func:`limit_of` its slowest run)."""
        return tuple(limit_of([seconds], rule) for seconds in self.slowest)


def timed(firsts: Sequence[float], chunks: Sequence[Sequence[int]],
          results: Sequence[JobResult], rule: LimitRule = LimitRule()) -> Timed:
    """The slowest run of each test, from its first time (``firsts``) and the results of
    the :func:`repeat_job` of each of ``chunks`` (in order). A run that timed out counts as
    its limit; one that did not end with the test's output counts for nothing and makes
    its test unstable (so does a reference that no longer loads); one its job never ran
    (it stopped after :data:`MAX_TIMEOUTS`) counts for nothing. A test that
    :func:`needs_repeats` but is in no chunk gets its first time times the slowdown: the
    largest ``slowest / first`` of the stable tests of the chunks, at least 1 (the
    module's docstring says why)."""
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
    repeated = {position for positions in chunks for position in positions}
    slowdown = max((slowest[k] / firsts[k] for k in sorted(repeated - unstable)
                    if firsts[k] > 0), default=1.0)
    slowdown = max(slowdown, 1.0)
    estimated = [k for k, seconds in enumerate(firsts)
                 if k not in repeated and needs_repeats(seconds, rule)]
    for position in estimated:
        slowest[position] = firsts[position] * slowdown
    return Timed(tuple(slowest), len(repeated), len(timeouts), len(unstable), len(estimated),
                 slowdown)
