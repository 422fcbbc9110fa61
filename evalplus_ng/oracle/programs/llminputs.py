"""What a task's LLM-written generator and validator (:mod:`evalplus_ng.generate.programs.llmseed`)
made of their runs in the sandbox: the inputs the generator printed, why the others gave
none, and which inputs the validator accepts, after it has accepted every public input.

A generator runs each of its lines twice, in fresh processes: an input is kept only when
both runs ended normally and printed the same text, so a generator that draws from
anything but its seed (a clock, ``random`` unseeded) gives nothing rather than inputs that
differ from one run to the next. A validator accepts as a checker does
(:func:`evalplus_ng.checker.said`): ending normally with ``ok`` as its first token.

Pure functions on the sandbox's results; the pipeline makes and runs the jobs
(:mod:`evalplus_ng.pipeline.programs.augment`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from evalplus_ng.checker import Said, message, said
from evalplus_ng.oracle.programs.answers import drop_reason
from evalplus_ng.records import JobResult, Outcome, Status
from evalplus_ng.textjudge import accepts

#: Why a generator's line gave no input, besides the reference's reasons
#: (:class:`~evalplus_ng.oracle.programs.answers.Drop`: timeout, runtime_error, output_limit,
#: bad_output, not_run): its two runs printed different texts, or only whitespace.
UNSTABLE, EMPTY = "unstable", "empty"
#: Characters kept of a refusal's message.
SHOWN_CHARS = 200


@dataclass(frozen=True)
class Generated:
    """What a generator printed for each of its lines (None: no input) and why the
    others gave none (counts by reason), with its load error if it did not load."""

    texts: tuple[str | None, ...]
    failures: dict[str, int] = field(default_factory=dict)
    load_error: str = ""


def _why_not(first: Outcome | None, second: Outcome | None) -> str | None:
    """Why a line's two runs give no input (None: they agree on a text)."""
    for outcome in (first, second):
        if outcome is None:
            return "not_run"
        reason = drop_reason(outcome)
        if reason is not None:
            return reason.value
    assert first is not None and second is not None
    if not isinstance(first.value, str) or not isinstance(second.value, str):
        return "bad_output"
    if first.value != second.value:
        return UNSTABLE
    if not first.value.strip():
        return EMPTY
    try:
        first.value.encode("utf-8")
    except UnicodeEncodeError:  # undecodable bytes, kept as lone surrogates
        return "bad_output"
    return None


def read_generated(count: int, groups: Sequence[Sequence[int]],
                   results: Sequence[JobResult]) -> Generated:
    """The inputs of a generator's ``count`` lines from its jobs: ``results[j]`` ran the
    lines at ``groups[j]``, each twice in a row (fewer outcomes where the job stopped)."""
    texts: list[str | None] = [None] * count
    failures: Counter[str] = Counter()
    load_error = ""
    for places, result in zip(groups, results, strict=True):
        if result.load.status is not Status.OK and not load_error:
            load_error = (result.load.error or result.load.status.value)[:SHOWN_CHARS]
        outcomes = result.outcomes
        for position, place in enumerate(places):
            runs = [outcomes[k] if k < len(outcomes) else None
                    for k in (2 * position, 2 * position + 1)]
            why = _why_not(*runs)
            if why is not None:
                failures[why] += 1
                continue
            value = runs[0].value if runs[0] is not None else None
            texts[place] = value if isinstance(value, str) else None
    return Generated(tuple(texts), dict(sorted(failures.items())), load_error)


@dataclass(frozen=True)
class Validated:
    """What a validator said: why its pair is refused ("" where it is not: it accepted
    every public input), the candidates it accepted (in order), and how many it rejected
    or failed on (an error, a timeout, not run)."""

    refusal: str
    accepted: tuple[str, ...] = ()
    rejected: int = 0
    failed: int = 0


def read_validated(publics: int, candidates: Sequence[str], result: JobResult) -> Validated:
    """A validator's verdicts from its job over the task's ``publics`` public inputs, then
    ``candidates``: refused unless it accepts every public input (then nothing is kept)."""
    if result.load.status is not Status.OK:
        return Validated(f"its validator did not load: {result.load.error or ''}"
                         [:SHOWN_CHARS])
    if publics == 0:
        return Validated("no public input to try its validator on")
    outcomes = result.outcomes
    for place in range(publics):
        if place >= len(outcomes):
            return Validated(f"its validator did not judge public input {place}")
        outcome = outcomes[place]
        verdict = said(outcome, accepts(outcome.value) if outcome.status is Status.OK
                       else False)
        if verdict is Said.REJECT:
            return Validated(f"its validator rejects public input {place}: "
                             f"{message(outcome)!r}"[:SHOWN_CHARS])
        if verdict is Said.ERROR:
            return Validated(f"its validator failed on public input {place}: "
                             f"{message(outcome)}"[:SHOWN_CHARS])
    accepted: list[str] = []
    rejected = failed = 0
    for position, text in enumerate(candidates):
        if publics + position >= len(outcomes):  # the job stopped first
            failed += 1
            continue
        ran = outcomes[publics + position]
        verdict = said(ran, accepts(ran.value) if ran.status is Status.OK else False)
        if verdict is Said.ACCEPT:
            accepted.append(text)
        elif verdict is Said.REJECT:
            rejected += 1
        else:
            failed += 1
    return Validated("", tuple(accepted), rejected, failed)
