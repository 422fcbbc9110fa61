"""What a kill rests on: input classes, prompt mentions, edge classes of a task, and the
split of kills into "like base" and "edge" (fake executor; end to end in test_report)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import pytest

from evalplus_ng.evaluation.edges import edge_kinds, split_kills
from evalplus_ng.evaluation.verdicts import (
    EvalConfig,
    KillBasis,
    SampleResult,
    evaluate_samples,
    results_document,
    results_from_document,
)
from evalplus_ng.generate.classes import input_kinds, mentioned
from evalplus_ng.oracle.groundtruth import run_ground_truth
from evalplus_ng.records import Job, JobResult, Outcome, Sample, Status, Task, Verdict
from evalplus_ng.serialize import decode, encode


@pytest.mark.parametrize("args, kinds", [
    ([[3, 1, 2], "ab"], ()),
    ([[]], ("empty",)),
    ([["a", ""]], ("empty",)),  # an item of length zero
    ([[["x"]]], ("single",)),  # a one-element list (its item's length one is not)
    (["é"], ("single", "nonascii")),
    ([[4, 0, -2]], ("zero", "negative")),
    ([2**53 + 1], ("big",)),
    ([[10**400, 1]], ("big", "huge")),  # past the float range
    ([float("inf"), float("nan")], ("nonfinite",)),
    ([[1, 2, 1]], ("duplicates",)),
    ([{"k": None}], ("single", "none")),
    ([True, False], ()),  # booleans are neither zero nor one-element
    ([-0.5, "B c"], ("negative",)),
])
def test_classes_of_literal_inputs(args: list[object], kinds: tuple[str, ...]) -> None:
    assert input_kinds(args) == kinds


@pytest.mark.parametrize("prompt, expected", [
    ("Return the sum of a list of integers.", set()),
    ("If the list is empty, return 0.", {"empty", "zero"}),
    (">>> f([])\n    None", {"empty", "none"}),
    ("Given non-negative integers", {"zero"}),  # zero, but not negative numbers
    (">>> f(-3)\n    3", {"negative"}),
    ("Return n - 1 for n-1 >= x", set()),  # a minus sign is not a negative example
    ("numbers may be very large", {"big", "huge"}),
    ("the largest element, ties broken by index", {"duplicates"}),
    ("return 'naïve' unchanged", {"nonascii"}),
    ("a list with a single element", {"single"}),
    ("a none of them", set()),  # None only as Python's
    ('assert check_expression("{()}[{}]") == True', set()),  # brackets inside a string
    ("assert f('') == 1 and g(()) == 2", {"empty"}),
    ("as a sum of non-zero powers of 2", set()),  # zero excluded, not mentioned
])
def test_what_a_prompt_mentions(prompt: str, expected: set[str]) -> None:
    assert mentioned(prompt) == expected


def test_edge_classes_are_those_no_base_input_shows_nor_the_prompt_mentions() -> None:
    task = Task("T/0", "def f(xs):\n    \"\"\"Sum xs; xs may hold negative numbers.\"\"\"\n",
                "f", "", ([[1, 2]], [[0, 5, 5]]))
    # Base shows zero and duplicates; the prompt, negatives.
    assert edge_kinds(task) == {"empty", "single", "big", "huge", "nonfinite", "nonascii",
                                "none"}


class _Executor:
    """Runs "code" that is a Python expression in ``x`` on one-argument inputs, fail-fast
    when the job says so, as the sandbox does; records the judged jobs' inputs."""

    def __init__(self) -> None:
        self.judged: list[tuple[str, list[object]]] = []

    def run(self, job: Job) -> JobResult:
        return next(iter(self.map([job])))

    def map(self, jobs: Iterable[Job]) -> Iterator[JobResult]:
        for job in jobs:
            function = eval(f"lambda x: {job.code}")  # test-only expressions
            if job.expected is not None:
                self.judged.append((job.code, [decode(w)[0] for w in job.inputs]))
            outcomes: list[Outcome] = []
            passed: list[bool] = []
            for index, wire in enumerate(job.inputs):
                outcomes.append(Outcome(Status.OK, encode(function(*decode(wire)))))
                if job.expected is not None:
                    passed.append(outcomes[-1].value == job.expected[index])
                    if job.fail_fast and not passed[-1]:
                        break
            yield JobResult(Outcome(Status.OK), tuple(outcomes),
                            tuple(passed) if job.expected is not None else ())


# Base shows small positive numbers; plus adds 3 and 4 (like base) and edge inputs 0, -1,
# 2**60. The prompt mentions none of them.
TASK = Task("T/1", "def f(x):\n    \"\"\"Add one.\"\"\"\n", "f", "x + 1", ([1], [2], [5]),
            plus_inputs=([3], [0], [-1], [4], [2**60]))
SAMPLES = {
    "right": "x + 1",
    "zero only": "x if x == 0 else x + 1",  # first fails on 0 (edge) and on nothing else
    "zero and four": "0 if x in (0, 4) else x + 1",  # first fails on 0, then on 4 too
    "three": "0 if x == 3 else x + 1",  # first fails on 3: like base at once
    "big only": "x + 1 if x < 2**53 else 0",  # fails only the last plus input (big)
    "fails base": "0 if x == 1 else x + 1",  # never a kill
}


def _split(details: bool) -> tuple[dict[str, SampleResult], _Executor]:
    config = EvalConfig(details=details, truth_batch=1)
    executor = _Executor()
    truths = run_ground_truth([TASK], executor)
    codes = [*SAMPLES.values(), SAMPLES["zero and four"]]  # identical code: judged once
    samples = [Sample("T/1", code, n) for n, code in enumerate(codes)]
    results = dict(evaluate_samples({"T/1": TASK}, truths, samples, executor, config))
    executor.judged.clear()
    split = split_kills({"T/1": TASK}, results, executor, config)
    named = {name: split[n] for n, name in enumerate(SAMPLES)}
    assert split[len(SAMPLES)] == named["zero and four"]
    return named, executor


@pytest.mark.parametrize("details", [False, True], ids=["fail-fast", "details"])
def test_a_kill_is_like_base_when_it_fails_any_plus_input_without_an_edge_class(
    details: bool,
) -> None:
    results, executor = _split(details)
    kills = {name: result.kill for name, result in results.items()}
    assert kills == {
        "right": None,
        "zero only": KillBasis(("zero",), ("zero",), False),
        "zero and four": KillBasis(("zero",), ("zero",), True, [4]),
        "three": KillBasis((), (), True),
        "big only": KillBasis(("big",), ("big",), False),
        "fails base": None,
    }
    if details:  # every failing test is known: nothing runs again
        assert executor.judged == []
    else:  # only kills first failing on an edge input run again, on the edge-free inputs
        # after it; the ground truth of those inputs runs once (the executor's other job).
        assert executor.judged == [("x if x == 0 else x + 1", [4]),
                                   ("0 if x in (0, 4) else x + 1", [4])]


def test_a_mentioned_class_is_not_an_edge() -> None:
    task = Task("T/1", "def f(x):\n    \"\"\"Add one; x may be zero.\"\"\"\n", "f", "x + 1",
                TASK.base_inputs, plus_inputs=TASK.plus_inputs)
    executor = _Executor()
    truths = run_ground_truth([task], executor)
    config = EvalConfig(truth_batch=1)
    results = dict(evaluate_samples({"T/1": task}, truths,
                                    [Sample("T/1", SAMPLES["zero only"], 1)], executor, config))
    ((_, result),) = split_kills({"T/1": task}, results, executor, config).items()
    assert result.kill == KillBasis(("zero",), (), True)


def test_the_results_document_records_the_split_and_resume_reads_it_back() -> None:
    results, _ = _split(details=False)
    document = results_document(list(results.values()))
    entries = document["eval"]["T/1"]
    fields = [{k: e[k] for k in ("kill", "plus_fail_classes", "plus_fail_edges", "kill_test")
               if k in e} for e in entries]
    assert fields == [
        {}, {"kill": "edge", "plus_fail_classes": ["zero"], "plus_fail_edges": ["zero"]},
        {"kill": "like base", "plus_fail_classes": ["zero"], "plus_fail_edges": ["zero"],
         "kill_test": [4]},
        {"kill": "like base", "plus_fail_classes": [], "plus_fail_edges": []},
        {"kill": "edge", "plus_fail_classes": ["big"], "plus_fail_edges": ["big"]}, {}]
    samples = [Sample("T/1", r.solution, n) for n, r in enumerate(results.values())]
    done = results_from_document(document, samples, {"T/1": TASK})
    assert [d.kill for d in done.values()] == [r.kill for r in results.values()]


def test_kills_of_an_earlier_results_file_are_split_from_their_recorded_failing_input() -> None:
    # A results file from before the split (or from EvalPlus): the failing input is plain
    # JSON; only the kill whose first failing input is an edge runs again.
    earlier = {0: SampleResult("T/1", "0 if x in (0, 4) else x + 1", Verdict.PASS,
                               Verdict.FAIL, (), ([0],)),
               1: SampleResult("T/1", "0 if x == 3 else x + 1", Verdict.PASS, Verdict.FAIL,
                               (), ([3],))}
    executor = _Executor()
    split = split_kills({"T/1": TASK}, earlier, executor, EvalConfig(truth_batch=1))
    assert split[0].kill == KillBasis(("zero",), ("zero",), True, [4])
    assert split[1].kill == KillBasis((), (), True)
    assert [code for code, _ in executor.judged] == ["0 if x in (0, 4) else x + 1"]
