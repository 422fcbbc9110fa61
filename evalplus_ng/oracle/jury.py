"""The jury: base-passing samples of several families against the ground truth.

Every base-passing sample of a task runs once on all of its plus inputs, in one sandbox
job (no stop at the first disagreement; the job stops only after
``AuditConfig.sample_timeouts`` inputs over the time limit), its outputs judged against
the ground truth's by the task's own judge, in the parent. On each input where a sample
disagrees, the samples' answers are grouped (:func:`majority`): when the largest group
holds a majority of the answers, comes from at least two families and is not the
ground truth's answer, the input is *disputed*. A family is what the user declares, else
a samples file (:func:`evalplus_ng.tasks.samples.families_of`): never a name a file
chooses. How many inputs are disputed, of those checked, decides what the jury does
(:func:`extent`): a task disputed on at most ``AuditConfig.held_share`` of them is a
*lead* whose disputed inputs are held out of the plus suite until a review accepts the
ground truth's answers (or a fixed ground truth replaces it, which then agrees with the
samples); on more, a lead that holds nothing; on most of them, the samples are suspect,
not the ground truth (:data:`~evalplus_ng.oracle.defects.SUSPECT_SAMPLES`), and nothing is
held. A lead's first disputed input is shrunk (:mod:`evalplus_ng.generate.shrink`) while
one sample of each agreeing family still agrees against the ground truth. Any answer,
however large or deep, is shown within bounds (:func:`evalplus_ng.oracle.defects.answer_of`).

Cost: one sandbox job per base-passing sample and task, plus the ground truth once on
the plus inputs and the shrink's checks; :class:`JuryCost` counts them.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from evalplus_ng import judge
from evalplus_ng.generate import shrink
from evalplus_ng.oracle.defects import (
    SAMPLES,
    SUSPECT_SAMPLES,
    Finding,
    SampleCode,
    TaskAudit,
    answer_of,
    call_text,
    decoded,
    text_of,
)
from evalplus_ng.records import UNRUN, Outcome, Status
from evalplus_ng.serialize import decode, encode
from evalplus_ng.types import Args, Wire


@dataclass(frozen=True)
class Vote:
    """One sample's answer on one input: its family, whether the judge passed it against
    the ground truth's output, and the outcome."""

    family: str
    passed: bool
    outcome: Outcome


@dataclass(frozen=True)
class Majority:
    """The answer a majority of the samples gave, where it is not the ground truth's."""

    value: Wire
    #: Indices (into the votes) of the samples that gave it.
    members: tuple[int, ...]
    #: (family, samples) of the members, by family name.
    families: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class JuryCost:
    """What the jury ran on one task: sample runs (one sandbox job each), sample calls
    (inputs run, the shrink's too) and shrink checks."""

    samples: int = 0
    calls: int = 0
    checks: int = 0

    def __add__(self, other: JuryCost) -> JuryCost:
        return JuryCost(self.samples + other.samples, self.calls + other.calls,
                        self.checks + other.checks)


Same = Callable[[Wire, Wire], bool]


def majority(votes: Sequence[Vote], same: Same, minimum: int) -> Majority | None:
    """The answer that outvotes the ground truth on one input, if any.

    Answers are grouped: the votes that passed (the ground truth's answer) form one group;
    the other answers join the first group whose first answer ``same`` says they equal.
    The largest group other than the ground truth's wins when it has at least ``minimum``
    votes from at least two families, at least half of the votes that answered (an
    error, a timeout or a crash is no answer) and strictly more votes than any other
    group, the ground truth's included. Pure: ``same(a, b)`` compares wire values.
    """
    answered = [i for i, vote in enumerate(votes) if vote.outcome.status is Status.OK]
    truth = [i for i in answered if votes[i].passed]
    groups: list[list[int]] = []
    for i in answered:
        if votes[i].passed:
            continue
        home = next((g for g in groups if _safe(same, votes[g[0]].outcome.value,
                                                 votes[i].outcome.value)), None)
        if home is None:
            groups.append([i])
        else:
            home.append(i)
    if not groups:
        return None
    best = max(groups, key=len)  # the first of the largest: answers in sample order
    others = [len(g) for g in groups if g is not best] + [len(truth)]
    families = sorted({votes[i].family for i in best})
    if (len(best) < minimum or len(families) < 2 or 2 * len(best) < len(answered)
            or len(best) <= max(others)):
        return None
    counts = tuple((f, sum(votes[i].family == f for i in best)) for f in families)
    return Majority(votes[best[0]].outcome.value, tuple(best), counts)


def _safe(same: Same, a: Wire, b: Wire) -> bool:
    try:
        return same(a, b)
    except Exception:
        return False


class Extent(enum.Enum):
    """What the jury does with a task's disputed inputs, by how many of the checked ones
    they are (:func:`extent`)."""

    #: At most the share it may hold without review: a lead, its disputed inputs held.
    HELD = "held"
    #: More, but not most: a lead awaiting review, nothing held.
    UNHELD = "unheld"
    #: Most of them: the samples are suspect, not the ground truth; nothing held.
    SUSPECT = "suspect"


def extent(disputed: int, checked: int, share: float) -> Extent:
    """:class:`Extent` of ``disputed`` inputs of ``checked``: held when at most ``share``
    of them, suspect samples when more than half."""
    if 2 * disputed > checked:
        return Extent.SUSPECT
    return Extent.HELD if disputed <= share * checked else Extent.UNHELD


def jury(audit: TaskAudit) -> tuple[list[Finding], JuryCost]:
    """The jury's finding on one task (at most one, unreviewed: a lead, or suspect
    samples) and what it cost.

    Needs :attr:`TaskAudit.judged`, samples of two families at least and plus inputs;
    otherwise it finds nothing at no cost.
    """
    config, task = audit.config, audit.task
    samples = audit.samples
    if audit.judged is None or not audit.plus or len({s.family for s in samples}) < 2:
        return [], JuryCost()
    inputs = list(audit.plus[:config.sample_inputs])
    truths = audit.run(task.solution, inputs, None, config.seconds)
    answered = [i for i, o in enumerate(truths) if o.status is Status.OK]
    wire = [encode(list(inputs[i])) for i in answered]  # one list: prepared once
    expected = [truths[i].value for i in answered]
    ballots = [audit.judged(s.code, wire, expected, config.sample_seconds,
                            config.sample_timeouts) for s in samples]
    cost = JuryCost(len(samples), sum(sum(o.fault not in UNRUN for o, _passed in b)
                                      for b in ballots))
    disputed: list[tuple[int, Majority]] = []
    for k, i in enumerate(answered):
        if all(ballot[k][1] for ballot in ballots):
            continue
        votes = [Vote(s.family, ballot[k][1], ballot[k][0])
                 for s, ballot in zip(samples, ballots, strict=True)]
        found = majority(votes, _same_for(audit, inputs[i]), config.consensus)
        if found is not None:
            disputed.append((i, found))
    if not disputed:
        return [], cost
    first, verdict = disputed[0]
    reach = extent(len(disputed), len(answered), config.held_share)
    families = ", ".join(f"{name} ({count})" for name, count in verdict.families)
    counted = f"{len(disputed)} of {len(answered)} plus inputs disputed"
    if reach is Extent.SUSPECT:
        call = call_text(task.entry_point, inputs[first])
        return [Finding(
            task.task_id, "samples", SUSPECT_SAMPLES, inputs[first],
            answer_of(verdict.value), answer_of(truths[first].value),
            f"{len(verdict.members)} base-passing samples of {len(verdict.families)} "
            f"families ({families}) agree that {_brief(call)} is "
            f"{text_of(decoded(verdict.value), 200)}, against the ground truth; {counted}: "
            "more than half, so the samples are suspect, not the ground truth, and every "
            "input stays in the suite", families=verdict.families,
            disputed=len(disputed), checked=len(answered))], cost
    group = _one_per_family(samples, verdict.members)
    witness, checks = _shrunk(audit, inputs[first], group)
    cost = cost + JuryCost(0, checks * (len(group) + 1), checks)
    [truth] = audit.run(task.solution, [witness], None, config.seconds)
    [voted] = audit.run(group[0].code, [witness], None, config.sample_seconds)
    held = tuple(inputs[i] for i, _m in disputed) if reach is Extent.HELD else ()
    call = call_text(task.entry_point, witness)
    return [Finding(
        task.task_id, audit.fixed.category if audit.fixed else "bad-logic", SAMPLES,
        witness, answer_of(voted.value), answer_of(truth.value),
        f"{len(verdict.members)} base-passing samples of {len(verdict.families)} families "
        f"({families}) agree that {_brief(call)} is {text_of(decoded(voted.value), 200)}; "
        f"the ground truth gives {text_of(decoded(truth.value), 200)}; {counted}"
        + ("" if reach is Extent.HELD else f", more than the {config.held_share:.0%} the "
                                           "jury holds out of the suite without review: "
                                           "none held"),
        families=verdict.families, held=held, disputed=len(disputed),
        checked=len(answered))], cost


def _brief(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _same_for(audit: TaskAudit, args: Args) -> Same:
    """Two answers are the same when the task's judge, taking the first as expected,
    passes the second."""
    task = audit.task

    def same(a: Wire, b: Wire) -> bool:
        return judge.check(task.oracle, args, decode(a), decode(b), task.atol, task.equality)

    return same


def _one_per_family(samples: Sequence[SampleCode], members: Sequence[int]
                    ) -> list[SampleCode]:
    """The first member sample of each family (in sample order): the witness shrinks
    while these agree, so it stays a lead of two families or more."""
    chosen: dict[str, SampleCode] = {}
    for index in members:
        chosen.setdefault(samples[index].family, samples[index])
    return list(chosen.values())


def _shrunk(audit: TaskAudit, args: Args, group: Sequence[SampleCode]) -> tuple[Args, int]:
    """``args`` shrunk while every sample of ``group`` answers, they agree and the ground
    truth (within ``shrink_lines``) answers otherwise; and the checks it took."""
    config, task = audit.config, audit.task
    checks = [0]

    def batch(candidates: Sequence[Args]) -> list[bool]:
        checks[0] += len(candidates)
        truths = audit.run(task.solution, candidates, config.shrink_lines, config.seconds)
        answers = [audit.run(s.code, candidates, None, config.sample_seconds) for s in group]
        verdicts = []
        for index, (args_, truth) in enumerate(zip(candidates, truths, strict=True)):
            outs = [a[index] for a in answers]
            same = _same_for(audit, args_)
            verdicts.append(
                truth.status is Status.OK and all(o.status is Status.OK for o in outs)
                and all(_safe(same, outs[0].value, o.value) for o in outs[1:])
                and not _safe(same, truth.value, outs[0].value))
        return verdicts

    if SAMPLES in audit.dismissed:
        return args, 0
    return shrink.shrink(args, batch, audit.contract.valid,
                         max_checks=config.shrink_checks), checks[0]
