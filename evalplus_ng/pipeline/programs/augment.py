"""`augment` for program tasks (stdin/stdout): plan -> new inputs -> the reference runs them
-> plus and stress tests appended to the tasks file (``ProgramsPlus.jsonl.gz``).

Orchestration only (it opens files and starts the sandbox); the stages are
:mod:`evalplus_ng.generate.programs.planner` (the input plan and its inputs, passed in as
``planner`` and ``generator`` so that tests can give their own) and
:mod:`evalplus_ng.oracle.programs.answers` (what the reference's runs make of the inputs).

For each task, in the parent: its plan (from the statement and the public inputs; never
the hidden tests, which measure what the new ones find), its candidates (a random stream
seeded by ``--seed`` and the task id), each checked again by the plan's validator. Then
the task's reference runs the candidates in the sandbox, in jobs of :data:`CHUNK` inputs
spread over the workers while the next tasks are planned; an input is kept where the
reference ends normally within ``time_limit``, its stdout the expected output. Each
finished task is checkpointed in ``OUT/checkpoints/programs/``, so an interrupted run
resumes where it stopped; the same seed gives the same artifact, byte for byte, whatever
``-j``, except inputs the reference answers near ``time_limit`` (kept or dropped) and
limits near a step of their grid (the tier of an input follows how it was made, never
the reference's time: :class:`~evalplus_ng.oracle.programs.answers.Stressed`); given an earlier
run's timings file (``timings``: :mod:`evalplus_ng.pipeline.programs.timings`), those follow the
file, and the artifact is the same byte for byte.

Then each new test gets its own time limit (``time_limit`` in its record), from the
reference's slowest run on it (:mod:`evalplus_ng.pipeline.programs.calibrate`; the rule in
:mod:`evalplus_ng.oracle.programs.timelimits`): the run that kept it, and where that time could
decide the limit, more runs on the task's slowest such tests, the others' scaled by the
slowdown seen there; checkpointed per task in ``OUT/checkpoints/program-limits/``.

A task with a checker program (:mod:`evalplus_ng.checker`) is augmented even where it is
flagged ``multiple_answers_suspected``: its new tests' outputs are the reference's answers,
which the checker compares other answers with. Its checker is tried first, before any
task is planned: the reference runs the public tests, and the checker must accept each
of its outputs; a task whose checker rejects one (or breaks) is skipped
(:data:`BAD_CHECKER`, the reason in ``stats.json``, a warning).

A task with a generator and a validator a model wrote (cached by ``seed``:
:mod:`evalplus_ng.generate.programs.llmseed`; ``llm_pairs``) gets their inputs too, made before
any task is planned: the generator runs in the sandbox on ``llm.runs`` lines (seeds drawn
from ``--seed``, the task and the model), each twice (:mod:`evalplus_ng.oracle.programs.llminputs`),
then the validator judges the task's public inputs, which it must all accept (else the
pair is refused: a warning, the reason in ``stats.json``), and the new inputs. An input it
accepts is a candidate of kind :data:`~evalplus_ng.generate.programs.llmseed.LLM` only where
the task's plan admits it too; where the task has no plan, the validator (tried on the
public inputs) is the only check, and the reference refutes it as it refutes a plan.
"""

from __future__ import annotations

import contextlib
import inspect
import json
import random
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from evalplus_ng.backend.executors import LOCAL, Backend
from evalplus_ng.checker import CHECKER_OUTPUT_BYTES
from evalplus_ng.evaluation.program_verdicts import DEFAULT_TIME_LIMIT as EVALUATE_SECONDS
from evalplus_ng.files import write_atomically, write_json
from evalplus_ng.generate.programs import planner as stdin_planner
from evalplus_ng.generate.programs.llmseed import LLM, GeneratorPair, generator_lines
from evalplus_ng.generate.programs.planner import InputPlan, ProgramInput
from evalplus_ng.jobs import checker_job, program_job
from evalplus_ng.oracle.programs.answers import (
    Drop,
    NewTest,
    Screened,
    Timings,
    aligned,
    answers,
    batches,
    checker_refusal,
    input_key,
    public_outputs,
    refuted,
    replayed,
    screen,
)
from evalplus_ng.oracle.programs.llminputs import read_generated, read_validated
from evalplus_ng.oracle.programs.timelimits import DEFAULT_RULE, LimitRule
from evalplus_ng.pipeline.augment import digest
from evalplus_ng.pipeline.checkpoints import resume_tasks
from evalplus_ng.pipeline.context import Progress
from evalplus_ng.pipeline.programs import DEFAULT_COUNT, DEFAULT_TIME_LIMIT
from evalplus_ng.pipeline.programs.calibrate import TaskLimits, calibrate_program_tests
from evalplus_ng.pipeline.programs.timings import TaskTimings, task_timings, write_timings
from evalplus_ng.protocols import Executor
from evalplus_ng.records import (
    STRESS_ORIGIN,
    Job,
    JobResult,
    ProgramTask,
    ProgramTest,
    Status,
)
from evalplus_ng.sandbox import Limits
from evalplus_ng.tasks.programfile import augmented_record, write_program_file
from evalplus_ng.tasks.spec import file_stem

#: The artifact: the tasks file with the new tests appended.
ARTIFACT = "ProgramsPlus.jsonl.gz"
#: Per task: the reference's seconds on each new test, in the artifact's order, and what
#: else its time decided (:mod:`evalplus_ng.pipeline.programs.timings`).
SECONDS_FILE = "reference-seconds.json"
#: The ``kind`` of this stage's ``stats.json`` (a function suite's names none).
STATS_KIND = "programs"
#: Inputs in one sandbox job: small enough that both workers share a task's candidates,
#: large enough that a job's round trip is a small part of its cost; large inputs (which
#: may each run to the time limit) in jobs of their own, smaller.
CHUNK, LARGE_CHUNK = 32, 8
#: A job stops after this many timeouts (its other inputs dropped as not run): a
#: reference that loops on a kind of input costs a few time limits, not one an input.
MAX_TIMEOUTS = 2
#: Replaying a timings file, an input may take this many times ``time_limit``: a kept
#: one's time is the file's, and a slower machine must still answer (or raise on) what
#: the first run did.
REPLAY_SLACK = 4.0
#: Expected outputs longer than this are dropped (``output_limit``): every sample judged
#: compares them, and the artifact holds them; CodeContests' longest is 200 KB.
MAX_EXPECTED_BYTES = 1 << 20
#: Part of every checkpoint's fingerprint: bumped whenever what a task keeps changes.
FORMAT_VERSION = 3
#: What became of a task (:attr:`ProgramTaskReport.outcome`): new tests made, or none
#: because no grammar reads its public inputs, because the generator made no input its
#: plan admits, because the reference raised on an input the plan admits (the plan is
#: refuted), because its outputs need a checker program it does not have (skipped), or
#: because its checker rejects the reference's output on a public test (skipped).
AUGMENTED, NO_GRAMMAR, NO_INPUTS, REFUTED, MULTIPLE_ANSWERS, BAD_CHECKER = (
    "augmented", "no_grammar", "no_inputs", "refuted", "multiple_answers", "bad_checker")
#: The flag of tasks whose outputs need a checker program (skipped unless they have one,
#: or unless asked).
MULTIPLE_ANSWERS_FLAG = "multiple_answers_suspected"

#: Lines a task's LLM generator runs on (each twice), seconds a run of it or of its
#: validator may take, and the largest input it may print.
LLM_RUNS = 30
LLM_SECONDS = 2.0
LLM_INPUT_BYTES = 1 << 21

Planner = Callable[[ProgramTask], InputPlan]
Generator = Callable[[InputPlan, Sequence[str], random.Random, int], list[ProgramInput]]


@dataclass(frozen=True)
class ProgramAugmentConfig:
    """Everything that decides the new tests of an augment run of program tasks (and so
    its checkpoints)."""

    #: Candidates asked of the generator per task.
    count: int = DEFAULT_COUNT
    seed: int = 0
    #: Seconds the reference may take on an input: beyond, the input is dropped.
    time_limit: float = DEFAULT_TIME_LIMIT
    max_output_bytes: int = MAX_EXPECTED_BYTES
    #: Augment the tasks flagged ``multiple_answers_suspected`` that have no checker too
    #: (their new outputs are the reference's answer, which another right program need not
    #: print); those with a checker are augmented anyway.
    multiple_answers: bool = False

    def __post_init__(self) -> None:
        if self.count < 1 or self.time_limit <= 0:
            raise ValueError("count must be positive and time_limit above 0")


@dataclass(frozen=True)
class LlmConfig:
    """How a task's LLM generator and validator run (part of the checkpoints of the tasks
    that have them only)."""

    #: Lines the generator runs on, per pair: its seeds.
    runs: int = LLM_RUNS
    generator_seconds: float = LLM_SECONDS
    validator_seconds: float = LLM_SECONDS
    max_input_bytes: int = LLM_INPUT_BYTES

    def __post_init__(self) -> None:
        if self.runs < 1 or self.generator_seconds <= 0 or self.validator_seconds <= 0:
            raise ValueError("runs must be positive, the seconds above 0")


@dataclass(frozen=True)
class LlmCandidates:
    """A task's inputs from its LLM pairs, before the plan sees them: those the
    validators accepted (distinct, none a public input), the counts of what the rest
    became (:data:`LLM_COUNTS`) and why pairs were refused ("; " between two)."""

    texts: tuple[str, ...] = ()
    counts: dict[str, int] = field(default_factory=dict)
    refused: str = ""


#: What the counts of a task's LLM inputs say (:attr:`ProgramTaskReport.llm`): lines run,
#: inputs printed, why lines gave none (:mod:`evalplus_ng.oracle.programs.llminputs`), repeats,
#: what the validator rejected or failed on, what the plan rejected, the candidates
#: admitted by both and the tests kept.
LLM_COUNTS = ("runs", "printed", "timeout", "runtime_error", "output_limit", "bad_output",
              "not_run", "unstable", "empty", "repeated", "validator_rejected",
              "validator_failed", "plan_rejected", "admitted", "tests")


@dataclass(frozen=True)
class ProgramTaskReport:
    """What happened to one task (its checkpoint and its entry in ``stats.json``).

    ``outcome`` is :data:`AUGMENTED`, :data:`NO_GRAMMAR`, :data:`NO_INPUTS`,
    :data:`REFUTED` (the reference raised on an input the plan admitted:
    :func:`~evalplus_ng.oracle.programs.answers.refuted`; no new test kept),
    :data:`MULTIPLE_ANSWERS` (skipped) or :data:`BAD_CHECKER` (skipped:
    :func:`~evalplus_ng.oracle.programs.answers.checker_refusal`), ``reason`` saying why where no
    test was made.
    ``seconds`` are measured (planning and generating in the parent; the reference's
    runs, summed and the longest): the only fields that differ between runs.
    """

    task_id: str
    outcome: str
    reason: str = ""
    seeds: int = 0
    candidates: int = 0
    violations: int = 0
    repeated: int = 0
    plus: int = 0
    stress: int = 0
    dropped: dict[str, int] = field(default_factory=dict)
    stressed: dict[str, int] = field(default_factory=dict)
    #: The first few violations, for the warning (there should be none).
    shown_violations: tuple[str, ...] = ()
    #: The reference did not load (every input then dropped as not run).
    reference_error: str = ""
    #: For :data:`REFUTED`: the shortest admitted input the reference raised on; for
    #: :data:`AUGMENTED` where the plan keeps nothing but the statement's words
    #: (``"stated"`` in its contract): the shortest input the statement admits that it
    #: raised on, a wrong reference (its other answers kept as tests).
    witness: str = ""
    seconds: dict[str, float] = field(default_factory=dict)
    #: Its LLM inputs (where it has a generator and validator a model wrote): the counts
    #: of :data:`LLM_COUNTS` (those not 0), and why its pairs were refused.
    llm: dict[str, int] = field(default_factory=dict)
    llm_refused: str = ""
    #: Replaying a timings file: inputs it kept that the reference did not answer now
    #: (a slower machine, a changed reference): those decisions differ from the file's.
    replay_missed: int = 0


@dataclass(frozen=True)
class TaskTests:
    """One task's new tests (in order) and its input plan's contract, with its report, the
    inputs dropped for time and, where its plan was refuted (no test kept), the seconds of
    the inputs the reference answered (both by input key: what a timings file records)."""

    tests: tuple[NewTest, ...]
    contract: dict[str, Any] | None
    report: ProgramTaskReport
    timed_drops: dict[str, str] = field(default_factory=dict)
    answered: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class ProgramAugmentSummary:
    """The files written and every task's report, in file order."""

    artifact: Path
    stats: Path
    seconds_file: Path
    reports: tuple[ProgramTaskReport, ...]
    resumed: int = 0
    wall_seconds: float = 0.0
    #: How the new tests' limits were set (None: no limits, ``--no-calibrate``) and each
    #: task's limits, in file order (tasks with new tests only).
    rule: LimitRule | None = None
    limits: tuple[TaskLimits, ...] = ()
    #: With the Ray backend: the reference's sandbox jobs run per node (by Ray node id).
    nodes: Mapping[str, int] = field(default_factory=dict)
    #: Tasks whose timings were replayed from a timings file (``--timings``).
    replayed: int = 0


def task_rng(seed: int, task_id: str) -> random.Random:
    """The task's own random stream: the same for the same seed and id, whatever else runs."""
    return random.Random(digest("programs", str(seed), task_id))


def _own(record: dict[str, Any]) -> dict[str, Any]:
    """A task's line without what an earlier ``augment`` added (its tests, its contract):
    what decides its new tests."""
    return {**{name: value for name, value in record.items() if name != "contract"},
            "tests": [test for test in record["tests"] if not test.get("origin")]}


def code_digest(planner: Planner, generator: Generator) -> str:
    """What the planner and the generator are: their names and the source of their modules
    and of every module of :mod:`evalplus_ng.generate.programs` (where the grammar, the
    facts and the statement's reading live), so that a change there makes every task again."""
    files = set(Path(stdin_planner.__file__).parent.glob("*.py"))
    for function in (planner, generator):
        with contextlib.suppress(TypeError, OSError):
            source = inspect.getsourcefile(function)
            if source is not None:
                files.add(Path(source))
    names = [f"{f.__module__}.{getattr(f, '__qualname__', repr(f))}"
             for f in (planner, generator)]
    return digest(*names, *(path.read_text(encoding="utf-8") for path in sorted(files)))


def fingerprint(config: ProgramAugmentConfig, record: dict[str, Any], code: str) -> str:
    """Changes whenever anything that decides this task's new tests changes: the settings,
    the task's line and the planner's and generator's code (``code``: :func:`code_digest`)."""
    return digest(json.dumps(asdict(config), sort_keys=True), str(FORMAT_VERSION), code,
                   json.dumps(_own(record), sort_keys=True))


def checkpoint_path(out: Path, task_id: str) -> Path:
    """Where a task's checkpoint is kept."""
    return out / "checkpoints" / "programs" / f"{file_stem(task_id)}.json"


def _report(document: dict[str, Any]) -> ProgramTaskReport:
    fields = dict(document)
    fields["shown_violations"] = tuple(fields.get("shown_violations", ()))
    return ProgramTaskReport(**fields)


def load_checkpoint(path: Path, key: str) -> TaskTests | None:
    """A task's checkpoint when it was made with ``key`` (None: absent, stale, unreadable)."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
        if document.get("fingerprint") != key:
            return None
        tests = tuple(NewTest(ProgramTest(text, output, False, origin), kind, float(seconds))
                      for text, output, origin, kind, seconds in document["tests"])
        return TaskTests(tests, document["contract"], _report(document["report"]),
                         dict(document["timed_drops"]), dict(document["answered"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def save_checkpoint(path: Path, key: str, done: TaskTests) -> None:
    """A task's checkpoint, written atomically."""
    path.parent.mkdir(parents=True, exist_ok=True)
    document = {"fingerprint": key, "report": asdict(done.report), "contract": done.contract,
                "tests": [[new.test.input, new.test.output, new.test.origin, new.kind,
                           new.seconds] for new in done.tests],
                "timed_drops": done.timed_drops, "answered": done.answered}
    write_atomically(path, json.dumps(document, ensure_ascii=False) + "\n")


@dataclass
class _Pending:
    """A task planned and waiting for its reference's results (one per chunk)."""

    task: ProgramTask
    contract: dict[str, Any] | None
    screened: Screened
    report: ProgramTaskReport
    results: list[JobResult] = field(default_factory=list)
    #: What an earlier run's timing decided for these inputs (``--timings``), if given.
    timings: Timings | None = None

    def __post_init__(self) -> None:
        inputs = self.screened.inputs
        runnable = [k for k, candidate in enumerate(inputs)
                    if self.timings is None or self.timings.runs(candidate.text)]
        #: The candidates' positions, one list per sandbox job (none for the inputs the
        #: timings dropped).
        self.jobs = [[runnable[place] for place in job] for job in
                     batches([inputs[k] for k in runnable], CHUNK, LARGE_CHUNK)]

    def budget(self, time_limit: float) -> float:
        """Each input's budget: ``time_limit``, or more where timings are replayed (the
        budget then decides after the run:
        :func:`~evalplus_ng.oracle.programs.answers.replayed`)."""
        return time_limit * (REPLAY_SLACK if self.timings is not None else 1.0)

    @property
    def complete(self) -> bool:
        return len(self.results) == len(self.jobs)


def try_checkers(tasks: Sequence[ProgramTask], executor: Executor) -> dict[str, str]:
    """Why each task's checker is not to be trusted ("" where it is), by task id: the
    reference runs each task's public tests (one job a task, within the task's time limit
    or ``evaluate``'s), then the checker judges its outputs, the test's output as the
    ``answer`` (:func:`~evalplus_ng.oracle.programs.answers.checker_refusal`)."""
    tasks = [task for task in tasks if task.checker]
    references = list(executor.map(
        program_job(task, task.solution, task.base_tests, task.time_limit or EVALUATE_SECONDS,
                    judged=False, fail_fast=False, max_timeouts=1) for task in tasks))
    outputs = [public_outputs(task, result) for task, result in zip(tasks, references,
                                                                   strict=True)]
    ready = [k for k, got in enumerate(outputs) if got is not None and got]
    checks = dict(zip(ready, executor.map(
        checker_job(tasks[k], list(zip(tasks[k].base_tests, outputs[k] or [], strict=True)),
                    tasks[k].time_limit or EVALUATE_SECONDS) for k in ready), strict=True))
    return {task.task_id: checker_refusal(task, references[k], checks.get(k))
            for k, task in enumerate(tasks)}


def llm_seeds(seed: int, task_id: str, model: str, runs: int) -> list[int]:
    """The seeds a task's LLM generator runs on: the same for the same ``--seed``, task
    and model, whatever else runs."""
    return [int(digest("llm", str(seed), task_id, model, str(k)), 16) % (1 << 31)
            for k in range(runs)]


def llm_candidates(tasks: Sequence[ProgramTask], pairs: Mapping[str, Sequence[GeneratorPair]],
                   config: ProgramAugmentConfig, llm: LlmConfig,
                   executor: Executor) -> dict[str, LlmCandidates]:
    """Each task's inputs from its LLM pairs (:class:`LlmCandidates`), by task id: every
    generator runs first (its lines by size, one job each, so that a generator looping on
    large inputs leaves its small ones), then every validator judges its task's public
    inputs and the new distinct inputs of its pair (a pair refused keeps nothing)."""
    runs: list[tuple[ProgramTask, GeneratorPair, int, list[list[int]]]] = []
    jobs: list[Job] = []
    for task in tasks:
        for pair in pairs.get(task.task_id, ()):
            lines = generator_lines(llm_seeds(config.seed, task.task_id, pair.model,
                                              llm.runs))
            groups = [places for size in range(3)
                      if (places := list(range(size, len(lines), 3)))]
            runs.append((task, pair, len(lines), groups))
            jobs += [program_job(task, pair.generator.code,
                                 [ProgramTest(lines[k], "") for k in places for _ in (0, 1)],
                                 llm.generator_seconds, judged=False, fail_fast=False,
                                 max_timeouts=1, max_output_bytes=llm.max_input_bytes)
                     for places in groups]
    results = iter(list(executor.map(jobs)))
    seen = {task.task_id: {test.input for test in task.base_tests} for task in tasks}
    counts: dict[str, Counter[str]] = {task.task_id: Counter() for task in tasks}
    fresh: list[list[str]] = []
    for task, _pair, count, groups in runs:
        got = read_generated(count, groups, [next(results) for _ in groups])
        tally = counts[task.task_id]
        tally.update({"runs": count, **got.failures})
        new: list[str] = []
        for text in got.texts:
            if text is None:
                continue
            tally["printed"] += 1
            if text in seen[task.task_id]:
                tally["repeated"] += 1
                continue
            seen[task.task_id].add(text)
            new.append(text)
        fresh.append(new)
    verdicts = list(executor.map(
        program_job(task, pair.validator.code,
                    [*task.base_tests, *(ProgramTest(text, "") for text in new)],
                    llm.validator_seconds, judged=False, fail_fast=False,
                    max_timeouts=MAX_TIMEOUTS, max_output_bytes=CHECKER_OUTPUT_BYTES)
        for (task, pair, _count, _groups), new in zip(runs, fresh, strict=True)))
    kept: dict[str, list[str]] = {task.task_id: [] for task in tasks}
    refused: dict[str, list[str]] = {task.task_id: [] for task in tasks}
    for (task, pair, _count, _groups), new, result in zip(runs, fresh, verdicts, strict=True):
        said = read_validated(len(task.base_tests), new, result)
        if said.refusal:
            refused[task.task_id].append(f"{pair.model}: {said.refusal}")
            continue
        kept[task.task_id] += said.accepted
        counts[task.task_id].update(validator_rejected=said.rejected,
                                    validator_failed=said.failed)
    return {task.task_id: LlmCandidates(tuple(kept[task.task_id]),
                                        _nonzero(dict(counts[task.task_id])),
                                        "; ".join(refused[task.task_id]))
            for task in tasks if task.task_id in pairs}


def skipped(task: ProgramTask, config: ProgramAugmentConfig, refusal: str = "") -> bool:
    """Whether the task gets no new test whatever its inputs: its checker is not to be
    trusted (``refusal``), or its outputs need one it does not have."""
    return bool(refusal) or (MULTIPLE_ANSWERS_FLAG in task.flags
                             and not (config.multiple_answers or task.checker))


def _prepare(task: ProgramTask, config: ProgramAugmentConfig, planner: Planner,
             generator: Generator, refusal: str = "",
             llm: LlmCandidates | None = None) -> _Pending:
    """Plan the task and make its candidates (in the parent), its LLM inputs (``llm``)
    after its generator's where its plan admits them; no run yet. ``refusal`` is why its
    checker is not to be trusted (:func:`try_checkers`), if it is not."""
    began = time.perf_counter()
    if refusal:
        return _Pending(task, None, Screened(()), ProgramTaskReport(
            task.task_id, BAD_CHECKER, refusal))
    if skipped(task, config):
        return _Pending(task, None, Screened(()), ProgramTaskReport(
            task.task_id, MULTIPLE_ANSWERS, "its outputs need a checker program"))
    seeds = [test.input for test in task.base_tests]
    llm = llm or LlmCandidates()
    asked = [ProgramInput(text, LLM) for text in llm.texts]
    try:
        plan = planner(task)
        if plan.contract is None:
            counts = {**llm.counts, "admitted": len(llm.texts)}
            if not asked:
                return _Pending(task, None, Screened(()), ProgramTaskReport(
                    task.task_id, NO_GRAMMAR, plan.reason or "no reason given", len(seeds),
                    llm=_nonzero(counts), llm_refused=llm.refused))
            # No plan: the LLM's validator, tried on the public inputs, is the only check.
            screened = screen(asked, seeds, lambda _text: None)
            return _Pending(task, None, screened, ProgramTaskReport(
                task.task_id, AUGMENTED, f"no input plan ({plan.reason or 'no reason'}): "
                "the inputs are the LLM's generator's, checked by its validator only",
                seeds=len(seeds), llm=_nonzero(counts), llm_refused=llm.refused,
                seconds={"generate": round(time.perf_counter() - began, 3)}))
        made = generator(plan, seeds, task_rng(config.seed, task.task_id), config.count)
        screened = screen(made, seeds, plan.violation)
        extra = screen(asked, [*seeds, *(item.text for item in made)], plan.violation)
    except Exception as exc:
        exc.add_note(f"while planning the inputs of {task.task_id}")
        raise
    inputs = screened.inputs + extra.inputs
    counts = {**llm.counts, "repeated": llm.counts.get("repeated", 0) + extra.repeated,
              "plan_rejected": extra.violations, "admitted": len(extra.inputs)}
    report = ProgramTaskReport(
        task.task_id, AUGMENTED if inputs else NO_INPUTS,
        "" if inputs else "the generator made no input the plan admits",
        seeds=len(seeds), candidates=len(made),
        violations=screened.violations, repeated=screened.repeated,
        shown_violations=screened.shown,
        seconds={"generate": round(time.perf_counter() - began, 3)},
        llm=_nonzero(counts) if llm.counts else {}, llm_refused=llm.refused)
    return _Pending(task, plan.contract, replace(screened, inputs=inputs), report)


def _nonzero(counts: dict[str, int]) -> dict[str, int]:
    """The counts not 0, in :data:`LLM_COUNTS`' order."""
    return {name: counts[name] for name in LLM_COUNTS if counts.get(name)}


def _finish(pending: _Pending, config: ProgramAugmentConfig) -> TaskTests:
    """A task whose every job came back: its new tests and its report."""
    report = pending.report
    if report.outcome not in (AUGMENTED, NO_INPUTS):
        return TaskTests((), None, report)
    error = next((result.load.error or result.load.status.value for result in pending.results
                  if result.load.status is not Status.OK), "")
    outcomes = aligned(pending.jobs, [result.outcomes for result in pending.results],
                       len(pending.screened.inputs))
    if pending.timings is not None:
        kept = pending.timings
        report = replace(report, replay_missed=sum(
            kept.kept(candidate.text) and outcome.status is not Status.OK
            for candidate, outcome in zip(pending.screened.inputs, outcomes, strict=True)))
        outcomes = replayed(pending.screened.inputs, outcomes, kept, config.time_limit)
    got = answers(pending.screened.inputs, outcomes)
    stress = sum(new.test.origin == STRESS_ORIGIN for new in got.tests)
    if report.llm:
        report = replace(report, llm=_nonzero(
            {**report.llm, "tests": sum(new.kind == LLM for new in got.tests)}))
    seconds = {**report.seconds, "reference": round(sum(o.seconds for o in outcomes), 4),
               "reference_max": round(max((o.seconds for o in outcomes), default=0.0), 4)}
    raised = got.dropped.get(Drop.RUNTIME_ERROR.value, 0)
    # where every fact of the plan is the statement's, the reference is wrong on the
    # inputs it raised on (the audit's witness), and its other answers stand as tests
    raised_on_admitted = refuted(got)
    wrong = raised_on_admitted and bool((pending.contract or {}).get("stated"))
    if raised_on_admitted and not wrong:
        return TaskTests((), pending.contract, replace(
            report, outcome=REFUTED,
            reason=f"the reference raised on {raised} of {len(outcomes)} admitted inputs",
            witness=got.witness or "", dropped=got.dropped,
            reference_error=error[:200], seconds=seconds), dict(got.timed_drops),
            {input_key(new.test.input): new.seconds for new in got.tests})
    if wrong:
        report = replace(report, witness=got.witness or "", reason=(
            f"the reference raised on {raised} of {len(outcomes)} inputs the statement "
            "admits (its plan keeps nothing else): a wrong reference, those inputs no test"))
    return TaskTests(got.tests, pending.contract, replace(
        report, plus=len(got.tests) - stress, stress=stress, dropped=got.dropped,
        stressed=got.stressed, reference_error=error[:200], seconds=seconds),
        dict(got.timed_drops))


class _Run:
    """The tasks left to do, as one stream of sandbox jobs (planned as the sandbox asks for
    more) and the tasks it made whose results are still coming."""

    def __init__(self, tasks: Sequence[ProgramTask], config: ProgramAugmentConfig,
                 planner: Planner, generator: Generator,
                 refusals: dict[str, str] | None = None,
                 llm: dict[str, LlmCandidates] | None = None,
                 timings: Mapping[str, Timings] | None = None) -> None:
        self.tasks, self.config = tasks, config
        self.planner, self.generator = planner, generator
        self.refusals = refusals or {}
        self.llm = llm or {}
        self.timings = timings or {}
        self.pending: deque[_Pending] = deque()

    def jobs(self) -> Iterator[Job]:
        """Each task's jobs, planning it when the sandbox asks for its first."""
        for task in self.tasks:
            pending = _prepare(task, self.config, self.planner, self.generator,
                               self.refusals.get(task.task_id, ""),
                               self.llm.get(task.task_id))
            if task.task_id in self.timings:
                pending = replace(pending, timings=self.timings[task.task_id])
            self.pending.append(pending)
            inputs = pending.screened.inputs
            for places in pending.jobs:
                tests = [ProgramTest(inputs[place].text, "") for place in places]
                yield program_job(task, task.solution, tests,
                                  pending.budget(self.config.time_limit),
                                  judged=False, fail_fast=False,
                                  max_timeouts=MAX_TIMEOUTS,
                                  max_output_bytes=self.config.max_output_bytes)

    def settled(self) -> Iterator[_Pending]:
        """The tasks at the front whose every job came back, in order."""
        while self.pending and self.pending[0].complete:
            yield self.pending.popleft()

    def take(self, result: JobResult) -> None:
        """The next job's result: it belongs to the first task still waiting for one."""
        waiting = next(p for p in self.pending if not p.complete)
        waiting.results.append(result)


def run_augment_programs(
        records: Sequence[tuple[ProgramTask, dict[str, Any]]], config: ProgramAugmentConfig,
        out: Path, backend: Backend = LOCAL, progress: Progress | None = None,
        planner: Planner | None = None, generator: Generator | None = None,
        executor: Executor | None = None, rule: LimitRule | None = DEFAULT_RULE,
        timing: Progress | None = None,
        llm_pairs: Mapping[str, Sequence[GeneratorPair]] | None = None,
        llm: LlmConfig | None = None,
        timings: Mapping[str, TaskTimings] | None = None) -> ProgramAugmentSummary:
    """Augment each program task of ``records`` (a task and its line as read, file order),
    resuming from checkpoints in ``out``; give each new test its time limit by ``rule``
    (none where ``rule`` is None); write ``out/ProgramsPlus.jsonl.gz`` (every task's
    line, its new tests appended), ``out/stats.json`` and ``out/reference-seconds.json``.
    ``planner`` and ``generator`` default to :mod:`evalplus_ng.generate.programs.planner`'s
    (looked up when called). The reference runs on ``executor`` where given, else on
    ``backend``'s sandbox (started only when something must run). ``progress`` counts
    the tasks augmented, ``timing`` those whose limits are set. ``llm_pairs`` are the
    generators and validators a model wrote, by task id, run as ``llm`` says. ``timings``
    (an earlier run's :data:`SECONDS_FILE`, by task id) replays what the reference's time
    decided there: the same drops, seconds and slowest runs for the same inputs."""
    began = time.perf_counter()
    planner = planner or stdin_planner.plan_for
    generator = generator or stdin_planner.program_inputs
    out.mkdir(parents=True, exist_ok=True)
    code = code_digest(planner, generator)
    llm_pairs = {task_id: pairs for task_id, pairs in (llm_pairs or {}).items() if pairs}
    llm = llm or LlmConfig()
    keys = {task.task_id: fingerprint(config, record, code) for task, record in records}
    for task_id, pairs in llm_pairs.items():
        if task_id in keys:  # only the tasks with LLM programs depend on them
            keys[task_id] = digest(keys[task_id], json.dumps(asdict(llm), sort_keys=True),
                                   *(pair.key() for pair in pairs))
    timings = {task_id: entry for task_id, entry in (timings or {}).items() if task_id in keys}
    for task_id, entry in timings.items():  # a replayed task depends on what it replays
        keys[task_id] = digest(keys[task_id], "timings",
                               json.dumps(entry.document(), sort_keys=True))
    done, todo = resume_tasks(
        records, lambda task: load_checkpoint(checkpoint_path(out, task.task_id),
                                              keys[task.task_id]), progress)
    resumed = len(done)
    timed: dict[str, TaskLimits] = {}
    with contextlib.ExitStack() as stack:
        opened: list[Executor] = []

        def sandbox() -> Executor:
            """The executor, started on first use."""
            if not opened:
                context: contextlib.AbstractContextManager[Executor] = (
                    contextlib.nullcontext(executor) if executor is not None
                    else backend.executor(Limits(), []))
                opened.append(stack.enter_context(context))
            return opened[0]

        if todo:
            _augment(todo, config, planner, generator, sandbox(), out, keys, done,
                     lambda: progress(len(done), len(records)) if progress else None,
                     llm_pairs, llm, {task_id: entry.timings()
                                      for task_id, entry in timings.items()})
        if rule is not None:
            known = {task_id: found for task_id, entry in timings.items() if (
                found := entry.limits_for(done[task_id].tests, rule)) is not None}
            timed = calibrate_program_tests(
                [(task, done[task.task_id].tests) for task, _record in records], rule, out,
                sandbox, timing, known)
        nodes = dict(getattr(opened[0], "nodes", {})) if opened else {}
    limited = {task_id: [replace(new.test, time_limit=limit) for new, limit
                         in zip(done[task_id].tests, limits.limits, strict=True)]
               for task_id, limits in timed.items()}
    artifact = out / ARTIFACT
    write_program_file([augmented_record(
        record, limited.get(task.task_id, [new.test for new in done[task.task_id].tests]),
        done[task.task_id].contract) for task, record in records], artifact)
    reports = tuple(done[task.task_id].report for task, _record in records)
    in_order = tuple(timed[task.task_id] for task, _record in records if task.task_id in timed)
    stats = out / "stats.json"
    write_json(stats, stats_document(reports, config, rule, in_order,
                                     llm if llm_pairs else None))
    seconds_file = out / SECONDS_FILE
    write_timings(seconds_file, config.time_limit, rule, [task_timings(
        task.task_id, done[task.task_id].tests, done[task.task_id].timed_drops,
        done[task.task_id].answered,
        timed.get(task.task_id)) for task, _record in records])
    return ProgramAugmentSummary(artifact, stats, seconds_file, reports, resumed,
                                 time.perf_counter() - began, rule, in_order, nodes,
                                 len(timings))


def _augment(todo: Sequence[ProgramTask], config: ProgramAugmentConfig, planner: Planner,
             generator: Generator, sandbox: Executor, out: Path, keys: dict[str, str],
             done: dict[str, TaskTests], step: Callable[[], None],
             llm_pairs: Mapping[str, Sequence[GeneratorPair]] | None = None,
             llm: LlmConfig | None = None,
             timings: Mapping[str, Timings] | None = None) -> None:
    """Augment the tasks ``todo`` on ``sandbox``, checkpointing each as it settles into
    ``done`` (read back from its checkpoint) and calling ``step`` then; the tasks with
    ``llm_pairs`` get their inputs first (:func:`llm_candidates`); those with ``timings``
    replay them."""
    refusals = try_checkers(todo, sandbox)
    pairs = llm_pairs or {}
    asked = [task for task in todo if task.task_id in pairs
             and not skipped(task, config, refusals.get(task.task_id, ""))]
    found = (llm_candidates(asked, pairs, config, llm or LlmConfig(), sandbox)
             if asked else {})
    run = _Run(todo, config, planner, generator, refusals, found, timings)

    def settle() -> None:
        for pending in run.settled():
            path = checkpoint_path(out, pending.task.task_id)
            save_checkpoint(path, keys[pending.task.task_id], _finish(pending, config))
            # Read back, so that a run and its resumption build the file from the same data.
            loaded = load_checkpoint(path, keys[pending.task.task_id])
            assert loaded is not None, f"{pending.task.task_id}: checkpoint unreadable"
            done[pending.task.task_id] = loaded
            step()

    for result in sandbox.map(run.jobs()):
        settle()
        run.take(result)
        settle()
    settle()


def totals(reports: Sequence[ProgramTaskReport]) -> dict[str, Any]:
    """The run's counts over every task: tasks by outcome, candidates, violations, tests
    kept per tier, inputs dropped by reason and sent to stress by reason."""
    dropped: Counter[str] = Counter()
    stressed: Counter[str] = Counter()
    llm: Counter[str] = Counter()
    for report in reports:
        dropped.update(report.dropped)
        stressed.update(report.stressed)
        llm.update(report.llm)
    with_llm = [report for report in reports if report.llm or report.llm_refused]
    return {
        "tasks": dict(sorted(Counter(report.outcome for report in reports).items())),
        "candidates": sum(report.candidates for report in reports),
        "violations": sum(report.violations for report in reports),
        "repeated": sum(report.repeated for report in reports),
        "plus": sum(report.plus for report in reports),
        "stress": sum(report.stress for report in reports),
        "dropped": dict(sorted(dropped.items())),
        "stressed": dict(sorted(stressed.items())),
        "reference_seconds": round(sum(report.seconds.get("reference", 0.0)
                                       for report in reports), 1),
        "generate_seconds": round(sum(report.seconds.get("generate", 0.0)
                                      for report in reports), 1),
        **({"llm": {"tasks": len(with_llm),
                    "refused": sum(bool(report.llm_refused) for report in with_llm),
                    **_nonzero(dict(llm))}} if with_llm else {}),
    }


def limit_totals(limits: Sequence[TaskLimits]) -> dict[str, Any]:
    """The new tests' limits over every task: tests by limit (seconds, ascending), tests
    timed again or estimated from those, and tests with a run that timed out or that was
    unstable."""
    by_limit = Counter(limit for task in limits for limit in task.limits)
    return {"tests": sum(by_limit.values()),
            "by_limit": {f"{limit:g}": n for limit, n in sorted(by_limit.items())},
            "repeated": sum(task.timed.repeated for task in limits),
            "estimated": sum(task.timed.estimated for task in limits),
            "timeouts": sum(task.timed.timeouts for task in limits),
            "unstable": sum(task.timed.unstable for task in limits)}


def stats_document(reports: Sequence[ProgramTaskReport], config: ProgramAugmentConfig,
                   rule: LimitRule | None = None,
                   limits: Sequence[TaskLimits] = (),
                   llm: LlmConfig | None = None) -> dict[str, Any]:
    """stats.json: the configuration, the totals and every task's report; with a ``rule``,
    how the new tests' limits came out (``limits``: the rule, totals and the tasks with a
    test timed again, with their slowdown); with ``llm``, how LLM generators ran."""
    document: dict[str, Any] = {"kind": STATS_KIND, "config": asdict(config),
                                **({"llm_config": asdict(llm)} if llm is not None else {}),
                                "totals": totals(reports),
                                "tasks": [asdict(report) for report in reports]}
    if rule is not None:
        document["limits"] = {
            "rule": {**asdict(rule), "words": rule.words()}, "totals": limit_totals(limits),
            "tasks": {task.task_id: {"repeated": timed.repeated, "estimated": timed.estimated,
                                     "slowdown": round(timed.slowdown, 3),
                                     "timeouts": timed.timeouts, "unstable": timed.unstable}
                      for task in limits if (timed := task.timed).repeated}}
    return document


def _table(counts: Sequence[int]) -> str:
    if not counts:
        return "none"
    ordered = sorted(counts)
    middle = ordered[len(ordered) // 2]
    return (f"avg {sum(counts) / len(counts):.1f}, median {middle}, min {ordered[0]}, "
            f"max {ordered[-1]}")


def _witnesses(reports: Sequence[ProgramTaskReport]) -> str:
    """The first few tasks with their witnesses, for a summary line."""
    return ("; ".join(f"{report.task_id} {report.witness[:40]!r}" for report in reports[:5])
            + ("; ..." if len(reports) > 5 else "") + " (all in stats.json)")


def summary_lines(summary: ProgramAugmentSummary) -> list[str]:
    """What a run did, on one screen: tasks by outcome, candidates and where they went,
    tests per task, time, the files written and why tasks got no new tests."""
    reports, sums = summary.reports, totals(summary.reports)
    by = Counter(report.outcome for report in reports)
    augmented = [report for report in reports if report.outcome == AUGMENTED]
    lines = [f"{len(reports)} tasks: {by[AUGMENTED]} augmented ({summary.resumed} from "
             f"checkpoints), {by[NO_GRAMMAR]} without an input grammar, {by[NO_INPUTS]} "
             f"with no new input made, {by[REFUTED]} whose plan the reference refuted (it "
             "raised on an admitted input: no new test kept), "
             f"{by[MULTIPLE_ANSWERS]} skipped as multiple answers suspected (their outputs "
             "need a checker program they do not have; --include-multiple-answers augments "
             "them on the reference's own answer)"
             + (f", {by[BAD_CHECKER]} skipped as their checker did not accept the "
                "reference's outputs on the public tests" if by[BAD_CHECKER] else "")]
    stressed = ", ".join(f"{why} {n}" for why, n in sums["stressed"].items())
    kept = sums["plus"] + sums["stress"]
    admitted = sums.get("llm", {}).get("admitted", 0)
    lines.append(f"candidates: {sums['candidates']} made"
                 + (f" and {admitted} from LLM generators" if admitted else "")
                 + f", {kept} kept: plus {sums['plus']}, stress {sums['stress']}"
                 + (f" ({stressed})" if stressed else ""))
    dropped = ", ".join(f"{why} {n}" for why, n in sums["dropped"].items()) or "none"
    lines.append(f"dropped by the reference: {dropped}; repeated or a seed: "
                 f"{sums['repeated']}; violations of the plan: {sums['violations']}")
    lines.append(f"new tests per augmented task: plus {_table([r.plus for r in augmented])}; "
                 f"stress {_table([r.stress for r in augmented])}")
    slowest = max(augmented, key=lambda r: r.seconds.get("reference", 0.0), default=None)
    lines.append(
        f"seconds: reference runs {sums['reference_seconds']}"
        + (f" (most: {slowest.task_id} {slowest.seconds.get('reference', 0.0):.1f})"
           if slowest is not None else "")
        + f", planning and generating {sums['generate_seconds']}, wall "
          f"{summary.wall_seconds:.1f}")
    if "llm" in sums:
        lines.append(llm_line(sums["llm"]))
    reasons = Counter(report.reason for report in reports if report.outcome == NO_GRAMMAR)
    if reasons:
        lines.append("no input grammar: " + "; ".join(
            f"{reason} ({n})" for reason, n in reasons.most_common(5))
            + ("; ..." if len(reasons) > 5 else ""))
    wrong = [report for report in reports if report.outcome == AUGMENTED and report.witness]
    if wrong:
        lines.append("references raising on inputs their statement admits (the inputs no "
                     "test; the shortest): " + _witnesses(wrong))
    refuted_tasks = [report for report in reports if report.outcome == REFUTED]
    if refuted_tasks:
        lines.append("refuted plans (the shortest input the reference raised on): "
                     + _witnesses(refuted_tasks))
    if summary.rule is not None:
        sums = limit_totals(summary.limits)
        spread = ", ".join(f"{n} at {limit} s" for limit, n in sums["by_limit"].items())
        lines.append(f"time limits of the new tests ({summary.rule.words()}): "
                     f"{spread or 'no new test'}; {sums['repeated']} timed again, "
                     f"{sums['estimated']} estimated from those"
                     + (f", {sums['timeouts']} with a run over its limit"
                        if sums["timeouts"] else ""))
    if summary.replayed:
        missed = sum(report.replay_missed for report in reports)
        lines.append(f"timings replayed for {summary.replayed} tasks (--timings): their drops "
                     "for time, seconds and slowest runs as recorded"
                     + (f"; {missed} kept input(s) not answered now (see the warnings)"
                        if missed else ""))
    lines.append(f"wrote {summary.artifact}, {summary.stats} and {summary.seconds_file}")
    return lines


def llm_line(counts: dict[str, int]) -> str:
    """The LLM generators' line of the summary (``counts``: :func:`totals`' ``llm``)."""
    failed = ", ".join(f"{why} {counts[why]}" for why in LLM_COUNTS[2:9] if counts.get(why))
    return (f"LLM generators ({counts['tasks']} tasks, {counts['refused']} with a pair "
            f"refused): {counts.get('runs', 0)} runs, {counts.get('printed', 0)} inputs "
            f"printed" + (f" (no input: {failed})" if failed else "")
            + f", {counts.get('repeated', 0)} repeated; rejected by the LLM's validator "
              f"{counts.get('validator_rejected', 0)} (it failed on "
              f"{counts.get('validator_failed', 0)}), by the plan "
              f"{counts.get('plan_rejected', 0)}; {counts.get('admitted', 0)} admitted by "
              f"both, {counts.get('tests', 0)} kept as tests")


def warning_lines(reports: Sequence[ProgramTaskReport],
                  limits: Sequence[TaskLimits] = ()) -> list[str]:
    """What must not happen, one line each: candidates the plan's own validator refuses,
    references that do not load, checkers that reject the reference's output, LLM
    validators that reject a public input (their pairs refused), inputs a replayed
    timings file kept that the reference did not answer, references that answered a
    test otherwise when timed again."""
    lines = []
    for report in reports:
        if report.violations:
            lines.append(f"{report.task_id}: {report.violations} candidate(s) violate the "
                         f"task's input plan (dropped): " + "; ".join(report.shown_violations))
        if report.reference_error:
            lines.append(f"{report.task_id}: the reference did not load: "
                         f"{report.reference_error}")
        if report.outcome == BAD_CHECKER:
            lines.append(f"{report.task_id}: skipped: {report.reason}")
        if report.llm_refused:
            lines.append(f"{report.task_id}: LLM generator and validator refused: "
                         f"{report.llm_refused}")
        if report.replay_missed:
            lines.append(f"{report.task_id}: {report.replay_missed} input(s) the timings file "
                         "kept were not answered now (not replayed as recorded)")
    return lines + [f"{task.task_id}: the reference did not answer {task.timed.unstable} new "
                    "test(s) the same way when timed again (their expected outputs may not "
                    "be the only right ones)" for task in limits if task.timed.unstable]
