"""The oracle stage: which generated inputs the ground truth keeps, and why others go."""

from __future__ import annotations

import pytest

from evalplus_ng.oracle.groundtruth import oracle, run_ground_truth
from evalplus_ng.records import Task
from evalplus_ng.sandbox import Sandbox

SOURCE = '''
import random

def f(n):
    if n < 0:
        raise ValueError("negative")
    if n == 7:
        return random.random()  # not a function of its input: unstable
    total = 0
    for i in range(n):
        total += i
    return total
'''


@pytest.fixture(scope="module")
def sandbox() -> Sandbox:
    with Sandbox(2) as box:
        yield box  # type: ignore[misc]


def _task() -> Task:
    return Task("T/1", "def f(n):\n", "f", SOURCE, ([3],))


def test_oracle_keeps_stable_cheap_answers_and_counts_the_rest(sandbox: Sandbox) -> None:
    inputs = [[1], [-1], [7], [10], [10**6], [2]]
    verdict = oracle(_task(), inputs, sandbox, seconds=5.0, max_lines=20_000)
    assert verdict.kept == (0, 3, 5)
    assert verdict.outputs == (0, 45, 1)
    assert verdict.dropped == {"raises": 1, "unstable": 1, "expensive": 1}
    assert len(verdict.seconds) == 3


def test_the_line_budget_is_the_same_on_every_run(sandbox: Sandbox) -> None:
    # 2 lines per iteration: just under and just over a 2,000-line budget.
    verdicts = [oracle(_task(), [[990], [1010]], sandbox, 5.0, max_lines=2_000)
                for _ in range(3)]
    assert all(v.kept == (0,) for v in verdicts)


def test_c_level_work_is_priced_before_it_runs_not_timed(sandbox: Sandbox) -> None:
    # One line hides the loops: ``sum(range(n))`` walks n items, ``2 ** n`` makes n bits.
    # Each is priced from its operands before it runs, so an input far over the budget
    # is dropped as expensive at once (untraced, 10**12 items or a 10**15-bit power would
    # run for hours), and one just over it is dropped every time: the verdicts are the
    # same on every run, whatever the machine's load. (Price: n + (n/64)**1.585 / 2.)
    task = Task("T/6", "def s(n):\n", "s",
                "def s(n):\n    return sum(range(n)) + (2 ** n).bit_length()\n", ([3],))
    inputs = [[10], [10**12], [13_000], [13_200], [10**15], [7]]
    verdicts = [oracle(task, inputs, sandbox, seconds=30.0, max_lines=20_000)
                for _ in range(3)]
    for verdict in verdicts:
        assert verdict.kept == (0, 2, 5)
        assert verdict.dropped == {"expensive": 3}
    assert list(verdicts[0].outputs) == [
        sum(range(10)) + 11, sum(range(13_000)) + 13_001, sum(range(7)) + 8]


def test_a_line_heavy_input_is_counted_not_run_to_its_time_limit(sandbox: Sandbox) -> None:
    # 10**12 iterations never finish in 60 s untraced: counted from the first call, the
    # input stops at the budget and is dropped as expensive (not a timeout).
    task = Task("T/3", "def g(n):\n", "g",
                "def g(n):\n    return sum(1 for i in range(n) if n % (i + 1) == 0)\n", ([3],))
    verdict = oracle(task, [[6], [10**12], [12]], sandbox, seconds=30.0, max_lines=20_000)
    assert verdict.kept == (0, 2) and verdict.outputs == (4, 6)
    assert verdict.dropped == {"expensive": 1}


def test_inputs_with_a_huge_output_are_dropped(sandbox: Sandbox) -> None:
    # Every sample judged would compare that output: a size bound in bytes of wire text,
    # the same on every machine.
    task = Task("T/5", "def r(n):\n", "r", "def r(n):\n    return list(range(n))\n", ([3],))
    verdict = oracle(task, [[5], [100_000], [7]], sandbox, seconds=5.0, max_lines=200_000,
                     max_output_bytes=1_000)
    assert verdict.kept == (0, 2) and verdict.dropped == {"large-output": 1}
    unbounded = oracle(task, [[5], [100_000], [7]], sandbox, seconds=5.0, max_lines=200_000)
    assert unbounded.kept == (0, 1, 2)


def test_run_ground_truth_reports_failures_per_input(sandbox: Sandbox) -> None:
    task = Task("T/1", "def f(n):\n", "f", SOURCE, ([3], [-2]), plus_inputs=([4],))
    truth = run_ground_truth([task], sandbox)["T/1"]
    assert truth.base.outputs == (3, None) and truth.base.usable == (0,)
    assert "ValueError" in truth.base.failures[1]
    assert truth.plus.outputs == (6,)


def test_one_run_still_counts_lines_of_slow_inputs(sandbox: Sandbox) -> None:
    verdict = oracle(_task(), [[10], [10**6]], sandbox, 5.0, max_lines=20_000, runs=1)
    assert verdict.kept == (0,) and verdict.dropped == {"expensive": 1}


def test_inputs_failing_the_tasks_own_special_oracle_are_dropped(sandbox: Sandbox) -> None:
    # HumanEval/32's oracle accepts any x with |poly(x)| <= atol. This reference returns
    # the root of 1 + 2x exactly, but only an approximation for 3 + 1000x.
    source = "def find_zero(xs):\n    return -xs[0] / xs[1] if xs[1] < 100 else -0.0031\n"
    task = Task("HumanEval/32", "def find_zero(xs):\n", "find_zero", source, ([[1, 2]],),
                atol=1e-4, oracle="polynomial_root")
    verdict = oracle(task, [[[1, 2]], [[3, 1000]], [[-4, 8]]], sandbox, seconds=5.0)
    assert verdict.kept == (0, 2)
    assert verdict.dropped == {"own-oracle": 1}


def test_a_set_valued_reference_answering_repeats_or_colliding_members(sandbox: Sandbox) -> None:
    # The set oracle builds a set of the output: 250 repeats of one value are one member
    # (MBPP's set-valued tasks answer such lists), while members built to share one hash
    # are refused; either way the run goes on.
    source = ("def f(n, crowd):\n"
              "    return [i * (2**61 - 1) for i in range(n)] if crowd else [0] * n\n")
    task = Task("T/9", "def f(n, crowd):\n", "f", source, ([3, False],), oracle="set")
    verdict = oracle(task, [[250, False], [250, True], [5, True]], sandbox, seconds=5.0)
    assert verdict.kept == (0, 2)
    assert verdict.dropped == {"own-oracle": 1}


def test_ground_truths_batched_in_one_job_match_one_job_per_input_set(
    sandbox: Sandbox,
) -> None:
    tasks = [
        Task("T/1", "def f(n):\n", "f", SOURCE, ([3], [-2]), plus_inputs=([4],)),
        Task("T/2", "def g(s):\n", "g", "def g(s):\n    return (s[::-1], len(s))\n",
             (["ab"],), plus_inputs=([""], ["xyz"])),
        Task("T/3", "def h(x):\n", "h", "def h(x):\n    return x +\n", ([1],)),  # no load
        Task("T/4", "def k(x):\n", "k",
             "import os\ndef k(x):\n    if x == 0:\n        os._exit(3)\n    return {x: [x]}\n",
             ([1], [0], [2])),  # dies on one input; the batch goes on after it
        Task("T/5", "def f(n):\n", "f", SOURCE, ([5],)),  # same entry point as T/1
    ]
    alone = run_ground_truth(tasks, sandbox)
    done: list[str] = []
    for per_job in (2, 5):
        batched = run_ground_truth(tasks, sandbox, done.append, tasks_per_job=per_job)
        assert list(batched) == [task.task_id for task in tasks]
        for task_id, truth in batched.items():
            for ours, theirs in ((truth.base, alone[task_id].base),
                                 (truth.plus, alone[task_id].plus)):
                assert ours.outputs == theirs.outputs
                assert [bool(f) for f in ours.failures] == [bool(f) for f in theirs.failures]
                assert len(ours.seconds) == len(theirs.outputs)
    assert done == [task.task_id for task in tasks] * 2
    assert "does not load" in batched["T/3"].base.failures[0]
    assert batched["T/4"].base.usable == (0, 2)
