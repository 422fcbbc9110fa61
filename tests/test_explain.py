"""Explaining a kill: the simplest valid input on which a sample is wrong, found in the sandbox."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from evalplus_ng.evaluation.explain import fails, simplest_failure
from evalplus_ng.records import Fault, Outcome, Status, Task
from evalplus_ng.sandbox import Sandbox
from evalplus_ng.serialize import encode

PROMPT = '''
def largest(numbers):
    """The largest number of a non-empty list."""
'''
TRUTH = PROMPT + "    return max(numbers)\n"
# Wrong only when every number is negative (it starts from 0).
BUGGY = '''
def largest(numbers):
    best = 0
    for x in numbers:
        best = max(best, x)
    return best
'''
SLOW = '''
def largest(numbers):
    while True:
        pass
'''


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    with Sandbox(2) as box:
        yield box


def _task() -> Task:
    return Task("T/1", PROMPT, "largest", TRUTH, ([[1, 2]],))


def _valid(args: list[object]) -> bool:
    return isinstance(args[0], list) and len(args[0]) >= 1


def test_fails_needs_an_answer_from_the_ground_truth_and_a_wrong_one_from_the_sample() -> None:
    task = _task()
    right = Outcome(Status.OK, value=encode(-1))
    assert fails(task, [[-1]], right, Outcome(Status.OK, value=encode(0)))
    assert fails(task, [[-1]], right, Outcome(Status.ERROR, error="IndexError", fault=Fault.RAISED))
    assert not fails(task, [[-1]], right, right)
    assert not fails(task, [[-1]], Outcome(Status.ERROR, error="x", fault=Fault.RAISED), right)


def test_a_failing_input_shrinks_to_the_simplest_valid_one(sandbox: Sandbox) -> None:
    failing = [[[-7, -3, -12, -5, -9]], [[-40, -2, -8]]]
    found = simplest_failure(_task(), BUGGY, failing, _valid, sandbox, limit=1.0)
    assert found is not None and found.shrunk
    # One negative number is the simplest list on which the sample answers 0; the
    # contract keeps the list non-empty.
    assert found.args == [[-1]]
    assert found.expected == Outcome(Status.OK, value=encode(-1), seconds=found.expected.seconds)
    assert found.actual.value == encode(0)


def test_keep_holds_the_shrink_inside_a_tier(sandbox: Sandbox) -> None:
    # A tier that holds only answers of -3 or less: the shrink stops at [-3], not [-1].
    failing = [[[-7, -3, -12, -5, -9]]]
    found = simplest_failure(_task(), BUGGY, failing, _valid, sandbox, limit=1.0,
                             keep=lambda _args, answer: answer <= -3)
    assert found is not None and found.args == [[-3]]


def test_a_timeout_is_reported_as_it_is_and_a_passing_sample_has_no_failure(
        sandbox: Sandbox) -> None:
    found = simplest_failure(_task(), SLOW, [[[3, 1, 2]], [[5]]], _valid, sandbox, limit=0.2)
    assert found is not None and not found.shrunk
    assert found.args == [[5]] and found.actual.status is Status.TIMEOUT
    assert simplest_failure(_task(), TRUTH, [[[3, 1, 2]]], _valid, sandbox, limit=1.0) is None
