"""Run a task's ground truth on its inputs to get expected outputs and reference times."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from evalplus_ng import judge
from evalplus_ng.jobs import task_job
from evalplus_ng.protocols import Executor
from evalplus_ng.records import (
    NOT_NONE,
    Fault,
    Job,
    JobResult,
    Status,
    Task,
)
from evalplus_ng.serialize import Unjudgeable, decode, encode
from evalplus_ng.tasks.sources import OwnAssert
from evalplus_ng.types import Args, TaskId, Wire

#: How long the ground truth may take on one input before the input is dropped.
GROUND_TRUTH_SECONDS = 20.0


@dataclass(frozen=True)
class Expected:
    """Expected outputs of one input set; ``None`` where the ground truth failed."""

    outputs: tuple[Wire, ...]
    seconds: tuple[float, ...]
    failures: tuple[str, ...]

    @property
    def usable(self) -> tuple[int, ...]:
        """Indices of inputs the ground truth answered (the others cannot judge)."""
        return tuple(i for i, failure in enumerate(self.failures) if not failure)


@dataclass(frozen=True)
class GroundTruth:
    """Expected outputs of a task's base and plus inputs."""

    task_id: TaskId
    base: Expected
    plus: Expected


def _expected(result: JobResult, count: int) -> Expected:
    outputs: list[Wire] = []
    seconds: list[float] = []
    failures: list[str] = []
    for index in range(count):
        outcome = result.outcomes[index] if index < len(result.outcomes) else None
        if result.load.status is not Status.OK:
            failures.append(f"ground truth does not load: {result.load.error}")
        elif outcome is None:
            failures.append("ground truth did not run")
        elif outcome.status is not Status.OK:
            failures.append(f"ground truth {outcome.status.value}: {outcome.error}")
        else:
            failures.append("")
        ok = outcome is not None and outcome.status is Status.OK
        outputs.append(outcome.value if ok and outcome is not None else None)
        seconds.append(outcome.seconds if outcome is not None else 0.0)
    return Expected(tuple(outputs), tuple(seconds), tuple(failures))


def ground_truth_job(task: Task, inputs: Sequence[Args], seconds: float = GROUND_TRUTH_SECONDS,
                     max_lines: int | None = None, twice: bool = False, code: str | None = None,
                     max_output_bytes: int | None = None) -> Job:
    """A job running trusted code (the task's ground truth, or ``code``) on ``inputs``."""
    return task_job(task, task.solution if code is None else code, inputs, seconds,
                    max_lines=max_lines, twice=twice, max_output_bytes=max_output_bytes,
                    batch=True)  # trusted code: outcomes may travel in batches


@dataclass(frozen=True)
class Oracle:
    """The ground truth's verdict on candidate inputs: which to keep, and why others went."""

    kept: tuple[int, ...]
    outputs: tuple[Wire, ...]
    seconds: tuple[float, ...]
    dropped: dict[str, int]


def _passes_own_oracle(task: Task, args: Args, output: Wire) -> bool:
    """Does the ground truth's output pass the task's special oracle (e.g. HumanEval/32's
    ``|poly(x)| <= atol``)? An input on which it does not would fail the reference itself."""
    try:
        value = decode(output)
        return judge.check(task.oracle, args, value, value, task.atol, task.equality)
    except Unjudgeable:  # members built to collide: no sample could be judged on it
        return False


def oracle(task: Task, inputs: Sequence[Args], executor: Executor, seconds: float,
           max_lines: int | None = None, runs: int = 2,
           max_output_bytes: int | None = None) -> Oracle:
    """Run the ground truth on each input; keep inputs it answers within budget, the same
    way on a second call (``runs`` 2; 1 skips that check).

    One sandbox job: the child calls the ground truth twice per input, each time on a
    fresh copy of the arguments, and compares the outputs' texts (so global state,
    randomness and argument mutation show as instability). With ``max_lines``, the
    first call runs the rewritten, counting code of :mod:`evalplus_ng.sandbox.linecount`:
    inputs on which the ground truth does more work than that (executed lines, plus
    the C-level work they hide, priced from the operands before it runs:
    :mod:`evalplus_ng.sandbox.ccost`) stop at the budget and are dropped as too expensive. A
    machine-independent bound: which inputs are kept does not depend on the machine
    or its load, so the same seed gives the same suite; only the second, plain call
    is timed. ``seconds`` is the limit per call, a backstop for work the prices miss
    (with ``max_lines``, the counted call of an input within budget takes a small
    fraction of a second). A task with a special oracle (HumanEval/32) also drops
    inputs whose output fails that oracle: the reference itself would fail them. With
    ``max_output_bytes``, inputs whose output is longer than that (as wire text) are
    dropped: a suite's outputs are compared for every sample judged. ``kept`` indexes
    ``inputs``; ``outputs`` and ``seconds`` (the plain call's) follow ``kept``.
    """
    if runs not in (1, 2):
        raise ValueError(f"runs must be 1 or 2, not {runs}")
    result = executor.run(ground_truth_job(
        task, inputs, seconds * runs, max_lines, twice=runs == 2,
        max_output_bytes=max_output_bytes))
    answers = _expected(result, len(inputs))
    kept: list[int] = []
    outputs: list[Wire] = []
    times: list[float] = []
    dropped: dict[str, int] = {}
    for index, failure in enumerate(answers.failures):
        if failure:
            reason = drop_reason(result, index)
            dropped[reason] = dropped.get(reason, 0) + 1
            continue
        output = answers.outputs[index]
        if task.oracle and not _passes_own_oracle(task, inputs[index], output):
            dropped["own-oracle"] = dropped.get("own-oracle", 0) + 1
            continue
        kept.append(index)
        outputs.append(output)
        times.append(answers.seconds[index])
    return Oracle(tuple(kept), tuple(outputs), tuple(times), dropped)


#: Why an input is dropped, by the fault of the ground truth's call (else "raises").
_DROPPED_FOR: dict[Fault | None, str] = {Fault.COST: "expensive",
                                         Fault.TOO_LARGE: "large-output",
                                         Fault.UNSTABLE: "unstable"}


def drop_reason(result: JobResult, index: int) -> str:
    """Why the ground truth gives no expected output for input ``index`` of ``result``'s
    job: ``expensive``, ``large-output``, ``unstable``, ``timeout`` or ``raises`` (it
    raised, crashed, did not load or did not reach the input)."""
    if result.load.status is not Status.OK or index >= len(result.outcomes):
        return "raises"
    outcome = result.outcomes[index]
    if outcome.status is Status.TIMEOUT:
        return "timeout"
    return _DROPPED_FOR.get(outcome.fault, "raises")


#: Characters of a reference's answer an own-assert failure shows.
SHOWN_ANSWER = 80


def own_assert_failure(task: Task, asserts: Sequence[OwnAssert], executor: Executor,
                       seconds: float, max_lines: int | None = None) -> str | None:
    """The first of the task's own ``asserts`` (one per base input, in order) that its
    ground truth fails, and how, as one line; None where each passes, or cannot be told
    (an input the ground truth does not answer within budget, a test naming more than
    the call)."""
    if not asserts or len(asserts) != len(task.base_inputs):
        return None
    result = executor.run(ground_truth_job(task, task.base_inputs, seconds, max_lines))
    if result.load.status is not Status.OK:
        return None  # the run fails for all to see, with its own message
    for own, outcome in zip(asserts, result.outcomes, strict=False):
        if outcome.status is Status.ERROR and outcome.fault is Fault.RAISED:
            return contradiction(task, own, f"raises {outcome.error}")
        if outcome.status is Status.OK:
            failure = answer_failure(task, own, outcome.value)
            if failure is not None:
                return failure
    return None


def answer_failure(task: Task, own: OwnAssert, output: Wire) -> str | None:
    """:func:`contradiction` where the ground truth's answer ``output`` fails ``own``
    (one of the task's own asserts); None where it passes or cannot be told."""
    try:
        value = decode(output)
    except ValueError:
        return None
    return contradiction(task, own, f"returns {value!r}") if own.fails_on(value) else None


def contradiction(task: Task, own: OwnAssert, answer: str) -> str:
    """One line: the task's own assert ``own`` fails on its reference, which ``answer``
    (``returns 4``, ``raises ValueError: ...``, cut at :data:`SHOWN_ANSWER` characters)."""
    if len(answer) > SHOWN_ANSWER:
        answer = answer[:SHOWN_ANSWER] + "..."
    return (f"task {task.task_id}: its test `{own.text}` fails on the reference, which "
            f"{answer} (the reference's answers are the expected outputs: fix the test "
            "or the reference)")


#: Entry point of a job that runs several tasks' ground truths (see :func:`_batch_job`).
BATCH_ENTRY_POINT = "__evalplus_ng_ground_truths__"

# Loads each program in a namespace of its own; the entry point calls program ``index``.
# A program that does not load raises on each of its inputs instead of failing the batch.
_BATCH_LOADER = """
def _load(programs):
    functions = []
    for code, entry_point, truth in programs:
        namespace = {"__name__": "__sample__"}
        try:
            exec(compile(code, "<ground truth>", "exec"), namespace)
            function = namespace[entry_point]
            functions.append(_truth_of(function) if truth else function)
        except BaseException as exc:
            functions.append(ImportError(
                f"ground truth does not load: {type(exc).__name__}: {str(exc)[:200]}"))
    return functions


def _truth_of(function):
    def truth(*args):
        value = function(*args)
        return value if type(value) is bool else value is not None
    return truth


_FUNCTIONS = _load(_PROGRAMS)
del _load, _PROGRAMS, _truth_of


def __evalplus_ng_ground_truths__(index, *args):
    function = _FUNCTIONS[index]
    if isinstance(function, BaseException):
        raise function
    return function(*args)
"""


def _batch_job(tasks: Sequence[Task], inputs: Sequence[Sequence[Args]]) -> Job:
    """One job running each task's ground truth on its inputs, task after task."""
    # A not-None task's output is what its own job's child sends (records.NOT_NONE).
    programs = [(task.solution, task.entry_point, task.oracle == NOT_NONE) for task in tasks]
    wires = [encode([index, *args]) for index, group in enumerate(inputs) for args in group]
    return Job(
        code=f"_PROGRAMS = {programs!r}\n{_BATCH_LOADER}",
        entry_point=BATCH_ENTRY_POINT,
        inputs=wires,
        time_limits=[GROUND_TRUTH_SECONDS] * len(wires),
        task_id=",".join(task.task_id for task in tasks),
        batch=True,
    )


def _slice(result: JobResult, start: int, stop: int) -> JobResult:
    return JobResult(result.load, result.outcomes[start:stop])


def run_ground_truth(
    tasks: Sequence[Task],
    executor: Executor,
    on_done: Callable[[TaskId], None] | None = None,
    tasks_per_job: int = 1,
) -> dict[TaskId, GroundTruth]:
    """Expected outputs for every task's base and plus inputs.

    With ``tasks_per_job`` 1, one sandbox job per input set. With more, the ground
    truths of that many consecutive tasks share one job (one process, as EvalPlus
    runs them all in one; each loads in a namespace of its own): far fewer
    processes to start, for trusted code.
    """
    if tasks_per_job > 1:
        return _run_batched(tasks, executor, on_done, tasks_per_job)
    jobs: list[Job] = []
    for task in tasks:
        jobs.append(ground_truth_job(task, task.base_inputs))
        jobs.append(ground_truth_job(task, task.plus_inputs))
    results = list(executor.map(jobs))
    truths: dict[TaskId, GroundTruth] = {}
    for position, task in enumerate(tasks):
        base, plus = results[2 * position], results[2 * position + 1]
        truths[task.task_id] = GroundTruth(
            task.task_id,
            _expected(base, len(task.base_inputs)),
            _expected(plus, len(task.plus_inputs)),
        )
        if on_done is not None:
            on_done(task.task_id)
    return truths


def _run_batched(tasks: Sequence[Task], executor: Executor,
                 on_done: Callable[[TaskId], None] | None,
                 tasks_per_job: int) -> dict[TaskId, GroundTruth]:
    batches = [list(tasks[i:i + tasks_per_job]) for i in range(0, len(tasks), tasks_per_job)]
    jobs = [_batch_job(batch, [(*t.base_inputs, *t.plus_inputs) for t in batch])
            for batch in batches]
    truths: dict[TaskId, GroundTruth] = {}
    for batch, result in zip(batches, executor.map(jobs), strict=True):
        start = 0
        for task in batch:
            middle = start + len(task.base_inputs)
            stop = middle + len(task.plus_inputs)
            truths[task.task_id] = GroundTruth(
                task.task_id,
                _expected(_slice(result, start, middle), len(task.base_inputs)),
                _expected(_slice(result, middle, stop), len(task.plus_inputs)),
            )
            start = stop
            if on_done is not None:
                on_done(task.task_id)
    return truths
