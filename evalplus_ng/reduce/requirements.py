"""MINI's requirement kinds, one record each in :data:`KINDS`.

A record says how the kind is computed from one task's tests (in-process, or in the
sandbox with the ground truth's answers), what its cache key holds, and how its
document (plain JSON, cached per task by :mod:`evalplus_ng.reduce.mini`) becomes the
goals the set cover meets (:mod:`evalplus_ng.reduce.found`). Adding a kind is writing
its record here; profiles (``reducers/``) then may name it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from evalplus_ng.generate.classes import classes_of_test
from evalplus_ng.oracle.groundtruth import GroundTruth, ground_truth_job
from evalplus_ng.protocols import Executor
from evalplus_ng.records import Status, Task
from evalplus_ng.reduce.cost import cost_goals, executed_lines
from evalplus_ng.reduce.cover import branch_arcs
from evalplus_ng.reduce.found import Found, GoalSets, KillRows, rows_from_wire, rows_to_wire
from evalplus_ng.reduce.habits import HABITS, rewrites
from evalplus_ng.reduce.habits import goals as habit_goals
from evalplus_ng.reduce.kills import KillConfig, kill_rows
from evalplus_ng.reduce.mutants import Mutant, mutant_sources
from evalplus_ng.reduce.slips import slip_sources
from evalplus_ng.reduce.values import RECORD_BUDGET, VALUES_VERSION, value_goals
from evalplus_ng.serialize import decode, dumps, encode
from evalplus_ng.types import Args

#: Bumped whenever a cached requirement's meaning changes.
CACHE_VERSION = 1
#: Mutants: at least 0.05 s, else 10x the ground truth's time. A mutant far slower than the
#: ground truth counts as killed (once confirmed); slow mutants stay affordable. A killed
#: mutant usually fails most of the suite: its first 64 killers are choice enough for the
#: cover, and running the rest (each costing what the ground truth costs) was most of
#: reduce's time on MBPP+'s costly tasks.
MUTANT_KILLS = KillConfig(floor_seconds=0.05, factor=10.0, max_failures=64)
#: Samples: judged as ``evaluate`` judges them; most wrong samples fail hundreds of tests,
#: and 64 killers are plenty to cover them (the rest stay ``unknown``, run when needed).
SAMPLE_KILLS = KillConfig(max_failures=64)
#: The costliest test is a goal when it costs the ground truth at least this many times
#: the lines of the costliest base test.
COST_FACTOR = 4.0
#: Habits: the ground truth's limit per rewritten input, and rewrites per sandbox job.
HABIT_SECONDS = 2.0
HABIT_CHUNK = 512

#: A requirement of one task as cached: plain JSON.
Document = dict[str, Any]


@dataclass(frozen=True)
class Subject:
    """One task's tests, and what a requirement of them is computed with: the ground
    truth's answers and a sandbox (for the kinds that run code), the samples' code."""

    task: Task
    tests: tuple[int, ...]
    truth: GroundTruth | None = None
    codes: tuple[str, ...] = ()
    executor: Executor | None = None

    @property
    def inputs(self) -> list[Args]:
        """The arguments of each test."""
        everything = (*self.task.base_inputs, *self.task.plus_inputs)
        return [everything[t] for t in self.tests]

    def ground_truth(self) -> GroundTruth:
        """The ground truth's answers (a kind reading them cannot do without)."""
        if self.truth is None:
            raise ValueError("this requirement reads the ground truth's answers: pass them")
        return self.truth

    def sandbox(self) -> Executor:
        """The sandbox (a kind running code cannot do without)."""
        if self.executor is None:
            raise ValueError("this requirement runs code: it needs a sandbox")
        return self.executor


@dataclass(frozen=True)
class RequirementKind:
    """One requirement kind: how it is computed and cached, and its goals for the set cover."""

    name: str
    #: The kind's document of one task's tests; None for a kind reading another's document.
    compute: Callable[[Subject], Document] | None
    #: The goals in the document, given the task's base tests (which every profile keeps).
    read: Callable[[Mapping[str, Any], frozenset[int]], Found]
    #: The cache key's parts after the kind's name and the suite, in order; None: not
    #: cached (cheap, computed on every run).
    key: Callable[[Subject], list[Any]] | None = None
    #: Runs code in the sandbox; else trusted and in-process, a pure function of the
    #: inputs (so :func:`evalplus_ng.reduce.mini.warm` fills its cache in worker processes).
    sandboxed: bool = False
    #: Made from LLM samples: computed only with ``--samples``, and a judged model's own
    #: samples choose none of its tests.
    of_samples: bool = False
    #: The kind whose document this one reads ("": its own).
    source: str = ""
    #: How a person reads the kind's name (the name itself when empty).
    label: str = ""

    @property
    def document(self) -> str:
        """The name of the document (and cache folder) the kind reads."""
        return self.source or self.name

    @property
    def cached(self) -> bool:
        return self.key is not None


# --------------------------------------------------------------------------- computing


def _coverage(subject: Subject) -> Document:
    """Branch arcs of the ground truth per test (in-process: trusted code)."""
    task = subject.task
    arcs = branch_arcs(task.solution, task.entry_point, subject.inputs)
    return {"arcs": {str(t): sorted(a) for t, a in zip(subject.tests, arcs, strict=True)}}


def _cost(subject: Subject) -> Document:
    """Lines the ground truth executes per test (in-process)."""
    task = subject.task
    lines = executed_lines(task.solution, task.entry_point, subject.inputs)
    return {"lines": {str(t): n for t, n in zip(subject.tests, lines, strict=True)}}


def _values(subject: Subject) -> Document:
    """The classes of the ground truth's intermediate values per test (in-process)."""
    task = subject.task
    found = value_goals(task.solution, task.entry_point, subject.inputs)
    return {"goals": {str(t): sorted(g) for t, g in zip(subject.tests, found, strict=True)
                      if g}}


def class_requirement(task: Task, truth: GroundTruth,
                      tests: Iterable[int]) -> dict[int, frozenset[str]]:
    """The classes of each test's input and expected output (cheap: not cached)."""
    everything = (*task.base_inputs, *task.plus_inputs)
    n_base = len(task.base_inputs)
    outputs = (*truth.base.outputs, *truth.plus.outputs)
    found: dict[int, frozenset[str]] = {}
    for test in tests:
        output = decode(outputs[test]) if test < n_base + len(truth.plus.outputs) else None
        found[test] = frozenset(classes_of_test(everything[test], output))
    return found


def _classes(subject: Subject) -> Document:
    found = class_requirement(subject.task, subject.ground_truth(), subject.tests)
    return {"goals": {str(t): sorted(c) for t, c in found.items()}}


def _habits(subject: Subject) -> Document:
    """Per test (as text), the goals of :mod:`evalplus_ng.reduce.habits`: the ground truth run on
    each habit's rewrite of the test's input (trusted code; a rewrite it does not answer
    within :data:`HABIT_SECONDS` is no goal)."""
    task, truth, executor = subject.task, subject.ground_truth(), subject.sandbox()
    everything = (*task.base_inputs, *task.plus_inputs)
    own = (*truth.base.outputs, *truth.plus.outputs)
    answered = (*truth.base.failures, *truth.plus.failures)
    probes = [(test, stem, args) for test in subject.tests if not answered[test]
              for stem, args in rewrites(everything[test])]
    jobs = [replace(ground_truth_job(task, [args for _t, _s, args in probes[i:i + HABIT_CHUNK]],
                                     HABIT_SECONDS), max_timeouts=1)
            for i in range(0, len(probes), HABIT_CHUNK)]
    answers: list[Any] = []
    for chunk, result in zip(range(0, len(probes), HABIT_CHUNK), executor.map(jobs),
                             strict=True):
        for index in range(min(HABIT_CHUNK, len(probes) - chunk)):
            outcome = result.outcomes[index] if index < len(result.outcomes) else None
            ok = (result.load.status is Status.OK and outcome is not None
                  and outcome.status is Status.OK)
            answers.append(dumps(outcome.value) if ok and outcome is not None else None)
    stems: dict[int, list[str]] = {}
    same: dict[int, list[bool | None]] = {}
    for (test, stem, _args), answer in zip(probes, answers, strict=True):
        stems.setdefault(test, []).append(stem)
        same.setdefault(test, []).append(None if answer is None
                                         else answer == dumps(own[test]))
    return {"goals": {str(test): sorted(habit_goals(stems[test], same[test]))
                      for test in stems}}


def _mutant_kills(subject: Subject, mutants: Sequence[Mutant]) -> Document:
    """Which tests kill each of ``mutants`` (in the sandbox), and the line each changes."""
    rows = kill_rows(subject.task, subject.ground_truth(), [m.code for m in mutants],
                     subject.sandbox(), MUTANT_KILLS)
    return {"lines": [m.line for m in mutants], "rows": rows_to_wire(rows)}


def _mutants(subject: Subject) -> Document:
    return _mutant_kills(subject, mutant_sources(subject.task.solution))


def _slips(subject: Subject) -> Document:
    return _mutant_kills(subject, slip_sources(subject.task.solution))


def _samples(subject: Subject) -> Document:
    """Which tests kill each of the samples' distinct codes (in the sandbox)."""
    rows = kill_rows(subject.task, subject.ground_truth(), subject.codes, subject.sandbox(),
                     SAMPLE_KILLS)
    return {"rows": rows_to_wire(rows)}


# --------------------------------------------------------------------------- reading


def _arcs(document: Mapping[str, Any], _base: frozenset[int]) -> GoalSets:
    return GoalSets({int(t): frozenset((a, b) for a, b in arcs)
                     for t, arcs in document["arcs"].items() if arcs})


def _goals(document: Mapping[str, Any], _base: frozenset[int]) -> GoalSets:
    return GoalSets({int(t): frozenset(g) for t, g in document["goals"].items() if g})


def _costliest(document: Mapping[str, Any], base: frozenset[int]) -> GoalSets:
    lines = {int(t): n for t, n in document["lines"].items()}
    return GoalSets({t: frozenset(g)
                     for t, g in cost_goals(lines, sorted(base), COST_FACTOR).items()})


def _kills(document: Mapping[str, Any], _base: frozenset[int]) -> KillRows:
    return KillRows(rows_from_wire(document["rows"]), tuple(document.get("lines", ())))


def _plus_kills(document: Mapping[str, Any], base: frozenset[int]) -> KillRows:
    """The faults: every distinct wrong sample (base-passing or not) a plus test kills."""
    return _kills(document, base).without(base)


# --------------------------------------------------------------------------- the kinds


def _none(_subject: Subject) -> list[Any]:
    return []


def _mutant_key(_subject: Subject) -> list[Any]:
    return [MUTANT_KILLS.__dict__]


def _slip_key(subject: Subject) -> list[Any]:
    # The slips' own code is in the key: a change to how they are made redoes them.
    return [MUTANT_KILLS.__dict__, [m.code for m in slip_sources(subject.task.solution)]]


def _sample_key(subject: Subject) -> list[Any]:
    return [SAMPLE_KILLS.__dict__, list(subject.codes)]


def _values_key(_subject: Subject) -> list[Any]:
    return [VALUES_VERSION, RECORD_BUDGET]


def _habits_key(_subject: Subject) -> list[Any]:
    return [sorted(HABITS), HABIT_SECONDS]


#: Every requirement kind, by name, in the order profiles list them.
KINDS: Mapping[str, RequirementKind] = {kind.name: kind for kind in (
    RequirementKind("coverage", _coverage, _arcs, _none),
    RequirementKind("mutants", _mutants, _kills, _mutant_key, sandboxed=True,
                    label="mutant kills"),
    RequirementKind("samples", _samples, _kills, _sample_key, sandboxed=True, of_samples=True,
                    label="sample kills"),
    RequirementKind("cost", _cost, _costliest, _none),
    RequirementKind("slips", _slips, _kills, _slip_key, sandboxed=True, label="slip kills"),
    RequirementKind("classes", _classes, _goals),
    RequirementKind("faults", None, _plus_kills, of_samples=True, source="samples"),
    RequirementKind("habits", _habits, _goals, _habits_key, sandboxed=True),
    RequirementKind("values", _values, _goals, _values_key),
)}


def documents_for(kinds: Iterable[str], samples: bool) -> list[str]:
    """The documents ``kinds`` read, in :data:`KINDS` order; those made from LLM samples
    only when there are ``samples``."""
    wanted = {KINDS[kind].document for kind in kinds}
    return [name for name, kind in KINDS.items()
            if name in wanted and (samples or not kind.of_samples)]


def read_documents(documents: Mapping[str, Mapping[str, Any]],
                   base: frozenset[int]) -> dict[str, Found]:
    """What each kind found, from the documents at hand (a kind whose document is not
    among them is left out: it has no goals)."""
    return {name: kind.read(documents[kind.document], base)
            for name, kind in KINDS.items() if kind.document in documents}


def cache_key(*parts: Any) -> str:
    """A digest of :data:`CACHE_VERSION` and ``parts`` (each as canonical JSON)."""
    digest = hashlib.sha256()
    for part in (CACHE_VERSION, *parts):
        digest.update(json.dumps(part, sort_keys=True, ensure_ascii=False).encode())
        digest.update(b"\0")
    return digest.hexdigest()


def _suite_key(task: Task, tests: Sequence[int]) -> list[Any]:
    inputs = [dumps(encode(list(args))) for args in (*task.base_inputs, *task.plus_inputs)]
    return [task.task_id, task.solution, task.entry_point, inputs, list(tests)]


def requirement_key(kind: str, task: Task, tests: Sequence[int],
                    codes: Sequence[str] = ()) -> str:
    """The cache key of ``task``'s requirement of ``kind``: everything it depends on."""
    key = KINDS[kind].key
    if key is None:
        raise ValueError(f"the {kind} requirement is not cached")
    subject = Subject(task, tuple(tests), codes=tuple(codes))
    return cache_key(kind, _suite_key(task, tests), *key(subject))


def compute_requirement(kind: str, task: Task, truth: GroundTruth | None,
                        tests: Sequence[int], codes: Sequence[str] = (),
                        executor: Executor | None = None) -> Document:
    """``task``'s requirement of ``kind`` (uncached): the in-process kinds need neither
    ``truth`` nor ``executor``; the kinds that run code (mutants, slips, habits, the
    samples ``codes``) need both."""
    compute = KINDS[kind].compute
    if compute is None:
        raise ValueError(f"the {kind} requirement reads the {KINDS[kind].document} one's")
    return compute(Subject(task, tuple(tests), truth, tuple(codes), executor))
