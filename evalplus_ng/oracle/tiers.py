"""Sort a task's new inputs into tiers: plus (correctness), stress (efficiency), edge.

A plus test must fail only code that is wrong. So the plus tier holds only inputs
that a straightforward correct solution, the task's *plain reference*, answers
cheaply: within :data:`PLAIN_MAX_LINES` executed Python lines (a machine-independent
cost, about a quarter of the least time limit) and within
:data:`PLAIN_RECURSION_LIMIT` frames (a natural recursive solution then stays under
CPython's default 1,000), and only while it looks like the task's base inputs: no
argument far longer or its numbers far larger than the base inputs', no integer past
2**53 or past the float range unless a base input has one (:mod:`evalplus_ng.generate.bounds`;
the plain reference measures cost, the bounds say what the prompt's examples promise).
Scaled-up inputs and every other input go to the stress tier, judged apart as an
efficiency verdict. A task whose docstring asks for efficiency keeps everything the
ground truth answers in plus: there, slowness is a defect. Where no contract is
written, inputs that are edges of the base tests (an answer none of them has, spacing,
letter case or symbols none of their strings has: :mod:`evalplus_ng.generate.likeness`) go to a
third tier, judged apart too: a kill there rests on something the prompt never showed.

The plain reference is ``datasets/<name>/plain/<Task_N>.py`` where one is written,
else the fixed ground truth, else the dataset's own reference (it is then correct,
and polynomial by review).
"""

from __future__ import annotations

import enum
import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace

from evalplus_ng import judge
from evalplus_ng.generate import shrink
from evalplus_ng.generate.bounds import Beyond, Bounds, beyond, infer_bounds
from evalplus_ng.generate.likeness import Likeness, Unlike, unlike
from evalplus_ng.oracle.groundtruth import ground_truth_job
from evalplus_ng.protocols import Executor
from evalplus_ng.records import Fault, Outcome, Status, Task, too_costly
from evalplus_ng.serialize import decode
from evalplus_ng.tasks.sources import PlainSolution
from evalplus_ng.types import Args, TaskId, Wire

#: Executed lines the plain reference may spend on a plus input.
PLAIN_MAX_LINES = 500_000
#: Frames the plain reference may use on a plus input: CPython's default 1,000 less a
#: margin for recursive solutions that need a few more frames than it does.
PLAIN_RECURSION_LIMIT = 800
#: A safety net for work the line count does not see (big-integer or C-level loops).
PLAIN_SECONDS = 5.0
#: Elements and characters an input may hold in plus: the straightforward solution of
#: a task over a collection or a string is often quadratic (all pairs, ``count`` per
#: element), and at this size a quadratic one still stays within the line budget.
PLAIN_MAX_SIZE = math.isqrt(PLAIN_MAX_LINES)


class Why(enum.Enum):
    """Why an input went to the stress tier, or why the plain reference is in doubt."""

    SCALED_UP = "scaled-up"  #: grown by :mod:`evalplus_ng.generate.grow`
    SIZE = "plain-size"  #: more than :data:`PLAIN_MAX_SIZE` elements and characters
    COST = "plain-cost"  #: the plain reference ran out of lines or time
    DEPTH = "plain-depth"  #: the plain reference ran out of frames
    DISAGREES = "plain-disagrees"  #: plain and ground truth differ (kept in plus)
    UNCHECKED = "plain-unchecked"  #: not run: the task's allowance of costly inputs ran out
    #: Unlike the base inputs (:class:`evalplus_ng.generate.bounds.Beyond`): an integer past the
    #: float range, past 2**53, numbers or lengths far beyond the base inputs'.
    FLOAT_RANGE = Beyond.FLOAT_RANGE.value
    EXACT_FLOAT = Beyond.EXACT_FLOAT.value
    MAGNITUDE = Beyond.MAGNITUDE.value
    LENGTH = Beyond.LENGTH.value
    #: Edges (:class:`evalplus_ng.generate.likeness.Unlike`): to the edge tier, not to stress.
    EDGE_OUTPUT = Unlike.OUTPUT.value
    EDGE_ORDER = Unlike.ORDER.value
    EDGE_SPACING = Unlike.SPACING.value
    EDGE_CASE = Unlike.CASE.value
    EDGE_ALPHABET = Unlike.ALPHABET.value
    EDGE_SHAPE = Unlike.SHAPE.value


#: The reasons that send an input to the edge tier.
EDGES = frozenset(why for why in Why if why.value in {u.value for u in Unlike})


@dataclass(frozen=True)
class PlainReference:
    """The code that decides a task's tiers; ``origin`` is plain, fixed or original."""

    task_id: TaskId
    code: str
    origin: str
    efficiency: bool


def plain_reference(task: Task, plains: Mapping[TaskId, PlainSolution],
                    efficiency: Collection[TaskId]) -> PlainReference:
    """The task's plain reference (see the module docstring for the order)."""
    asks = task.task_id in efficiency
    if task.task_id in plains and not asks:
        # Appended to the prompt, as a fixed ground truth is: imports and helpers stay.
        return PlainReference(task.task_id, task.prompt + "\n\n" + plains[task.task_id].code,
                              "plain", asks)
    origin = "fixed" if task.original_solution else "original"
    return PlainReference(task.task_id, task.solution, origin, asks)


@dataclass(frozen=True)
class TierSplit:
    """Indices of the inputs per tier, and counts of the reasons (:class:`Why`); inputs
    in no tier were not checked (:data:`Why.UNCHECKED`) and are dropped."""

    plus: tuple[int, ...]
    stress: tuple[int, ...]
    reasons: dict[str, int]
    edge: tuple[int, ...] = ()


def classify(outcome: Outcome, expected: Wire, task: Task, args: Args) -> Why | None:
    """Why the plain reference's ``outcome`` on ``args`` keeps the input out of plus
    (None: it does not). A wrong answer keeps it in plus, as :data:`Why.DISAGREES`: the
    ground truth is the oracle, and the disagreement is a bug to look at."""
    if outcome.status is Status.OK:
        same = judge.check(task.oracle, args, decode(expected), decode(outcome.value),
                           task.atol, task.equality)
        return None if same else Why.DISAGREES
    if too_costly(outcome):
        return Why.COST
    if outcome.fault is Fault.RECURSION:
        return Why.DEPTH
    if outcome.status is Status.CRASH:  # out of memory on a huge intermediate value
        return Why.COST
    return Why.DISAGREES


def size(args: Args) -> int:
    """Elements of every collection and characters of every string in ``args``."""
    return shrink.cost(args)[0]


def _limited(code: str) -> str:
    """``code`` run under :data:`PLAIN_RECURSION_LIMIT` (trusted: set at load time)."""
    return (f"import sys as _tiers_sys\n_tiers_sys.setrecursionlimit({PLAIN_RECURSION_LIMIT})\n"
            f"del _tiers_sys\n{code}")


def split_tiers(task: Task, reference: PlainReference, inputs: Sequence[Args],
                expected: Sequence[Wire], scaled_up: Collection[int],
                executor: Executor, max_costly: int | None = None,
                likeness: Likeness | None = None, bounds: Bounds | None = None) -> TierSplit:
    """Sort ``inputs`` (which the ground truth answered with ``expected``) into tiers.

    ``scaled_up`` indexes inputs grown to stress size: they go to stress without a
    run, as do inputs larger than :data:`PLAIN_MAX_SIZE` and inputs unlike the base
    inputs (:func:`evalplus_ng.generate.bounds.beyond` of ``bounds``, by default those of the base
    inputs with a written contract's floor). With ``likeness`` (a task without a
    written contract), inputs that are edges of its base tests
    (:func:`evalplus_ng.generate.likeness.unlike`) go to the edge tier. The others run once through
    the plain reference, in one sandbox job. Each input the plain reference cannot do
    costs its whole line budget: with ``max_costly`` the job stops at that many such
    inputs (at least 1), and the inputs after that one are not checked, so they join
    neither tier (the stop depends on line counts only, so the split is the same on
    every machine).
    """
    reasons: dict[str, int] = {}
    if reference.efficiency:
        return TierSplit(tuple(range(len(inputs))), (), reasons)
    verdicts: dict[int, Why | None] = dict.fromkeys(scaled_up, Why.SCALED_UP)
    bounds = bounds if bounds is not None else infer_bounds(task.base_inputs, task.prompt)
    for index, args in enumerate(inputs):
        if index in verdicts:
            continue
        if size(args) > PLAIN_MAX_SIZE:
            verdicts[index] = Why.SIZE
        elif (far := beyond(bounds, args)) is not None:
            verdicts[index] = Why(far.value)
        elif likeness is not None and (odd := unlike(likeness, args,
                                                     decode(expected[index]))) is not None:
            verdicts[index] = Why(odd.value)
    tried = [i for i in range(len(inputs)) if i not in verdicts]
    if tried:
        # Lines count from the first call: a plain reference far over the budget (trial
        # division of a 12-digit prime) then stops at the budget, not at the time limit.
        job = replace(ground_truth_job(task, [inputs[i] for i in tried], PLAIN_SECONDS,
                                       PLAIN_MAX_LINES, code=_limited(reference.code)),
                      max_timeouts=None if max_costly is None else max(1, max_costly))
        result = executor.run(job)
        for position, index in enumerate(tried):
            if result.load.status is not Status.OK:
                outcome = Outcome(Status.ERROR, error=f"plain reference does not load: "
                                                      f"{result.load.error}",
                                  fault=Fault.NOT_LOADED)
            elif position < len(result.outcomes):
                outcome = result.outcomes[position]
            elif max_costly is not None:
                verdicts[index] = Why.UNCHECKED
                continue
            else:
                outcome = Outcome(Status.ERROR, error="plain reference did not run",
                                  fault=Fault.NOT_RUN)
            verdicts[index] = classify(outcome, expected[index], task, inputs[index])
    plus: list[int] = []
    stress: list[int] = []
    edge: list[int] = []
    for index in range(len(inputs)):
        why = verdicts[index]
        if why is not None:
            reasons[why.value] = reasons.get(why.value, 0) + 1
        if why in EDGES:
            edge.append(index)
        elif why is not Why.UNCHECKED:
            (plus if why in (None, Why.DISAGREES) else stress).append(index)
    return TierSplit(tuple(plus), tuple(stress), reasons, tuple(edge))
