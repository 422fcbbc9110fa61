"""The reference's answers on new inputs of a program task: which candidates a task keeps
(its reference ends normally within the budget; its stdout is the expected output), which
tier each goes to, and what was dropped and why; and whether a task's checker program
can be trusted (:func:`checker_refusal`).

Pure functions on the candidates and the sandbox's outcomes; the pipeline plans, runs the
jobs and writes (:mod:`evalplus_ng.pipeline.programs.augment`).
"""

from __future__ import annotations

import enum
import hashlib
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from evalplus_ng.checker import Said, message, said
from evalplus_ng.generate.programs.planner import LARGE, ProgramInput
from evalplus_ng.records import (
    PLUS_ORIGIN,
    STRESS_ORIGIN,
    Fault,
    JobResult,
    Outcome,
    ProgramTask,
    ProgramTest,
    Status,
)

#: A violation's text kept in a task's report (the first few), for the warning.
VIOLATIONS_SHOWN = 3


class Drop(enum.Enum):
    """Why an input the plan admits was not kept: what the reference did on it."""

    TIMEOUT = "timeout"  #: over the budget (``--time-limit``)
    RUNTIME_ERROR = "runtime_error"  #: raised, exited with another code, crashed
    OUTPUT_LIMIT = "output_limit"  #: wrote more than the expected output may hold
    BAD_OUTPUT = "bad_output"  #: wrote what the sandbox could not read back as text
    NOT_RUN = "not_run"  #: the reference did not load, or its job stopped first


class Stressed(enum.Enum):
    """Why a kept input went to the stress tier rather than plus.

    Only how the input was made decides, never the reference's time on it: a decision
    by time (say, over a tenth of the budget) flips for the inputs near the line from one
    run to the next (on CodeContests, 349 of 41,000 tests between two runs of the same
    seed), and the same seed must give the same suite. A plus test the reference is slow
    on is safe anyway: its time limit is calibrated from the reference's own slowest run
    (:mod:`evalplus_ng.oracle.programs.timelimits`), and the statement's constraints ask for
    that speed."""

    #: the generator made it large (:data:`~evalplus_ng.generate.programs.planner.LARGE`)
    LARGE = "large"


def drop_reason(outcome: Outcome) -> Drop | None:
    """Why the reference's run on an input makes it unusable (None: it ended normally and
    its stdout is the expected output); decided by the outcome's kind, never its text."""
    if outcome.status is Status.OK:
        return None
    if outcome.status is Status.TIMEOUT:
        return Drop.TIMEOUT
    if outcome.status is Status.ERROR:
        if outcome.fault is Fault.TOO_LARGE:
            return Drop.OUTPUT_LIMIT
        if outcome.fault in (Fault.NOT_LOADED, Fault.NOT_RUN, Fault.NOT_EXAMINED):
            return Drop.NOT_RUN
        return Drop.RUNTIME_ERROR
    if outcome.status is Status.BAD_OUTPUT:
        return Drop.BAD_OUTPUT
    return Drop.RUNTIME_ERROR  # a crash


def stress_why(kind: str) -> Stressed | None:
    """Why an input made as ``kind`` goes to stress (None: to plus)."""
    return Stressed.LARGE if kind == LARGE else None


#: The drops the reference's time decides (over the budget; not run, its job stopped by
#: timeouts): the ones a timings file records (:class:`Timings`).
TIMED_DROPS = frozenset({Drop.TIMEOUT, Drop.NOT_RUN})
#: Their values, as a timings file names them.
TIMED_DROP_VALUES = frozenset(drop.value for drop in TIMED_DROPS)
#: The outcome of an input its job never ran.
UNRUN = Outcome(Status.ERROR, error="not run", fault=Fault.NOT_RUN)


def input_key(text: str) -> str:
    """A new input's name in a timings file: the first 16 hex digits of its SHA-256."""
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:16]


@dataclass(frozen=True)
class Timings:
    """What an earlier run's timing of the reference decided for a task's inputs (by
    :func:`input_key`): the seconds of each input it kept, and the inputs it dropped as
    over the budget or not run (:data:`TIMED_DROPS`, by the drop's value).

    The reference's time is the one thing a run measures rather than computes: an input
    it answers near the budget is kept on one run and dropped on the next, and a limit
    near a step of the grid moves. Replayed (:func:`replayed`), the same inputs get the
    same decisions and, calibrated from the same seconds, the same limits: timing made an
    input of the run, so that the same seed and the same timings give the same suite byte
    for byte, and a changed generator changes only what it changed."""

    seconds: Mapping[str, float] = field(default_factory=dict)
    dropped: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not set(self.dropped.values()) <= TIMED_DROP_VALUES:
            raise ValueError(f"a timed drop is one of {sorted(TIMED_DROP_VALUES)}")

    def runs(self, text: str) -> bool:
        """Whether an input is run at all: not where the timings dropped it."""
        return input_key(text) not in self.dropped

    def kept(self, text: str) -> bool:
        """Whether the timings kept an input (its time then comes from them)."""
        return input_key(text) in self.seconds


def replayed(candidates: Sequence[ProgramInput], outcomes: Sequence[Outcome],
             timings: Timings, time_limit: float) -> list[Outcome]:
    """``outcomes`` (the reference's, in candidate order, each run within more than the
    budget ``time_limit``) as ``timings`` decide them: an input they dropped is dropped
    again for the same reason (it was not run), one they kept and the reference answered
    has their seconds; any other (one the reference raised on, or a new one) is as it
    came, a time-out where it took longer than ``time_limit``, as on a first run. (Each
    run within more: a slower machine still answers, or raises on, what the first did.)"""
    found: list[Outcome] = []
    for candidate, outcome in zip(candidates, outcomes, strict=True):
        key = input_key(candidate.text)
        drop = timings.dropped.get(key)
        if drop == Drop.TIMEOUT.value:
            outcome = Outcome(Status.TIMEOUT, error="over the budget (timings file)")
        elif drop is not None:
            outcome = UNRUN
        elif key in timings.seconds and outcome.status is Status.OK:
            outcome = replace(outcome, seconds=timings.seconds[key])
        elif outcome.status is Status.OK and outcome.seconds > time_limit:
            outcome = Outcome(Status.TIMEOUT, error="over the budget",
                              seconds=outcome.seconds)
        found.append(outcome)
    return found


@dataclass(frozen=True)
class NewTest:
    """A kept input: the test it becomes (hidden, of origin plus or stress), how it was
    made and the seconds the reference took on it (for calibration)."""

    test: ProgramTest
    kind: str
    seconds: float


@dataclass(frozen=True)
class Screened:
    """The candidates worth running: admitted by the plan, distinct, none a seed; and how
    many were not (``violations``: must be 0, since the generator checks its own)."""

    inputs: tuple[ProgramInput, ...]
    violations: int = 0
    repeated: int = 0
    #: The first few violations, ``text: why`` (shortened), for the warning.
    shown: tuple[str, ...] = ()


def screen(candidates: Iterable[ProgramInput], seeds: Sequence[str],
           violation: Callable[[str], str | None]) -> Screened:
    """Check each candidate again with the plan's validator (``violation``) and drop the
    invalid ones, the repeats and the seeds, counting each."""
    seen = set(seeds)
    kept: list[ProgramInput] = []
    violations = repeated = 0
    shown: list[str] = []
    for candidate in candidates:
        if candidate.text in seen:
            repeated += 1
            continue
        seen.add(candidate.text)
        why = violation(candidate.text)
        if why is not None:
            violations += 1
            if len(shown) < VIOLATIONS_SHOWN:
                shown.append(f"{candidate.text[:40]!r}: {why[:120]}")
            continue
        kept.append(candidate)
    return Screened(tuple(kept), violations, repeated, tuple(shown))


@dataclass(frozen=True)
class Answers:
    """A task's kept inputs as new tests (candidate order), and what the rest became."""

    tests: tuple[NewTest, ...]
    dropped: dict[str, int] = field(default_factory=dict)
    stressed: dict[str, int] = field(default_factory=dict)
    #: The shortest input the reference raised (or crashed) on, if any: the witness that
    #: the plan admits an input outside the reference's domain (see :func:`refuted`).
    witness: str | None = None
    #: The inputs dropped for time (:data:`TIMED_DROPS`), by :func:`input_key`, in
    #: candidate order: with the kept tests' seconds, what a timings file records.
    timed_drops: Mapping[str, str] = field(default_factory=dict)


def answers(candidates: Sequence[ProgramInput], outcomes: Sequence[Outcome]) -> Answers:
    """The reference's answers on ``candidates`` (``outcomes`` in the same order; fewer
    where its job stopped: the rest count as not run): each input it ended normally on
    becomes a test whose output is its stdout, in stress when :func:`stress_why` says so,
    else in plus."""
    kept: list[NewTest] = []
    dropped: Counter[str] = Counter()
    stressed: Counter[str] = Counter()
    witness: str | None = None
    timed: dict[str, str] = {}
    for position, candidate in enumerate(candidates):
        outcome = outcomes[position] if position < len(outcomes) else None
        reason = Drop.NOT_RUN if outcome is None else drop_reason(outcome)
        if reason is not None:
            dropped[reason.value] += 1
            if reason in TIMED_DROPS:
                timed[input_key(candidate.text)] = reason.value
            if reason is Drop.RUNTIME_ERROR and (
                    witness is None or (len(candidate.text), candidate.text)
                    < (len(witness), witness)):
                witness = candidate.text
            continue
        assert outcome is not None
        why = stress_why(candidate.kind)
        if why is not None:
            stressed[why.value] += 1
        origin = PLUS_ORIGIN if why is None else STRESS_ORIGIN
        output = outcome.value if isinstance(outcome.value, str) else ""
        kept.append(NewTest(ProgramTest(candidate.text, output, False, origin),
                            candidate.kind, outcome.seconds))
    return Answers(tuple(kept), dict(sorted(dropped.items())), dict(sorted(stressed.items())),
                   witness, timed)


def refuted(got: Answers) -> bool:
    """Whether the reference refuted the plan: it raised on an input the plan admits.

    The reference passes every test of the dataset, so on a valid input it answers; an
    input it raises on is one the plan should not have admitted (a grammar the examples
    left open, a guarantee the statement gives in words), or the reference is wrong
    there, which only the statement can tell. Either way the plan is not a faithful
    validator of that task, and the other inputs it admitted may be invalid without
    making the reference raise: none of the task's new tests is kept. (A time-out says
    nothing of validity: a large valid input may be slow.)"""
    return got.witness is not None


def batches(candidates: Sequence[ProgramInput], size: int,
            large_size: int) -> list[list[int]]:
    """The candidates' positions in sandbox jobs: the large ones (which may run to the
    time limit) apart, after the others, in jobs of at most ``large_size``; the others in
    jobs of at most ``size``; each job in candidate order. A job stopped by its timeouts
    then leaves only large inputs unrun."""
    small = [k for k, candidate in enumerate(candidates) if candidate.kind != LARGE]
    large = [k for k, candidate in enumerate(candidates) if candidate.kind == LARGE]
    return ([small[start:start + size] for start in range(0, len(small), size)]
            + [large[start:start + large_size] for start in range(0, len(large), large_size)])


def aligned(positions: Sequence[Sequence[int]], outcomes: Sequence[Sequence[Outcome]],
            count: int) -> list[Outcome]:
    """The outcome of each of ``count`` candidates, in candidate order, from the jobs'
    outcomes (``outcomes[j]`` for the inputs at ``positions[j]``; fewer where a job
    stopped: the rest are :data:`UNRUN`)."""
    found = [UNRUN] * count
    for places, got in zip(positions, outcomes, strict=True):
        for place, outcome in zip(places, got, strict=False):
            found[place] = outcome
    return found


def public_outputs(task: ProgramTask, reference: JobResult) -> list[str] | None:
    """The reference's stdout on each of ``task``'s public tests (``reference``: its job
    over them, in order), or None when it did not end normally on every one."""
    public = task.base_tests
    if reference.load.status is not Status.OK or len(reference.outcomes) != len(public):
        return None
    if any(outcome.status is not Status.OK for outcome in reference.outcomes):
        return None
    return [outcome.value if isinstance(outcome.value, str) else ""
            for outcome in reference.outcomes]


def checker_refusal(task: ProgramTask, reference: JobResult, checker: JobResult | None) -> str:
    """Why ``task``'s checker program is not to be trusted, "" when it is: it must accept
    the reference's own output on every public test (the test's output its ``answer``).
    ``reference`` is the reference's job over the public tests, ``checker`` the checker's
    over the outputs it gave (None: not run, the reference having failed one); a test
    names its place in the task's ``tests``."""
    places = [place for place, test in enumerate(task.tests) if test.public]
    if not places:
        return "no public test to try its checker on"
    if public_outputs(task, reference) is None:
        if reference.load.status is not Status.OK:
            return f"the reference did not load: {reference.load.error or ''}"[:200]
        failed = next((k for k, outcome in enumerate(reference.outcomes)
                       if outcome.status is not Status.OK), len(reference.outcomes))
        what = (reference.outcomes[failed].status.value if failed < len(reference.outcomes)
                else "not run")
        return (f"the reference did not answer public test {places[failed]} ({what}): its "
                "checker cannot be tried there")
    if checker is None:
        return "its checker was not tried"
    if checker.load.status is not Status.OK:
        return f"its checker did not load: {checker.load.error or ''}"[:200]
    for k, (outcome, accepted) in enumerate(zip(checker.outcomes, checker.passed,
                                                strict=True)):
        verdict = said(outcome, accepted)
        if verdict is Said.REJECT:
            return (f"its checker rejects the reference's output on public test {places[k]}: "
                    f"{message(outcome)!r}")
        if verdict is Said.ERROR:
            return f"its checker failed on public test {places[k]}: {message(outcome)}"
    if len(checker.outcomes) < len(places):
        return f"its checker did not judge public test {places[len(checker.outcomes)]}"
    return ""
