"""Hunt for defects in a benchmark's reference solutions.

Signals, each giving at most one finding per task (its first witness, shrunk; a
performance finding without a fixed ground truth is not, see :func:`unsettled_performance`):

* ``differential``: the original reference and our fixed ground truth disagree;
* ``raises``: the original raises (or crashes) on a valid input;
* ``performance``: the original executes more than ``perf_lines`` line units (lines
  plus priced C-level work) on a valid input on which the fixed ground truth needs at
  most ``fast_lines`` (not seconds, so the verdict is the same on every machine);
* ``docstring``: the original disagrees with an example written in its own docstring;
* ``samples`` (the jury, :mod:`evalplus_ng.oracle.jury`): base-passing LLM samples of at least
  two model families agree with each other and disagree with the ground truth on plus
  inputs; those inputs are held out of the plus suite until a review settles them.

A finding is ``confirmed`` when the task's fixed ground truth (``datasets/<name>/fixed``)
settles it the same way, ``dismissed`` when a review entry explains why it is no
defect, and ``unreviewed`` otherwise. References and fixed ground truths are
trusted dataset code, but they still run in the sandbox, which bounds their time.
"""

from __future__ import annotations

import ast
import enum
import functools
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from evalplus_ng import judge
from evalplus_ng.generate import shrink
from evalplus_ng.generate.contract import Contract
from evalplus_ng.generate.corpus import balanced_call
from evalplus_ng.jobs import task_job
from evalplus_ng.protocols import Executor
from evalplus_ng.records import (
    COST_EXCEEDED,
    Fault,
    Job,
    JobResult,
    Outcome,
    Status,
    Task,
    too_costly,
    unrun_fault,
)
from evalplus_ng.serialize import Unserializable, canonical, decode, dumps, encode, plain_json
from evalplus_ng.tasks.sources import FixedSolution
from evalplus_ng.types import Args, TaskId, Wire


class Signal(enum.StrEnum):
    """What a finding rests on (its text is the ``signal`` of ``audit.json`` and the key of
    a review entry)."""

    DIFFERENTIAL = "differential"
    RAISES = "raises"
    PERFORMANCE = "performance"
    DOCSTRING = "docstring"
    #: A jury lead: the samples' majority suspects the ground truth.
    SAMPLES = "samples"
    #: The samples' majority outvotes the ground truth on most of a task's inputs checked:
    #: the samples are suspect, not the ground truth, and nothing is held.
    SUSPECT_SAMPLES = "suspect-samples"


DIFFERENTIAL, RAISES, PERFORMANCE, DOCSTRING, SAMPLES, SUSPECT_SAMPLES = Signal
#: The jury's signals.
JURY = (SAMPLES, SUSPECT_SAMPLES)
CONFIRMED, DISMISSED, UNREVIEWED = "confirmed", "dismissed", "unreviewed"
#: The share of a task's checked inputs the jury may hold out of its suite without review.
#: Of the 19 fixed ground truths of HumanEval and MBPP+ whose original
#: answers some input of the suite otherwise, 10 disagree with it on at most 10% of the
#: inputs (0.1-9.5%), 8 on 20-48% and one on 60%: a wrong reference often spans more,
#: and then its lead waits for a review rather than emptying the task.
HELD_SHARE = 0.1
#: Characters of a value's text a finding shows (a longer one is cut, saying so).
SHOWN_CHARS = 2000
#: Integers tried in place of each integer argument when probing performance:
#: powers of ten and the largest primes below them (primes defeat early exits).
PROBE_INTS = (100, 97, 1000, 997, 10**4, 9973, 10**5, 99991, 10**6, 999983)


@dataclass(frozen=True)
class AuditConfig:
    """Budgets of the audit; lines are Python line events counted by the sandbox."""

    seconds: float = 10.0
    perf_lines: int = 1_000_000
    fast_lines: int = 10_000
    #: Candidate inputs run per task (base and docstring inputs first, then plus).
    max_inputs: int = 2000
    #: After this many candidates over ``perf_lines`` (in order), later candidates are
    #: examined only within ``thrift_lines`` (see :class:`Thrift`): a slow reference
    #: would otherwise cost a full budget on every one of them.
    costly_inputs: int = 10
    thrift_lines: int = 10_000
    #: Plus inputs each base-passing sample runs on for the jury (all of MBPP+'s).
    sample_inputs: int = 2000
    sample_seconds: float = 0.5
    #: A sample's jury run stops after this many inputs over its time limit (a looping
    #: sample would otherwise cost a limit on every input).
    sample_timeouts: int = 2
    #: Agreeing samples needed, from at least two families, and at least half of
    #: the base-passing samples that answered (see :func:`evalplus_ng.oracle.jury.majority`).
    consensus: int = 3
    #: The share of a task's checked plus inputs the jury may hold out of the suite
    #: without review (:func:`evalplus_ng.oracle.jury.extent`).
    held_share: float = HELD_SHARE
    shrink_checks: int = 600
    #: Lines the original (and the fixed ground truth) may run on each candidate while a
    #: differential or raises witness shrinks (a candidate beyond them does not hold): a
    #: witness is for reading, and candidates at the full ``perf_lines`` budget made one
    #: task's shrink take minutes (Mbpp/589 walks every integer of a range its shrunk
    #: bounds make huge).
    shrink_lines: int = 50_000
    #: Seconds each candidate of a differential or raises shrink may run (one that runs
    #: out of time does not hold): within ``shrink_lines`` only C-level work takes that
    #: long, and at the full ``seconds`` a pattern that backtracks without end (Mbpp/773
    #: searches a substring as a regular expression) cost 10 s a candidate, minutes a task.
    shrink_seconds: float = 1.0
    #: Candidates a performance witness's shrink may check: each one that holds, and each
    #: one just under the budget, costs the original nearly a full ``perf_lines``.
    perf_shrink_checks: int = 200


@dataclass(frozen=True)
class Finding:
    """One defect signal on one task; ``expected``/``actual`` are plain values or notes."""

    task_id: TaskId
    category: str
    signal: Signal
    witness: Args
    expected: Any
    actual: Any
    explanation: str
    #: The task's fixed ground truth agrees with ``expected`` (or, for performance,
    #: answers within ``fast_lines``): it settles the finding as a defect.
    settled: bool = False
    status: str = UNREVIEWED
    review: str = ""
    #: A jury finding's majority: (family, agreeing samples) pairs, by family name.
    families: tuple[tuple[str, int], ...] = ()
    #: A jury lead's plus inputs (unshrunk) on which the majority contradicts the ground
    #: truth: kept out of the plus suite while the lead awaits review (none where there
    #: are more than the jury may hold without review).
    held: tuple[Args, ...] = ()
    #: A jury finding's disputed plus inputs, of the ``checked`` ones (those the ground
    #: truth answered).
    disputed: int = 0
    checked: int = 0
    #: A model's second opinion on the shrunk lead (:mod:`evalplus_ng.oracle.opinion`).
    opinion: str = ""


@dataclass(frozen=True)
class SampleCode:
    """A base-passing LLM sample, the model that wrote it (for reports) and its family (its
    samples file's, or the one the user declared for it: the jury counts families)."""

    code: str
    model: str
    family: str


# ---------------------------------------------------------------- docstring examples

_ARROWS = ("==", "=>", "➞", "->", "→", "should return", "returns", "=")


def _literal(text: str) -> tuple[bool, Any]:
    text = text.strip()
    for candidate in ([text[:-1]] if text.endswith(".") else []) + [text]:
        try:
            return True, ast.literal_eval(candidate.strip())
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
    return False, None


def docstring_cases(prompt: str, entry_point: str) -> list[tuple[Args, Any]]:
    """(arguments, expected output) of literal examples in the prompt's docstring.

    Recognised: ``>>> f(x)`` with the output on the next line, and ``f(x) == y``,
    ``f(x) => y``, ``f(x) ➞ y``, ``f(x) -> y``, ``f(x) should return y``, ``f(x) = y``.
    """
    from evalplus_ng.generate import seed  # imports Hypothesis: only when auditing

    cases: list[tuple[Args, Any]] = []
    needle = entry_point + "("
    position = prompt.find(needle)
    while position != -1:
        preceding = prompt[position - 1] if position else " "
        call = None
        if not preceding.isidentifier() and preceding != "." \
                and not prompt[:position].rstrip().endswith("def"):
            call = balanced_call(prompt, position)  # shared with the seed extractor
        args = seed._literal_args(call, entry_point) if call is not None else None
        if call is not None and args is not None:
            end = position + len(call)
            rest = prompt[end:prompt.find("\n", end) if "\n" in prompt[end:] else len(prompt)]
            found = _expected_after(rest, prompt, end, prompt[:position])
            if found is not None:
                cases.append((args, found[0]))
        position = prompt.find(needle, position + 1)
    return cases


def _expected_after(rest: str, prompt: str, end: int, before: str) -> tuple[Any] | None:
    stripped = rest.strip()
    if not stripped and before.rstrip(" ").endswith(">>>"):
        following = prompt[end:].split("\n")[1:2]
        if following and following[0].strip() and not following[0].strip().startswith(">>>"):
            ok, value = _literal(following[0])
            return (value,) if ok else None
        return None
    for arrow in _ARROWS:
        if stripped.startswith(arrow):
            ok, value = _literal(stripped[len(arrow):])
            return (value,) if ok else None
    return None


def _same(expected: Any, actual: Any, atol: float) -> bool:
    """Loose equality for docstring examples: 2 and 2.0 are the same number there."""
    tolerance = judge.effective_atol(expected, atol)
    return judge.equal(expected, actual, tolerance) or judge.equal(actual, expected, tolerance)


# ---------------------------------------------------------------- running code


@dataclass(frozen=True)
class Thrift:
    """Examine costly code cheaply: once ``costly`` inputs have exceeded the line budget
    (in input order), later inputs are examined only if they run within ``lines``;
    the others get an outcome marked :data:`NOT_EXAMINED` (still costly).

    With ``lines`` 0, no later input is examined: the run ends at the ``costly``-th input
    over the full budget (all a caller that wants the first such input needs).

    The rule depends on line counts only, so the outcomes are the same on every machine.
    """

    costly: int
    lines: int


#: In the error of an outcome a :class:`Thrift` left unexamined.
NOT_EXAMINED = "not examined"


def not_examined(lines: int) -> Outcome:
    """The outcome of an input :class:`Thrift` skipped: more than ``lines`` lines (with
    ``lines`` 0, an input after the last one the run needed)."""
    if not lines:
        return Outcome(Status.ERROR, error=f"{COST_EXCEEDED}: {NOT_EXAMINED} (after enough "
                                           "inputs over the full budget)",
                       fault=Fault.NOT_EXAMINED)
    return Outcome(Status.ERROR, error=f"{COST_EXCEEDED}: {NOT_EXAMINED} (more than {lines} "
                                       "lines, after enough inputs over the full budget)",
                   fault=Fault.NOT_EXAMINED)


class Judged(Protocol):
    """Runs untrusted ``code`` on every one of ``inputs`` (wire-encoded, the same list
    object for every sample of a task) and judges each output against ``expected``:
    one (outcome, passed) pair per input; the run stops after ``timeouts`` inputs over
    ``seconds`` (the inputs left get an ERROR and False)."""

    def __call__(self, code: str, inputs: Sequence[Wire], expected: Sequence[Wire],
                 seconds: float, timeouts: int) -> list[tuple[Outcome, bool]]: ...


def sandbox_judged(task: Task, executor: Executor) -> Judged:
    """:class:`Judged` in the sandbox; the parent judges, so the child never sees
    ``expected``."""

    def run(code: str, inputs: Sequence[Wire], expected: Sequence[Wire], seconds: float,
            timeouts: int) -> list[tuple[Outcome, bool]]:
        if not inputs:
            return []
        result = executor.run(task_job(task, code, seconds=seconds, wires=inputs,
                                       expected=expected, fail_fast=False,
                                       max_timeouts=timeouts))
        pairs = list(zip(result.outcomes, result.passed, strict=False))
        missing = Outcome(Status.ERROR, error=f"did not run: {result.load.error or 'stopped'}",
                          fault=unrun_fault(result))
        return pairs + [(missing, False)] * (len(inputs) - len(pairs))

    return run


class Runner(Protocol):
    """Runs ``code``'s entry point on inputs: one outcome per input.

    With ``expected``, runs stop after the first output that does not match
    (so fewer outcomes may come back); otherwise every input runs. ``thrift``
    (with ``max_lines``) applies :class:`Thrift`'s rule.
    """

    def __call__(self, code: str, inputs: Sequence[Args], max_lines: int | None,
                 seconds: float, expected: Sequence[Wire] | None = None,
                 thrift: Thrift | None = None) -> list[Outcome]: ...


def sandbox_runner(task: Task, executor: Executor) -> Runner:
    """Run ``code``'s entry point on inputs in the sandbox.

    With ``max_lines`` (and no ``expected``), every call counts its work from the start
    (executed lines plus the C-level work they hide, priced from the operands:
    :mod:`evalplus_ng.sandbox.linecount`), as the oracle does: an untraced first call cannot
    tell whether priced work went over the budget (a slice or ``x in list`` is priced by
    its length, not by its time), so its verdict would depend on the machine and its
    load. ``thrift`` then reduces the budget of later inputs (see :class:`Thrift`).
    """

    def job(inputs: Sequence[Args], code: str, max_lines: int | None, seconds: float,
            expected: Sequence[Wire] | None = None, stop: int | None = None) -> Job:
        return task_job(task, code, inputs, seconds, expected=expected, max_lines=max_lines,
                        max_timeouts=stop)

    def outcomes_of(result: JobResult, count: int, partial: bool = False) -> list[Outcome]:
        if partial:
            return list(result.outcomes)
        missing = Outcome(Status.ERROR, error=f"did not run: {result.load.error}",
                          fault=unrun_fault(result))
        return list(result.outcomes) + [missing] * (count - len(result.outcomes))

    def run(code: str, inputs: Sequence[Args], max_lines: int | None,
            seconds: float, expected: Sequence[Wire] | None = None,
            thrift: Thrift | None = None) -> list[Outcome]:
        if not inputs:
            return []
        if expected is not None:
            return outcomes_of(executor.run(job(inputs, code, max_lines, seconds, expected)),
                               len(inputs), partial=True)
        if max_lines is None or thrift is None:
            return outcomes_of(executor.run(job(inputs, code, max_lines, seconds)),
                               len(inputs))
        if thrift.lines > max_lines:
            raise ValueError("a thrift budget must not exceed the full one")
        pending: list[Outcome | None] = [None] * len(inputs)

        def counted(indices: Sequence[int], lines: int, stop: int | None = None) -> int:
            """Run ``indices`` within ``lines``; store their outcomes; return how many
            came back (fewer when ``stop`` cut the job short)."""
            if not indices:
                return 0
            result = executor.run(job([inputs[i] for i in indices], code, lines, seconds,
                                      stop=stop))
            got = outcomes_of(result, len(indices), partial=stop is not None)
            for index, outcome in zip(indices, got, strict=False):
                pending[index] = outcome
            return len(got)

        def over(index: int) -> bool:
            outcome = pending[index]
            return outcome is not None and too_costly(outcome)

        # Each job stops after as many inputs over the budget as are still allowed.
        costly: list[int] = []
        position = 0
        while position < len(inputs) and len(costly) < thrift.costly:
            end = position + counted(range(position, len(inputs)), max_lines,
                                     thrift.costly - len(costly))
            costly += [i for i in range(position, end) if over(i)]
            position = end if end > position else len(inputs)
        if len(costly) >= thrift.costly:
            # After the last input allowed over the full budget, only inputs within the
            # smaller one count (none when it is 0).
            later = range(costly[-1] + 1, len(inputs))
            if thrift.lines:
                counted(later, thrift.lines)
            for index in later:
                if not thrift.lines or pending[index] is None or over(index):
                    pending[index] = not_examined(thrift.lines)
        missing = Outcome(Status.ERROR, error="did not run", fault=Fault.NOT_RUN)
        return [o if o is not None else missing for o in pending]

    return run


def _over_budget(outcome: Outcome) -> bool:
    """Costly, and not merely left unexamined by a :class:`Thrift`."""
    return too_costly(outcome) and outcome.fault is not Fault.NOT_EXAMINED


def _raised(outcome: Outcome) -> bool:
    return outcome.status in (Status.ERROR, Status.CRASH, Status.BAD_OUTPUT) \
        and not too_costly(outcome)


def _value(outcome: Outcome) -> Any:
    return decode(outcome.value)


def _plain(value: Any) -> Any:
    """A value as plain JSON, the way artifacts write inputs (tuples become lists); one that
    JSON cannot hold (not plain data, an int past ``repr``'s digits, nested past the
    recursion limit) becomes its text (:func:`text_of`)."""
    try:
        plain = plain_json(value)
        json.dumps(plain)
        return plain
    except (Unserializable, ValueError, RecursionError):
        return text_of(value)


def exact_text(value: Any) -> str:
    """``repr(value)``; never raises: an int past ``repr``'s digit limit is its ``hex``, any
    other value ``repr`` refuses its wire text (big ints in hex), else a note."""
    try:
        return repr(value)
    except (ValueError, RecursionError):
        pass
    if type(value) is int:
        return hex(value)
    try:
        return dumps(encode(value))
    except (Unserializable, ValueError, RecursionError):
        return f"<a {type(value).__name__} too large or too deep to show>"


def text_of(value: Any, limit: int = SHOWN_CHARS) -> str:
    """:func:`exact_text`, cut to ``limit`` characters (saying how many more there were)."""
    return _cut(exact_text(value), limit)


def _cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit} more characters)"


def shown(value: Any, limit: int = SHOWN_CHARS) -> Any:
    """``value`` as a finding holds it: plain JSON (:func:`_plain`) where its text fits in
    ``limit`` characters, else that text cut; never raises."""
    text = exact_text(value)
    return _plain(value) if len(text) <= limit else _cut(text, limit)


def decoded(wire: Wire) -> Any:
    """``decode(wire)``, or a note where it does not decode (nested too deep, hashed
    members that collide); never raises."""
    try:
        return decode(wire)
    except (ValueError, RecursionError) as exc:
        return f"<an answer that does not decode: {type(exc).__name__}>"


def answer_of(wire: Wire, limit: int = SHOWN_CHARS) -> Any:
    """A wire answer as a finding shows it: :func:`shown` of :func:`decoded`."""
    return shown(decoded(wire), limit)


def call_text(entry_point: str, args: Args) -> str:
    """``f(1, 'a')``: how a witness reads in a report (:func:`exact_text` of each argument)."""
    return f"{entry_point}({', '.join(exact_text(a) for a in args)})"


# ---------------------------------------------------------------- signals


@dataclass(frozen=True)
class TaskAudit:
    """What one task's audit needs: the task, its contract, inputs and helpers."""

    task: Task
    contract: Contract
    inputs: tuple[Args, ...]
    run: Runner
    config: AuditConfig
    fixed: FixedSolution | None = None
    samples: tuple[SampleCode, ...] = ()
    #: Signals a review already dismissed on this task: reported, but not shrunk.
    dismissed: frozenset[str] = frozenset()
    #: The candidates from this index on come from a suite whose oracle ran the task's
    #: ground truth on each and kept it only when answered, stably, within at most
    #: ``config.perf_lines`` lines (the suite ``augment`` just made). Where the original
    #: is that ground truth (no fixed one), their outcomes are known: see :func:`originals`.
    answered_from: int | None = None
    #: The plus suite's inputs, which the jury checks (:mod:`evalplus_ng.oracle.jury`).
    plus: tuple[Args, ...] = ()
    #: Runs samples for the jury; None: no jury.
    judged: Judged | None = None

    @property
    def fixed_code(self) -> str | None:
        return self.task.solution if self.fixed is not None else None

    def original(self, inputs: Sequence[Args], max_lines: int | None = None,
                 thrift: Thrift | None = None, seconds: float | None = None) -> list[Outcome]:
        """Outcomes of the dataset's own reference."""
        return self.run(self.task.original, inputs, max_lines or self.config.perf_lines,
                        seconds or self.config.seconds, thrift=thrift)

    def fixed_run(self, inputs: Sequence[Args], max_lines: int | None = None,
                  seconds: float | None = None) -> list[Outcome]:
        """Outcomes of the fixed ground truth; [] when the task has none."""
        if self.fixed_code is None:
            return []
        return self.run(self.fixed_code, inputs, max_lines or self.config.perf_lines,
                        seconds or self.config.seconds)

    def shrunk(self, signal: Signal, args: Args,
               holds: Callable[[Args, Outcome, Outcome | None], bool],
               lines: int | None = None, fixed_lines: int | None = None,
               thrift: Thrift | None = None, checks: int | None = None,
               seconds: float | None = None) -> Args:
        """``args`` shrunk while ``holds(candidate, original, fixed)`` stays true (the
        original runs each batch of candidates under ``thrift`` when given; each
        candidate within ``seconds``, by default the audit's)."""
        if signal in self.dismissed:
            return args

        def batch(candidates: Sequence[Args]) -> list[bool]:
            originals = self.original(candidates, lines, thrift=thrift, seconds=seconds)
            fixed: list[Outcome | None] = [None] * len(candidates)
            if self.fixed_code is not None:
                fixed = list(self.fixed_run(candidates, fixed_lines, seconds))
            return [holds(c, o, f) for c, o, f in zip(candidates, originals, fixed, strict=True)]

        return shrink.shrink(args, batch, self.contract.valid,
                             max_checks=checks or self.config.shrink_checks)


def _differs(audit: TaskAudit, original: Outcome, fixed: Outcome | None) -> bool:
    return (fixed is not None and original.status is Status.OK and fixed.status is Status.OK
            and not judge.equal(_value(fixed), _value(original),
                                 judge.effective_atol(_value(fixed), audit.task.atol)))


def differential_and_raises(audit: TaskAudit, originals: Sequence[Outcome]) -> list[Finding]:
    """Signals (a) and (b) over the candidate inputs (``originals``: the original's outcomes)."""
    inputs = list(audit.inputs)
    fixed: list[Outcome | None] = [None] * len(inputs)
    if audit.fixed_code is not None:
        fixed = list(audit.fixed_run(inputs))
    findings: list[Finding] = []
    entry = audit.task.entry_point
    first = next((i for i, (o, f) in enumerate(zip(originals, fixed, strict=True))
                  if _differs(audit, o, f)), None)
    if first is not None and audit.fixed is not None:
        witness = audit.shrunk(DIFFERENTIAL, inputs[first],
                               lambda _a, o, f: _differs(audit, o, f),
                               lines=audit.config.shrink_lines,
                               fixed_lines=audit.config.shrink_lines,
                               seconds=audit.config.shrink_seconds)
        [original], [answer] = audit.original([witness]), audit.fixed_run([witness])
        findings.append(Finding(
            audit.task.task_id, audit.fixed.category, DIFFERENTIAL, witness,
            _plain(_value(answer)), _plain(_value(original)),
            f"{call_text(entry, witness)}: the original returns {_value(original)!r}, "
            f"the fixed ground truth {_value(answer)!r}", settled=True))

    def fails(_args: Args, o: Outcome, f: Outcome | None) -> bool:
        return _raised(o) and (f is None or f.status is Status.OK)

    first = next((i for i, (o, f) in enumerate(zip(originals, fixed, strict=True))
                  if fails(inputs[i], o, f)), None)
    if first is not None:
        witness = audit.shrunk(RAISES, inputs[first], fails, lines=audit.config.shrink_lines,
                               fixed_lines=audit.config.shrink_lines,
                               seconds=audit.config.shrink_seconds)
        [original] = audit.original([witness])
        answers = audit.fixed_run([witness])
        settled = bool(answers) and answers[0].status is Status.OK
        expected = _plain(_value(answers[0])) if settled else "a return value"
        findings.append(Finding(
            audit.task.task_id, "edge-case", RAISES, witness, expected,
            f"{original.status.value}: {original.error}",
            f"{call_text(entry, witness)} is a valid input (it satisfies the contract) "
            f"but the original fails: {original.error}", settled=settled))
    return findings


#: Miller-Rabin with these bases is exact below 3.3 * 10**24 (probes stay below 10**12).
_PRIME_BASES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37)


def _is_prime(n: int) -> bool:
    """Exact for ``n`` below 3.3 * 10**24 (trial division up to the square root cost
    a tenth of a second near 10**12, for each of a task's first 50 candidates)."""
    if n < 2:
        return False
    for base in _PRIME_BASES:
        if n % base == 0:
            return n == base
    odd, twos = n - 1, 0
    while odd % 2 == 0:
        odd, twos = odd // 2, twos + 1
    for base in _PRIME_BASES:
        x = pow(base, odd, n)
        if x in (1, n - 1):
            continue
        for _ in range(twos - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


@functools.lru_cache(maxsize=256)
def _largest_prime(top: int) -> int | None:
    """The largest prime in (top - 10,000, top], if any."""
    return next((n for n in range(top, max(top - 10_000, 1), -1) if _is_prime(n)), None)


def largest_valid(args: Args, position: int, contract: Contract, ceiling: int = 10**12) -> int:
    """The largest value of integer argument ``position`` keeping ``args`` valid, up to
    ``ceiling`` (found by doubling then bisection, so it assumes an upper bound, not gaps)."""
    def valid(value: int) -> bool:
        return contract.valid([*args[:position], value, *args[position + 1:]])

    low: int = args[position]
    if not valid(low):
        return low
    high = max(1, low)
    while high < ceiling and valid(min(2 * high, ceiling)):
        high = min(2 * high, ceiling)
    if high >= ceiling:
        return ceiling
    top = 2 * high  # invalid
    while top - high > 1:
        middle = (high + top) // 2
        high, top = (middle, top) if valid(middle) else (high, middle)
    return high


def probes(args: Args, contract: Contract) -> list[Args]:
    """Valid variants of ``args`` with one integer argument set to a larger probe value:
    :data:`PROBE_INTS`, the largest valid value and the largest prime up to it."""
    found: list[Args] = []
    for position, value in enumerate(args):
        if type(value) is not int:
            continue
        top = largest_valid(args, position, contract)
        prime = _largest_prime(top) if top <= 10**12 else None
        values = [*PROBE_INTS, top, *([prime] if prime is not None else [])]
        for probe in values:
            candidate = [*args[:position], probe, *args[position + 1:]]
            if probe > value and contract.valid(candidate):
                found.append(candidate)
    return found


def performance(audit: TaskAudit, originals: Sequence[Outcome]) -> list[Finding]:
    """Signal (c): valid inputs on which the original runs far more lines than needed.

    Tried: the candidate inputs the original already found costly (``originals``
    are its outcomes on them), then probes built from the first 50 candidates.
    Without a fixed ground truth, see :func:`unsettled_performance`.
    """
    config = audit.config
    seen = {canonical(args) for args in audit.inputs}
    probed: list[Args] = []
    for args in audit.inputs[:50]:
        for probe in probes(args, audit.contract):
            key = canonical(probe)
            if key not in seen:
                seen.add(key)
                probed.append(probe)
    if audit.fixed_code is None:
        return unsettled_performance(audit, originals, probed)
    costly = [args for args, o in zip(audit.inputs, originals, strict=True)
              if _over_budget(o)]
    if probed:
        thrift = Thrift(config.costly_inputs, config.thrift_lines)
        costly += [args for args, o in zip(probed, audit.original(probed, thrift=thrift),
                                           strict=True)
                   if _over_budget(o)]
    if not costly:
        return []
    entry = audit.task.entry_point
    fast = audit.fixed_run(costly, config.fast_lines)
    for args, answer in zip(costly, fast, strict=True):
        if answer.status is not Status.OK:
            continue
        # Each candidate that holds costs the original a full budget: a batch stops at
        # the first (the one the shrinker takes), and those after it hold no verdict.
        witness = audit.shrunk(
            PERFORMANCE, args,
            lambda _a, o, f: too_costly(o) and o.fault is not Fault.NOT_EXAMINED
            and f is not None and f.status is Status.OK,
            fixed_lines=config.fast_lines, thrift=Thrift(costly=1, lines=0),
            checks=config.perf_shrink_checks)
        [answer] = audit.fixed_run([witness], config.fast_lines)
        return [Finding(
            audit.task.task_id, PERFORMANCE, PERFORMANCE, witness, _plain(_value(answer)),
            f"more than {config.perf_lines} lines executed",
            f"{call_text(entry, witness)} makes the original execute more than "
            f"{config.perf_lines} line units (lines plus priced C-level work); the fixed "
            f"ground truth answers "
            f"{_value(answer)!r} within {config.fast_lines}", settled=True)]
    return []


def unsettled_performance(audit: TaskAudit, originals: Sequence[Outcome],
                          probed: Sequence[Args]) -> list[Finding]:
    """The performance signal of a task without a fixed ground truth: a lead for a
    reviewer, never a confirmed defect.

    Nothing tells whether another implementation would answer cheaply (often the input
    is simply large: HumanEval/25 factorizes a number near 10**12), so the finding is the
    first costly input, as found: the first candidate over the budget (``originals`` are
    the original's outcomes on the candidates), else the first probe over it, the
    probes running only up to that one (so one time limit at most, for work the count
    misses). It is not shrunk: every check of a shrink runs the original to the full
    budget or to the time limit, and nothing would settle the smaller witness either.
    """
    config = audit.config
    found = next(((args, o) for args, o in zip(audit.inputs, originals, strict=True)
                  if _over_budget(o)), None)
    if found is None and probed:
        outcomes = audit.original(probed, thrift=Thrift(costly=1, lines=0))
        found = next(((args, o) for args, o in zip(probed, outcomes, strict=True)
                      if _over_budget(o)), None)
    if found is None:
        return []
    witness, outcome = found
    call = call_text(audit.task.entry_point, witness)
    if outcome.status is Status.TIMEOUT:  # work the line count does not see
        return [Finding(
            audit.task.task_id, PERFORMANCE, PERFORMANCE, witness,
            "a straightforward implementation's cost", "no answer within the time limit",
            f"{call} makes the original run out of time before {config.perf_lines} Python "
            "lines (work the line count does not see); no fixed ground truth to compare with")]
    return [Finding(
        audit.task.task_id, PERFORMANCE, PERFORMANCE, witness,
        "a straightforward implementation's cost", f"more than {config.perf_lines} lines",
        f"{call} makes the original execute more than "
        f"{config.perf_lines} line units (lines plus priced C-level work); no fixed ground "
        f"truth to compare with")]


def docstring(audit: TaskAudit) -> list[Finding]:
    """Signal (d): the original against the examples of its own docstring."""
    cases = [(args, out) for args, out in docstring_cases(audit.task.prompt,
                                                          audit.task.entry_point)]
    if not cases:
        return []
    outcomes = audit.original([args for args, _ in cases])
    for (args, expected), outcome in zip(cases, outcomes, strict=True):
        if outcome.status is Status.OK and _same(expected, _value(outcome), audit.task.atol):
            continue
        actual = _value(outcome) if outcome.status is Status.OK else \
            f"{outcome.status.value}: {outcome.error}"
        answers = audit.fixed_run([args])
        settled = bool(answers) and answers[0].status is Status.OK and _same(
            expected, _value(answers[0]), audit.task.atol)
        return [Finding(
            audit.task.task_id, "docstring-mismatch", DOCSTRING, args, _plain(expected),
            _plain(actual),
            f"the docstring says {call_text(audit.task.entry_point, args)} is "
            f"{expected!r}; the original gives {actual!r}", settled=settled)]
    return []


#: The outcome of a candidate :func:`originals` did not run again: the original, being the
#: ground truth, answered it within the line budget when the suite was made. Its output
#: is not needed: only a fixed ground truth (there is none) would be compared with it.
ANSWERED = Outcome(Status.OK)


def originals(audit: TaskAudit) -> list[Outcome]:
    """The original's outcomes on the candidate inputs (see :class:`Thrift`).

    The candidates :attr:`TaskAudit.answered_from` vouches for get :data:`ANSWERED` when
    the original is the ground truth that answered them: run again, they could show
    neither the raises nor the performance signal (the differential one needs a fixed
    ground truth), so the outcome is the same as running them, at none of the cost.
    """
    config = audit.config
    known = audit.answered_from
    if known is None or audit.task.original != audit.task.solution:
        known = len(audit.inputs)
    ran = audit.original(audit.inputs[:known],
                         thrift=Thrift(config.costly_inputs, config.thrift_lines))
    return [*ran, *[ANSWERED] * (len(audit.inputs) - known)]


def audit_task(audit: TaskAudit) -> list[Finding]:
    """Every signal's findings on one task but the jury's (:func:`evalplus_ng.oracle.jury.jury`),
    unreviewed."""
    outcomes = originals(audit)
    return [*differential_and_raises(audit, outcomes), *performance(audit, outcomes),
            *docstring(audit)]


# ---------------------------------------------------------------- review


def review(findings: Sequence[Finding], fixed: Mapping[TaskId, FixedSolution],
           dismissals: Mapping[TaskId, Mapping[str, str]]) -> list[Finding]:
    """Mark each finding confirmed (a fixed ground truth settles it), dismissed or unreviewed.

    ``dismissals[task_id][signal]`` holds a reviewer's reason why a signal's
    finding on a task is no defect (e.g. the docstring's example is the wrong one).
    """
    reviewed = []
    for finding in findings:
        note = dismissals.get(finding.task_id, {}).get(finding.signal)
        if note is not None:
            reviewed.append(replace(finding, status=DISMISSED, review=note))
        elif finding.task_id in fixed and finding.settled:
            entry = fixed[finding.task_id]
            reviewed.append(replace(finding, status=CONFIRMED,
                                    review=f"fixed in {entry.path.rsplit('/', 1)[-1]}: "
                                           f"{entry.reason}"))
        else:
            reviewed.append(finding)
    return reviewed


def held_inputs(findings: Sequence[Finding]) -> dict[TaskId, tuple[Args, ...]]:
    """The plus inputs each task's unreviewed jury lead holds out of the plus suite (a
    review that dismisses the lead, or a fixed ground truth that settles it, lets them
    back in)."""
    return {f.task_id: f.held for f in findings
            if f.signal == SAMPLES and f.status == UNREVIEWED and f.held}


def defective_tasks(findings: Sequence[Finding]) -> list[TaskId]:
    """Tasks with at least one confirmed finding, in task order."""
    ids = {f.task_id for f in findings if f.status == CONFIRMED}
    return sorted(ids, key=task_order)


def task_order(task_id: str) -> tuple[str, int, str]:
    """A sort key putting ``X/2`` before ``X/10``; ids without a number after their last
    ``/`` sort by their text."""
    prefix, _, number = task_id.rpartition("/")
    return (prefix, int(number), "") if number.isdigit() else (task_id, 0, task_id)


def finding_record(finding: Finding, entry_point: str) -> dict[str, Any]:
    """A finding as written to ``audit.json``; ``call`` spells the witness exactly."""
    return {
        "task_id": finding.task_id,
        "category": finding.category,
        "signal": finding.signal,
        "witness": _plain(finding.witness),
        "call": call_text(entry_point, finding.witness),
        "expected": _plain(finding.expected),
        "actual": _plain(finding.actual),
        "explanation": finding.explanation,
        "status": finding.status,
        "review": finding.review,
        **({"families": dict(finding.families), "held_inputs": len(finding.held),
            "disputed_inputs": finding.disputed, "checked_inputs": finding.checked}
           if finding.signal in JURY else {}),
        **({"second_opinion": finding.opinion} if finding.opinion else {}),
    }


def _wire(value: Any) -> Wire:
    try:
        return encode(value)
    except (Unserializable, RecursionError):
        return encode(text_of(value))


def finding_wire(finding: Finding) -> dict[str, Any]:
    """A finding before review, losslessly (tuples stay tuples), for the per-task store
    that lets an audit of some tasks keep the others' findings."""
    return {"task_id": finding.task_id, "category": finding.category,
            "signal": finding.signal, "witness": _wire(list(finding.witness)),
            "expected": _wire(finding.expected), "actual": _wire(finding.actual),
            "explanation": finding.explanation, "settled": finding.settled,
            "families": [list(pair) for pair in finding.families],
            "held": [_wire(list(args)) for args in finding.held], "opinion": finding.opinion,
            "disputed": finding.disputed, "checked": finding.checked}


def finding_from_wire(document: Mapping[str, Any]) -> Finding:
    """The inverse of :func:`finding_wire` (KeyError, TypeError or ValueError when the
    document is not one)."""
    return Finding(str(document["task_id"]), str(document["category"]),
                   Signal(document["signal"]), list(decode(document["witness"])),
                   decode(document["expected"]), decode(document["actual"]),
                   str(document["explanation"]), bool(document["settled"]),
                   families=tuple((str(f), int(n)) for f, n in document.get("families", [])),
                   held=tuple(list(decode(args)) for args in document.get("held", [])),
                   opinion=str(document.get("opinion", "")),
                   disputed=int(document.get("disputed", 0)),
                   checked=int(document.get("checked", 0)))


def markdown(findings: Sequence[Finding], entry_points: Mapping[TaskId, str],
             fixed: Mapping[TaskId, FixedSolution],
             invalid_witness: Mapping[TaskId, str] | None = None) -> str:
    """``audit.md``: defective references, findings awaiting review, dismissed ones, and
    fixed ground truths no signal confirmed (``invalid_witness``: why a fixed ground
    truth's recorded witness is not a valid input of its task, where it is not)."""
    defective = defective_tasks(findings)
    lines = ["# Reference-solution audit", "",
             f"{len(defective)} reference solution(s) found defective (confirmed by a fixed "
             "ground truth in datasets/); "
             f"{sum(f.status == UNREVIEWED for f in findings)} finding(s) await review; "
             f"{sum(f.status == DISMISSED for f in findings)} dismissed after review.", ""]
    if defective:
        lines += ["## Defective references", "",
                  "| task | category | witness | expected | original | signals | why |",
                  "|---|---|---|---|---|---|---|"]
        for task_id in defective:
            mine = [f for f in findings if f.task_id == task_id and f.status == CONFIRMED]
            lead = next((f for f in mine if f.signal != DOCSTRING), mine[0])
            category = fixed[task_id].category if task_id in fixed else lead.category
            reason = fixed[task_id].reason if task_id in fixed else ""
            witness = call_text(entry_points[task_id], lead.witness)
            lines.append(
                f"| {task_id} | {category} | `{_cell(witness)}` "
                f"| `{_cell(exact_text(lead.expected))}` | `{_cell(exact_text(lead.actual))}` "
                f"| {', '.join(f.signal for f in mine)} | {_cell(reason, limit=None)} |")
        lines.append("")
    leads = [f for f in findings if f.signal == SAMPLES and f.status != CONFIRMED]
    if leads:
        lines += ["## Jury leads", "",
                  "Base-passing samples of two families or more agree against the ground "
                  "truth; an unreviewed lead's inputs are held out of the plus suite, but "
                  "where they are more than the jury may hold without review.", "",
                  "| task | witness | ground truth | majority | families (samples) "
                  "| disputed | held | status | second opinion |",
                  "|---|---|---|---|---|---|---|---|---|"]
        for f in leads:
            lines.append(f"{_jury_row(f, entry_points)} {len(f.held)} | {f.status} "
                         f"| {_cell(f.opinion)} |")
        lines.append("")
    suspect = [f for f in findings if f.signal == SUSPECT_SAMPLES]
    if suspect:
        lines += ["## Suspect samples", "",
                  "Base-passing samples of two families or more outvote the ground truth on "
                  "more than half of the inputs checked: the samples are suspect, not the "
                  "ground truth, and every input stays in the plus suite.", "",
                  "| task | witness | ground truth | majority | families (samples) "
                  "| disputed | status |", "|---|---|---|---|---|---|---|"]
        lines += [f"{_jury_row(f, entry_points)} {f.status} |" for f in suspect]
        lines.append("")
    for status, title in ((UNREVIEWED, "Awaiting review"), (DISMISSED, "Dismissed after review")):
        chosen = [f for f in findings if f.status == status]
        if chosen:
            lines += [f"## {title}", ""]
            for f in chosen:
                note = f" Review: {f.review}" if f.review else ""
                lines.append(f"- {f.task_id} ({f.signal}, {f.category}): "
                             f"{_cell(f.explanation)}.{_cell(note)}")
            lines.append("")
    unconfirmed = sorted(set(fixed) - set(defective), key=task_order)
    if unconfirmed:
        lines += ["## Fixed ground truths no signal confirmed", ""]
        for task_id in unconfirmed:
            repair = fixed[task_id]
            witness = call_text(entry_points.get(task_id, "f"), repair.witness)
            why = (invalid_witness or {}).get(task_id)
            lines.append(
                f"- {task_id} ({repair.category}): its witness `{_cell(witness)}` "
                + (f"is not a valid input ({_cell(why)}): the suite holds no input of that "
                   "kind, so the defect cannot decide a verdict; the fixed ground truth "
                   "stays." if why else "is valid, but no input of the suite shows the "
                   "defect.")
                + f" Reason: {_cell(repair.reason, limit=None)}")
        lines.append("")
    return "\n".join(lines)


def _jury_row(f: Finding, entry_points: Mapping[TaskId, str]) -> str:
    """A jury finding's row up to its disputed inputs (and the bar after them)."""
    witness = call_text(entry_points[f.task_id], f.witness)
    families = ", ".join(f"{name} ({count})" for name, count in f.families)
    return (f"| {f.task_id} | `{_cell(witness)}` | `{_cell(exact_text(f.actual))}` "
            f"| `{_cell(exact_text(f.expected))}` | {_cell(families)} "
            f"| {f.disputed} of {f.checked} |")


def _cell(text: str, limit: int | None = 160) -> str:
    flat = re.sub(r"[\n\r\t]+", " ", text)  # reprs keep their spaces: "  " is not " "
    if limit is not None and len(flat) > limit:
        flat = flat[:limit - 3] + "..."
    return flat.replace("|", "\\|").replace("`", "'")
