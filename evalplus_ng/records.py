"""Frozen records for the engine's concepts; plain data, no I/O."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field

from evalplus_ng.types import Args, TaskId, Wire


class Status(enum.Enum):
    """What happened when one input was run in the sandbox."""

    OK = "ok"  #: returned a value (in ``Outcome.value``)
    ERROR = "error"  #: raised an exception (type and message in ``Outcome.error``)
    TIMEOUT = "timeout"  #: exceeded its time limit and was killed
    CRASH = "crash"  #: the process died or exited (``os._exit``, ``sys.exit``, memory, signal)
    BAD_OUTPUT = "bad-output"  #: returned an object that is not plain data


class Fault(enum.Enum):
    """Why a call raised (:attr:`Status.ERROR`), decided where it happened: the sandbox's
    child by the exception's class, the parent by what it did not run. Never read back
    from the error's text, which untrusted code can write."""

    RAISED = "raised"  #: the code raised an exception
    RECURSION = "recursion"  #: a RecursionError: too deep for the interpreter's stack
    COST = "cost"  #: more lines than ``Job.max_lines`` (:data:`COST_EXCEEDED`)
    TOO_LARGE = "too-large"  #: an output longer than ``Job.max_output_bytes``
    UNSTABLE = "unstable"  #: a ``twice`` job's second call gave another output
    NOT_LOADED = "not-loaded"  #: the job's code did not load, so the input never ran
    NOT_RUN = "not-run"  #: the job stopped before this input (fail-fast, a budget)
    NOT_EXAMINED = "not-examined"  #: left unrun as too costly, after enough such inputs


class Kept(enum.Enum):
    """Which outputs a judged job's result keeps as values (:attr:`Job.kept`); the
    statuses, errors, times and verdicts are always kept."""

    ALL = "all"  #: every output's value
    FAILED = "failed"  #: the values of outputs that did not pass; None for the others
    #: the value of the first output that did not pass where it is short (a verdict and
    #: what its wrong output was: one short output held per job at most); None for the
    #: others
    FIRST_FAILED = "first-failed"
    NONE = "none"  #: no value (None): what a verdict needs


class Verdict(enum.Enum):
    """A sample's status on a suite, spelled as EvalPlus spells it. What a failure was
    (a wrong output, an exception, a timeout, a crash) is its failure kind, kept beside
    the status: EvalPlus writes a test that ran out of time as ``fail`` too (its
    ``timeout`` means its process never reported, whatever stopped it)."""

    PASS = "pass"
    FAIL = "fail"


@dataclass(frozen=True)
class Outcome:
    """The result of one call: ``value`` is serialized wire data, set only when OK;
    ``error`` is text for people; ``fault`` says why an ERROR happened (code decides on it,
    never on the text). Like pytest's ``CallInfo``, the kind is fixed where the call ends."""

    status: Status
    value: Wire = None
    error: str | None = None
    seconds: float = 0.0
    fault: Fault | None = None

    def __post_init__(self) -> None:
        if (self.fault is None) != (self.status is not Status.ERROR):
            raise ValueError(f"an outcome of status {self.status.value} "
                             f"{'needs' if self.fault is None else 'has no'} fault")
        if self.status is Status.OK and self.error is not None:
            raise ValueError("an OK outcome carries no error")


#: Typed equality (:func:`evalplus_ng.judge.equal`): ``True`` is not ``1``, ``3.0`` is not
#: ``3`` where an int is expected, a tuple is not a list. HumanEval's, and the default.
TYPED = "typed"
#: Python's ``==`` (:func:`evalplus_ng.judge.value_equal`): ``1 == 1.0 == True``, as a
#: benchmark whose tests are ``assert f(x) == y`` defines right (MBPP), floats within a
#: tolerance as EvalPlus compares them.
VALUE = "value"
#: How a task's outputs may compare (:attr:`Task.equality`).
EQUALITIES = (TYPED, VALUE)
#: A program's stdout compared line by line, as CodeContests' ``run.sh`` does: trailing
#: whitespace of each line and trailing blank lines do not count
#: (:func:`evalplus_ng.textjudge.same_lines`). A program task's default.
LINES = "lines"
#: A program's stdout compared token by token (whitespace separates, its amount does not
#: count), numbers within a tolerance where one is given
#: (:func:`evalplus_ng.textjudge.same_tokens`).
TOKENS = "tokens"
#: How a program task's outputs may compare (:attr:`ProgramTask.equality`).
PROGRAM_EQUALITIES = (LINES, TOKENS)
#: How a checker program's run is judged (:mod:`evalplus_ng.checker`): its stdout's first
#: token is ``ok`` (:func:`evalplus_ng.textjudge.accepts`). The equality of a checker's
#: jobs only, never a task's.
CHECKER_VERDICT = "checker"


@dataclass(frozen=True)
class Job:
    """Run ``entry_point`` of ``code`` on each of ``inputs`` (wire-encoded arg lists).

    With ``expected`` set, the parent judges each output with the sandbox's judge
    (:class:`evalplus_ng.protocols.Judge`) and, when ``fail_fast``, stops the job at the
    first input that does not pass.
    ``inputs`` and ``expected`` must not change once a job holds them: a sandbox
    prepares each sequence once (by identity) and reuses that for later jobs.
    """

    code: str
    entry_point: str
    inputs: Sequence[Wire]
    time_limits: Sequence[float]
    expected: Sequence[Wire] | None = None
    task_id: str = ""
    atol: float = 0.0
    fail_fast: bool = True
    #: When set, a call that executes more Python lines than this (plus the C-level
    #: work they hide, priced in lines: :mod:`evalplus_ng.sandbox.ccost`) fails with an ERROR
    #: naming :data:`COST_EXCEEDED`: a cost measure that, unlike time, is the same on
    #: every machine (counted by rewriting the code: :mod:`evalplus_ng.sandbox.linecount`). The
    #: first call of each input counts; the second (``twice``) is plain and timed.
    #: For trusted code (the ground truth) only.
    max_lines: int | None = None
    #: When set, the job stops once this many inputs have timed out or exceeded
    #: ``max_lines``: each costs a whole limit, so a looping candidate would otherwise
    #: cost one per input.
    max_timeouts: int | None = None
    #: When set, the job stops once this many inputs have failed (``fail_fast`` is 1).
    max_failures: int | None = None
    #: When set, the job stops once its inputs' seconds add up to this many (EvalPlus's
    #: cap of one sample's run: a looping sample judged on every input, ``details``,
    #: would otherwise cost a whole limit per input).
    max_seconds: float | None = None
    #: Call each input a second time (on a fresh copy of its arguments) and report an
    #: output that differs from the first as an ERROR naming :data:`UNSTABLE`. The
    #: time limit covers both calls; the seconds reported are the faster call's.
    twice: bool = False
    #: When set, an output whose wire text is longer than this many bytes is an ERROR
    #: naming :data:`OUTPUT_TOO_LARGE` instead (the size of an output, like its line
    #: count, is the same on every machine; the child reports it, and the parent refuses
    #: one longer all the same). Every judged output also has an allowance of its own
    #: (:mod:`evalplus_ng.sandbox.allowance`).
    max_output_bytes: int | None = None
    #: For trusted code (the ground truth): the child sends its outcomes in batches
    #: (every :data:`evalplus_ng.sandbox.child._BATCH_SECONDS`), not one write per
    #: input. A timeout or crash then cannot tell which of the unsent inputs caused it,
    #: so the job resumes from the first of them in a child that sends each outcome at
    #: once.
    batch: bool = False
    #: The task's special oracle (:data:`evalplus_ng.judge.SPECIAL_ORACLES`), "" for
    #: equality. The judge compares with it; :data:`NOT_NONE` also changes what
    #: the child sends.
    oracle: str = ""
    #: How the judge compares outputs (:data:`EQUALITIES`): the task's
    #: (:attr:`Task.equality`); a program's (:data:`PROGRAM_EQUALITIES`); a checker's
    #: verdict (:data:`CHECKER_VERDICT`).
    equality: str = TYPED
    #: Which output values the result keeps, for a job with ``expected`` outputs: every
    #: one, only those that did not pass, or none (what a verdict needs: a result waiting
    #: to be read then holds no output of the sample's).
    kept: Kept = Kept.ALL
    #: Run ``code`` as a program (``__main__``), one fresh child per input: each input is
    #: the text given on its stdin (a regular file), each output the text it wrote on
    #: stdout, at most ``max_output_bytes`` (default :data:`PROGRAM_OUTPUT_BYTES`: more is
    #: an ERROR of :attr:`Fault.TOO_LARGE`). ``entry_point`` is not used.
    program: bool = False


#: The oracle (:attr:`Job.oracle`) of tasks whose reference's output only matters as
#: "not None" (it returns a ``re.Match``): the sandbox's child sends
#: ``output if type(output) is bool else output is not None`` in place of the output.
NOT_NONE = "not_none"
#: The special oracles a task may name (:data:`evalplus_ng.judge.SPECIAL_ORACLES`
#: implements each); "" is equality (the task's :attr:`Task.equality`).
ORACLES = ("", "polynomial_root", "set", NOT_NONE)


#: The error type reported when a ``twice`` job's second call disagrees with its first.
UNSTABLE = "Unstable"


#: The error type reported when a call exceeds ``Job.max_lines``.
COST_EXCEEDED = "CostExceeded"

#: The error type reported when an output's text is longer than ``Job.max_output_bytes``.
OUTPUT_TOO_LARGE = "OutputTooLarge"

#: What a program (:attr:`Job.program`) may write on stdout when its job sets no
#: ``max_output_bytes``; 40 times the longest expected output of CodeContests' 10,333
#: tests (200 KB). Its bytes travel as they are, within a frame
#: (:attr:`evalplus_ng.sandbox.protocol.Limits.output_bytes`).
PROGRAM_OUTPUT_BYTES = 8 << 20


#: Faults of inputs a job never ran.
UNRUN = frozenset({Fault.NOT_LOADED, Fault.NOT_RUN})


def unrun_fault(result: JobResult) -> Fault:
    """Why a job left an input unrun: its code did not load, or it stopped first."""
    return Fault.NOT_RUN if result.load.status is Status.OK else Fault.NOT_LOADED


#: Faults of calls that cost too much (:func:`too_costly`).
_COSTLY = frozenset({Fault.COST, Fault.NOT_EXAMINED})


def too_costly(outcome: Outcome) -> bool:
    """The call timed out or ran out of its line budget (what ``max_timeouts`` counts), or
    was left unrun as one more such call."""
    return outcome.status is Status.TIMEOUT or outcome.fault in _COSTLY


@dataclass(frozen=True)
class JobResult:
    """``load`` says whether the code loaded; ``outcomes`` has one entry per input run.

    ``passed`` is filled when the job had expected outputs. Inputs after a
    fail-fast stop are absent from both.
    """

    load: Outcome
    outcomes: tuple[Outcome, ...]
    passed: tuple[bool, ...] = field(default=())

    @property
    def all_passed(self) -> bool:
        """True when the code loaded and every input ran and passed."""
        return (
            self.load.status is Status.OK
            and len(self.passed) == len(self.outcomes)
            and all(self.passed)
        )


@dataclass(frozen=True)
class Calibration:
    """A suite's calibrated time limits for one task (see :mod:`evalplus_ng.oracle.timelimits`).

    ``units`` holds, per input (base then plus), the ground truth's time in
    units of a reference workload, so that the limit in seconds,
    ``max(floor_seconds, factor x units x t_ref)``, follows the speed of the
    machine that measures ``t_ref``. ``reference_seconds`` is ``t_ref`` where the
    suite was calibrated; None means ``units`` are plain seconds (a legacy suite).
    """

    units: tuple[float, ...]
    floor_seconds: float
    factor: float
    reference: str
    reference_seconds: float | None


@dataclass(frozen=True)
class Task:
    """One benchmark task; ``solution`` is full source defining ``entry_point``.

    ``base_inputs`` and ``plus_inputs`` hold positional-argument lists.
    """

    task_id: TaskId
    prompt: str
    entry_point: str
    solution: str
    base_inputs: tuple[Args, ...]
    plus_inputs: tuple[Args, ...] = ()
    atol: float = 0.0
    contract: str = ""
    canonical_solution: str = ""
    test: str = ""
    #: Calibrated per-input time limits; None means "from the ground truth's measured time".
    calibration: Calibration | None = None
    #: The dataset's own reference (full source) when ``solution`` is a fixed ground
    #: truth; empty when ``solution`` is that reference.
    original_solution: str = ""
    #: The special oracle that judges outputs (:data:`evalplus_ng.judge.SPECIAL_ORACLES`),
    #: "" for equality: data of the dataset, kept in the suite file.
    oracle: str = ""
    #: How outputs compare (:data:`EQUALITIES`): :data:`TYPED` or :data:`VALUE`; data of
    #: the dataset (``equality`` in its ``dataset.json``), kept in the suite file.
    equality: str = TYPED

    @property
    def original(self) -> str:
        """The dataset's own reference solution (full source)."""
        return self.original_solution or self.solution

    @property
    def number(self) -> int:
        """The numeric part of ``HumanEval/N`` style ids, for natural ordering."""
        tail = self.task_id.rsplit("/", 1)[-1]
        return int(tail) if tail.isdigit() else 0


#: Why a sample fails without running (:attr:`Sample.refused`), as results files name it:
#: its answer is over :data:`evalplus_ng.tasks.samples.MAX_SOURCE_BYTES`, or sanitizing it
#: exceeded :data:`evalplus_ng.tasks.samples.PREPARE_LIMITS`.
TOO_LARGE, SANITIZE_LIMIT = "source too large", "sanitize limit"
REFUSALS = (TOO_LARGE, SANITIZE_LIMIT)


@dataclass(frozen=True)
class Sample:
    """One candidate solution read from a samples file (line numbers are 1-based)."""

    task_id: TaskId
    code: str
    line: int
    #: Why the sample fails without running, when it does (:data:`REFUSALS`); ``code``
    #: is then the answer as written (its first characters, when too large).
    refused: str = ""


#: Where a program test comes from (:attr:`ProgramTest.origin`): the dataset (""), or
#: ``augment``'s correctness tier (``plus``) or efficiency tier (``stress``).
DATASET_ORIGIN, PLUS_ORIGIN, STRESS_ORIGIN = "", "plus", "stress"
PROGRAM_ORIGINS = (DATASET_ORIGIN, PLUS_ORIGIN, STRESS_ORIGIN)


@dataclass(frozen=True)
class ProgramTest:
    """One test of a program task: the text given on stdin, the text expected on stdout,
    whether the statement shows it (``public``: a base test), where it comes from
    (``origin``, :data:`PROGRAM_ORIGINS`: the dataset's own tests have none; a test
    ``augment`` made is never public) and its own time limit, if it has one."""

    input: str
    output: str
    public: bool = False
    origin: str = DATASET_ORIGIN
    #: Seconds a program may take on this test, calibrated from the reference's own runs
    #: (:mod:`evalplus_ng.oracle.programs.timelimits`); None: the task's limit, else the caller's.
    time_limit: float | None = None


@dataclass(frozen=True)
class ProgramTask:
    """One task whose solution is a whole program reading stdin and writing stdout
    (CodeContests, APPS, LiveCodeBench): a record apart from :class:`Task`, whose
    entry point, argument lists and contracts mean nothing here.

    ``solution`` is the reference program; ``tests`` hold the public (base) tests first
    where the dataset lists them so, then the hidden ones. ``flags`` are the dataset's
    hints, kept as data (``multiple_answers_suspected``: other right programs may print
    other answers; ``float_output_suspected``); they change no comparison: ``equality``
    and ``atol`` do, and ``checker``, a program that accepts other answers
    (:mod:`evalplus_ng.checker`).
    """

    task_id: TaskId
    prompt: str
    solution: str
    tests: tuple[ProgramTest, ...]
    #: How outputs compare (:data:`PROGRAM_EQUALITIES`).
    equality: str = LINES
    #: Numbers compare within this absolute or relative error (``tokens`` only); 0: exactly.
    atol: float = 0.0
    #: Seconds a test may take (None: the caller's default).
    time_limit: float | None = None
    flags: frozenset[str] = frozenset()
    name: str = ""
    #: Python source of the task's checker program, "" for none: an output that differs
    #: from the expected one still passes when the checker accepts it
    #: (:mod:`evalplus_ng.checker`).
    checker: str = ""

    @property
    def base_tests(self) -> tuple[ProgramTest, ...]:
        """The public tests: those the statement shows."""
        return tuple(test for test in self.tests if test.public)
