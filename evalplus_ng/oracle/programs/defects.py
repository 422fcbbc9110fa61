"""The audit of program tasks (stdin/stdout): where an augmented suite's expected outputs
may be wrong.

``augment`` trusts the reference's stdout on every new input (tests of origin ``plus``
and ``stress``). A reference can be wrong on inputs its dataset's tests never tried, and an
inferred input plan can admit inputs the statement forbids; either makes a new test kill
right programs. Two signals, as for functions (:mod:`evalplus_ng.oracle.defects`):

* ``samples`` (the jury, :mod:`evalplus_ng.oracle.jury`'s rule): samples that pass their
  task's public tests run on its new tests; on a test where samples of at least two
  families print the *same* output (the task's own equality and tolerance:
  :mod:`evalplus_ng.textjudge`) and it is not the expected one, the test is *disputed*.
  A task with disputed tests is a lead; its disputed tests are held out of the suite until
  a review settles it, where they are at most the share the jury may hold without review
  (:func:`evalplus_ng.oracle.jury.extent`); a task disputed on most of its new tests is
  ``suspect-samples`` instead, and holds nothing. Tasks with a checker program are not
  judged so: the checker accepts other answers than the reference's, so samples agreeing
  on another one are no evidence against it.
* ``raises``: ``augment`` found the reference raising on an input its plan admits and kept
  no new test of that task (``refuted`` in its ``stats.json``): reported here too.

Pure functions on plain data; :mod:`evalplus_ng.pipeline.programs.audit` runs the samples.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from evalplus_ng.oracle.defects import (
    DISMISSED,
    HELD_SHARE,
    JURY,
    RAISES,
    SAMPLES,
    SUSPECT_SAMPLES,
    UNREVIEWED,
    Signal,
)
from evalplus_ng.oracle.jury import Extent, Vote, extent, majority
from evalplus_ng.records import (
    PLUS_ORIGIN,
    STRESS_ORIGIN,
    Fault,
    Outcome,
    ProgramTask,
    ProgramTest,
    Status,
)
from evalplus_ng.textjudge import same_output
from evalplus_ng.types import TaskId

#: The origins of the tests the jury checks: those ``augment`` made.
AUDITED_ORIGINS = (PLUS_ORIGIN, STRESS_ORIGIN)
#: A test as the hold-out knows it: its origin and its input.
TestKey = tuple[str, str]
#: The outcome of a test a sample's job never reached (it stopped after its timeouts).
NOT_REACHED = Outcome(Status.ERROR, error="not run: the job stopped first", fault=Fault.NOT_RUN)


@dataclass(frozen=True)
class ProgramAuditConfig:
    """How the program jury runs and votes."""

    #: Agreeing samples needed (from at least two families, at least half of those that
    #: answered, more than any other answer, the expected one's included): two, as
    #: CodeContests' rewrites are a few per task.
    consensus: int = 2
    #: Seconds a test may take where neither it nor its task names a limit (``evaluate``'s).
    time_limit: float = 10.0
    #: A sample's job on the new tests stops after this many timeouts.
    max_timeouts: int = 2
    #: Disputed tests shown per lead in ``audit.json`` (shortest first).
    examples: int = 5
    #: Characters of a text shown in ``audit.json``; a longer one is cut and says so.
    shown_chars: int = 2000
    #: The share of a task's new tests the jury may hold out of the suite without review.
    held_share: float = HELD_SHARE

    def __post_init__(self) -> None:
        if self.consensus < 2 or self.time_limit <= 0 or self.max_timeouts < 1:
            raise ValueError("consensus must be at least 2, time_limit above 0 and "
                             "max_timeouts at least 1")


@dataclass(frozen=True)
class ProgramSample:
    """A sample's program for a task, the model that wrote it (for reports) and its family
    (its samples file's, or the one the user declared for it)."""

    task_id: TaskId
    code: str
    model: str
    family: str


@dataclass(frozen=True)
class Dispute:
    """A new test on which a majority of the samples prints another output than the
    expected one: the test, the majority's output and its (family, samples) pairs."""

    test: ProgramTest
    answer: str
    families: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class ProgramFinding:
    """One signal on one task: ``witness`` is an input (the shortest disputed one for the
    jury), ``expected`` the suite's output there (the reference's), ``actual`` the
    samples' (or, for ``raises``, what the reference did)."""

    task_id: TaskId
    signal: Signal
    witness: str
    expected: str
    actual: str
    explanation: str
    #: A jury lead's majority on its witness: (family, agreeing samples), by family name.
    families: tuple[tuple[str, int], ...] = ()
    #: A jury finding's disputed tests, shortest input first: held out of the suite while
    #: the lead awaits review, where ``extent`` says so.
    disputes: tuple[Dispute, ...] = ()
    status: str = UNREVIEWED
    review: str = ""
    #: The new tests the jury checked, and what it does with the disputed ones.
    checked: int = 0
    extent: Extent = Extent.HELD

    @property
    def held(self) -> tuple[TestKey, ...]:
        """The keys of the tests this finding holds out while unreviewed."""
        if self.extent is not Extent.HELD:
            return ()
        return tuple(test_key(d.test) for d in self.disputes)


def test_key(test: ProgramTest) -> TestKey:
    """How the hold-out finds a test again in a tasks file: its origin and input."""
    return (test.origin, test.input)


def audited_tests(task: ProgramTask) -> tuple[ProgramTest, ...]:
    """The task's tests the jury checks (those ``augment`` made), in file order."""
    return tuple(test for test in task.tests if test.origin in AUDITED_ORIGINS)


def votes_on(samples: Sequence[ProgramSample],
             ballots: Sequence[Sequence[tuple[Outcome, bool]]], k: int) -> list[Vote]:
    """The samples' votes on the ``k``-th audited test: each sample's outcome there and
    whether the judge passed it (a test its job never reached is no answer)."""
    votes = []
    for sample, ballot in zip(samples, ballots, strict=True):
        outcome, passed = ballot[k] if k < len(ballot) else (NOT_REACHED, False)
        votes.append(Vote(sample.family, passed, outcome))
    return votes


def disputes(task: ProgramTask, tests: Sequence[ProgramTest],
             samples: Sequence[ProgramSample],
             ballots: Sequence[Sequence[tuple[Outcome, bool]]],
             consensus: int) -> list[Dispute]:
    """The disputed tests among ``tests`` (the task's audited tests; ``ballots`` holds
    each sample's (outcome, passed) on them, in order, fewer where its job stopped), by
    :func:`evalplus_ng.oracle.jury.majority` with the task's own equality and tolerance;
    shortest input first."""

    def same(a: Any, b: Any) -> bool:
        return same_output(a, b, task.equality, task.atol)

    found = []
    for k, test in enumerate(tests):
        votes = votes_on(samples, ballots, k)
        if all(vote.passed for vote in votes):
            continue
        verdict = majority(votes, same, consensus)
        if verdict is not None and isinstance(verdict.value, str):
            found.append(Dispute(test, verdict.value, verdict.families))
    return sorted(found, key=lambda d: (len(d.test.input), d.test.input))


def lead(task: ProgramTask, found: Sequence[Dispute], samples: int, checked: int,
         share: float = HELD_SHARE) -> ProgramFinding | None:
    """The jury's finding on ``task`` from its disputed tests (shortest input first), None
    without any: a lead, or suspect samples where they are most of the ``checked`` tests
    (:func:`evalplus_ng.oracle.jury.extent` with ``share``); ``samples``: the
    base-passing samples that voted."""
    if not found:
        return None
    first = found[0]
    reach = extent(len(found), checked, share)
    families = ", ".join(f"{name} ({count})" for name, count in first.families)
    why = {Extent.HELD: "",
           Extent.UNHELD: f", more than the {share:.0%} the jury holds out of the suite "
                          "without review: none held",
           Extent.SUSPECT: ": more than half, so the samples are suspect, not the "
                           "reference, and every test stays in the suite"}[reach]
    return ProgramFinding(
        task.task_id, SUSPECT_SAMPLES if reach is Extent.SUSPECT else SAMPLES,
        first.test.input, first.test.output, first.answer,
        f"of {samples} base-passing samples, {sum(n for _f, n in first.families)} of "
        f"{len(first.families)} families ({families}) print {brief(first.answer)!r} on "
        f"{brief(first.test.input)!r}; the suite expects {brief(first.test.output)!r}; "
        f"{len(found)} of {checked} new test(s) disputed{why}",
        first.families, tuple(found), checked=checked, extent=reach)


def refutations(stats: Mapping[str, Any], task_ids: Iterable[TaskId] | None = None
                ) -> list[ProgramFinding]:
    """The ``raises`` findings of an ``augment`` of programs (its ``stats.json``): each task
    whose reference raised on an input its plan admits (``refuted``; none of its new tests
    kept, or, where the plan keeps the statement's words only, the others kept: a wrong
    reference), the shortest such input as the witness; only ``task_ids`` where given."""
    wanted = None if task_ids is None else set(task_ids)
    found = []
    for report in stats.get("tasks", []) if stats.get("kind") == "programs" else []:
        if not isinstance(report, dict) or not (report.get("outcome") == "refuted" or (
                report.get("outcome") == "augmented" and report.get("witness"))):
            continue
        task_id = str(report.get("task_id", ""))
        if wanted is not None and task_id not in wanted:
            continue
        reason = str(report.get("reason", ""))
        found.append(ProgramFinding(
            task_id, RAISES, str(report.get("witness", "")), "an answer", "raised",
            f"the reference raised on an input its input plan admits ({reason}): the plan "
            "admits an invalid input or the reference is wrong there; augment kept none "
            "of the task's new tests" if report.get("outcome") == "refuted" else
            f"the reference raised on an input the statement admits ({reason}): its plan "
            "keeps nothing but the statement's bounds, so the reference is wrong there; "
            "augment kept the task's other new tests"))
    return found


def review(findings: Sequence[ProgramFinding],
           dismissals: Mapping[TaskId, Mapping[str, str]]) -> list[ProgramFinding]:
    """Mark each finding dismissed where ``dismissals[task_id][signal]`` holds a reviewer's
    reason (for ``samples``: the suite's outputs are right), else leave it unreviewed."""
    return [replace(f, status=DISMISSED, review=note)
            if (note := dismissals.get(f.task_id, {}).get(f.signal)) is not None else f
            for f in findings]


def held_tests(findings: Sequence[ProgramFinding]) -> dict[TaskId, frozenset[TestKey]]:
    """The tests each task's unreviewed jury lead holds out of the suite."""
    return {f.task_id: frozenset(f.held) for f in findings
            if f.signal == SAMPLES and f.status == UNREVIEWED and f.held}


def split_held(record: Mapping[str, Any], held: frozenset[TestKey]
               ) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """A task's line of a tasks file (as read) without the ``held`` tests, and a line of
    the same task with only those (None where it has none)."""
    tests = record["tests"]
    out = [t for t in tests if (t.get("origin", ""), t["input"]) in held]
    if not out:
        return dict(record), None
    kept = [t for t in tests if (t.get("origin", ""), t["input"]) not in held]
    return {**record, "tests": kept}, {**record, "tests": out}


def finding_wire(finding: ProgramFinding) -> dict[str, Any]:
    """A finding before review, whole (every disputed test), for a task's checkpoint."""
    return {"task_id": finding.task_id, "signal": finding.signal,
            "witness": finding.witness, "expected": finding.expected,
            "actual": finding.actual, "explanation": finding.explanation,
            "families": [list(pair) for pair in finding.families],
            "disputes": [{"input": d.test.input, "output": d.test.output,
                          "origin": d.test.origin, "time_limit": d.test.time_limit,
                          "answer": d.answer, "families": [list(p) for p in d.families]}
                         for d in finding.disputes],
            "checked": finding.checked, "extent": finding.extent.value}


def finding_from_wire(document: Mapping[str, Any]) -> ProgramFinding:
    """The inverse of :func:`finding_wire` (KeyError, TypeError or ValueError when the
    document is not one)."""
    def pairs(items: Iterable[Sequence[Any]]) -> tuple[tuple[str, int], ...]:
        return tuple((str(name), int(count)) for name, count in items)

    return ProgramFinding(
        str(document["task_id"]), Signal(document["signal"]), str(document["witness"]),
        str(document["expected"]), str(document["actual"]), str(document["explanation"]),
        pairs(document["families"]),
        tuple(Dispute(ProgramTest(str(d["input"]), str(d["output"]), False, str(d["origin"]),
                                  None if d["time_limit"] is None else float(d["time_limit"])),
                      str(d["answer"]), pairs(d["families"]))
              for d in document["disputes"]),
        checked=int(document.get("checked", 0)),
        extent=Extent(document.get("extent", Extent.HELD.value)))


def brief(text: str, limit: int = 80) -> str:
    """``text`` cut to ``limit`` characters (for a line of prose)."""
    return text if len(text) <= limit else text[:limit - 3] + "..."


def shown(text: str, limit: int) -> str:
    """``text`` whole when at most ``limit`` characters, else its start and how much is cut."""
    if len(text) <= limit:
        return text
    return text[:limit] + f"... ({len(text) - limit} more characters)"


def finding_record(finding: ProgramFinding, config: ProgramAuditConfig) -> dict[str, Any]:
    """A finding as written to ``audit.json``: the witness input, the suite's and the
    samples' outputs there, and for a jury lead its families, the tests held and the
    first few disputed tests (shortest first)."""
    limit = config.shown_chars
    return {
        "task_id": finding.task_id, "signal": finding.signal,
        "witness": shown(finding.witness, limit), "expected": shown(finding.expected, limit),
        "actual": shown(finding.actual, limit), "explanation": finding.explanation,
        "status": finding.status, "review": finding.review,
        **({"families": dict(finding.families), "held_tests": len(finding.held),
            "disputed_tests": len(finding.disputes), "checked_tests": finding.checked,
            "held_origins": {origin: sum(o == origin for o, _input in finding.held)
                             for origin in AUDITED_ORIGINS},
            "disputed": [{"input": shown(d.test.input, limit), "origin": d.test.origin,
                          "expected": shown(d.test.output, limit),
                          "samples": shown(d.answer, limit), "families": dict(d.families)}
                         for d in finding.disputes[:config.examples]]}
           if finding.signal in JURY else {}),
    }


def markdown(findings: Sequence[ProgramFinding], skipped: Mapping[str, int]) -> str:
    """``audit.md``: the jury's leads, suspect samples, the refuted plans, the dismissed
    findings, and the tasks the jury could not judge (``skipped``: count by reason)."""
    leads = [f for f in findings if f.signal == SAMPLES]
    suspect = [f for f in findings if f.signal == SUSPECT_SAMPLES]
    raises = [f for f in findings if f.signal == RAISES]
    waiting = sum(f.status == UNREVIEWED for f in findings)
    held = sum(len(f.held) for f in leads if f.status == UNREVIEWED)
    lines = ["# Reference audit (program tasks)", "",
             f"{len(leads)} jury lead(s) holding {held} new test(s) (`augment --samples` "
             f"holds them out of the suite while unreviewed); {len(suspect)} task(s) of "
             f"suspect samples; {len(raises)} refuted plan(s); "
             f"{waiting} finding(s) await review, "
             f"{sum(f.status == DISMISSED for f in findings)} dismissed after review.", ""]
    for chosen, title, why in (
            (leads, "Jury leads", "Samples that pass the public tests, of two families or "
             "more, print the same output on a new test, and it is not the suite's (the "
             "reference's); an unreviewed lead's disputed tests are held out of the suite, "
             "but where they are more than the jury may hold without review."),
            (suspect, "Suspect samples", "Such samples dispute most of the task's new tests: "
             "the samples are suspect, not the reference, and every test stays.")):
        if not chosen:
            continue
        lines += [f"## {title}", "", f"{why} Witness: the shortest disputed input.", "",
                  "| task | witness | suite expects | samples print | families (samples) "
                  "| disputed | held | status |", "|---|---|---|---|---|---|---|---|"]
        for f in chosen:
            families = ", ".join(f"{name} ({count})" for name, count in f.families)
            lines.append(f"| {f.task_id} | `{_cell(f.witness)}` | `{_cell(f.expected)}` "
                         f"| `{_cell(f.actual)}` | {_cell(families)} "
                         f"| {len(f.disputes)} of {f.checked} | {len(f.held)} "
                         f"| {f.status}{_cell(': ' + f.review) if f.review else ''} |")
        lines.append("")
    if raises:
        lines += ["## Refuted plans (the reference raised)", "",
                  "`augment` kept no new test of these tasks: the reference raised on an "
                  "input the plan admits (shortest shown).", "",
                  "| task | input | why | status |", "|---|---|---|---|"]
        for f in raises:
            lines.append(f"| {f.task_id} | `{_cell(f.witness)}` | {_cell(f.explanation)} "
                         f"| {f.status}{_cell(': ' + f.review) if f.review else ''} |")
        lines.append("")
    if skipped:
        lines += ["## Not judged by the jury", ""]
        lines += [f"- {reason}: {count} task(s)" for reason, count in skipped.items()]
        lines.append("")
    return "\n".join(lines)


def _cell(text: str, limit: int = 120) -> str:
    flat = re.sub(r"\n", "⏎", text)
    flat = re.sub(r"[\r\t]+", " ", flat)
    if len(flat) > limit:
        flat = flat[:limit - 3] + "..."
    return flat.replace("|", "\\|").replace("`", "'")
