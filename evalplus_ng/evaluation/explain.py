"""Explain a failing verdict: the simplest valid input on which a sample is wrong.

A reviewer deciding whether a kill is real needs one small input, what the ground
truth answers there and what the sample does. Starting from the cheapest of the
sample's failing inputs, :func:`simplest_failure` shrinks (:mod:`evalplus_ng.generate.shrink`)
while the input stays valid under the task's contract and the sample still fails
on it; both programs run in the sandbox. A failure by timeout is not shrunk (each
check would cost a whole time limit): the cheapest timing-out input is reported.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from evalplus_ng import judge
from evalplus_ng.generate import shrink
from evalplus_ng.jobs import task_job
from evalplus_ng.oracle.groundtruth import ground_truth_job
from evalplus_ng.protocols import Executor
from evalplus_ng.records import Fault, Job, Outcome, Status, Task
from evalplus_ng.serialize import decode
from evalplus_ng.types import Args

#: Per-call limit while shrinking: generous, so that a slow machine does not make a
#: candidate "fail" by time.
SHRINK_SECONDS = 5.0


@dataclass(frozen=True)
class Explanation:
    """The simplest failing input found and both programs' outcomes on it."""

    args: Args
    expected: Outcome
    actual: Outcome
    shrunk: bool


def _outcomes(executor: Executor, job: Job, count: int) -> list[Outcome]:
    result = executor.run(job)
    if result.load.status is not Status.OK:
        return [Outcome(Status.ERROR, error=f"does not load: {result.load.error}",
                        fault=Fault.NOT_LOADED)] * count
    missing = Outcome(Status.ERROR, error="did not run", fault=Fault.NOT_RUN)
    return [*result.outcomes, *[missing] * (count - len(result.outcomes))]


def fails(task: Task, args: Args, expected: Outcome, actual: Outcome) -> bool:
    """The ground truth answered and the sample did not give an answer that passes."""
    if expected.status is not Status.OK:
        return False
    if actual.status is not Status.OK:
        return True
    return not judge.check(task.oracle, args, decode(expected.value), decode(actual.value),
                           task.atol, task.equality)


def simplest_failure(task: Task, code: str, failing: Sequence[Args],
                     valid: Callable[[Args], bool], executor: Executor, limit: float,
                     max_checks: int = 600,
                     keep: Callable[[Args, Any], bool] | None = None) -> Explanation | None:
    """The simplest input on which ``code`` fails, from its ``failing`` inputs; None when
    it fails on none of them when run again. ``limit`` is the sample's time limit per
    call when the failing inputs are first run again (a timeout then is reported as it is).

    ``keep(args, answer)`` (the ground truth's answer) keeps the shrink inside a tier: a
    kill of the plus tier explained by an input the tier would not hold (an edge of the
    base tests, a number past its bounds) would show the reviewer another question."""

    def run_both(inputs: Sequence[Args],
                 seconds: float = SHRINK_SECONDS) -> list[tuple[Outcome, Outcome]]:
        truth = _outcomes(executor, ground_truth_job(task, inputs, SHRINK_SECONDS),
                          len(inputs))
        sample = _outcomes(executor, task_job(task, code, inputs, seconds, fail_fast=False),
                           len(inputs))
        return list(zip(truth, sample, strict=True))

    def holds(candidates: Sequence[Args]) -> list[bool]:
        return [fails(task, args, expected, actual) and actual.status is not Status.TIMEOUT
                and (keep is None or _kept(keep, args, expected))
                for args, (expected, actual) in zip(candidates, run_both(candidates),
                                                     strict=True)]

    ordered = sorted(failing, key=shrink.cost)[:16]
    if not ordered:
        return None
    for args, (expected, actual) in zip(ordered, run_both(ordered, limit), strict=True):
        if not fails(task, args, expected, actual):
            continue
        if actual.status is Status.TIMEOUT:
            return Explanation(args, expected, actual, shrunk=False)
        smaller = shrink.shrink(args, holds, valid, max_checks=max_checks)
        ((expected, actual),) = run_both([smaller])
        return Explanation(smaller, expected, actual, shrunk=smaller != args)
    return None


def _kept(keep: Callable[[Args, Any], bool], args: Args, expected: Outcome) -> bool:
    try:
        return keep(args, decode(expected.value))
    except ValueError:  # an answer that does not decode here (an int past 4,300 digits)
        return False
