"""Calibration: the limit formula, reference units, the artifact field, the command."""

from __future__ import annotations

import gzip
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from evalplus_ng.cli import main
from evalplus_ng.errors import EvalplusError, InputError
from evalplus_ng.evaluation.verdicts import EvalConfig, evaluate_samples
from evalplus_ng.judge import JUDGE
from evalplus_ng.oracle.groundtruth import run_ground_truth
from evalplus_ng.oracle.timelimits import (
    REFERENCE_NAME,
    calibrate_tasks,
    limit_seconds,
    measure_reference,
    medians,
    timing_job,
    to_units,
)
from evalplus_ng.records import (
    Calibration,
    Fault,
    JobResult,
    Outcome,
    Sample,
    Status,
    Task,
    Verdict,
)
from evalplus_ng.sandbox import Sandbox
from evalplus_ng.tasks.artifact import plus_record, write_plus_file
from evalplus_ng.tasks.plusfile import EXTRA_FIELD, load_plus_file

SOURCE = "def f(n):\n    return sum(range(n))\n"
TASK = Task("T/0", "", "f", SOURCE, base_inputs=([10], [3]), plus_inputs=([2_000_000], [7]),
            canonical_solution=SOURCE)
CALIBRATION = Calibration((1.5e-05, 2e-05, 12.0, 1e-05), 0.2, 4.0, "ref", 0.0125)


@pytest.fixture(scope="module")
def sandbox() -> Sandbox:
    with Sandbox(1, judge=JUDGE) as box:
        yield box  # type: ignore[misc]


def test_limit_is_the_factor_times_the_ground_truth_with_a_floor() -> None:
    assert limit_seconds(10.0, 0.01, floor=0.2, factor=4.0) == pytest.approx(0.4)
    assert limit_seconds(1.0, 0.01, floor=0.2, factor=4.0) == 0.2
    assert limit_seconds(0.0, 0.01, floor=0.5, factor=4.0) == 0.5


def test_units_are_relative_to_the_reference_and_rounded() -> None:
    assert to_units(0.003, 0.02) == 0.15
    assert to_units(0.0123456, 0.01) == 1.2  # two significant digits
    assert to_units(1.0, 0.03) == 33.0
    assert to_units(0.0, 0.03) == 0.0
    with pytest.raises(ValueError):
        to_units(1.0, 0.0)
    # A fast and a slow machine store the same units: seconds scale with the reference.
    assert to_units(0.05, 0.02) == to_units(0.15, 0.06)


def _outcome(seconds: float) -> Outcome:
    return Outcome(Status.OK, 0, None, seconds)


def test_medians_skip_the_warm_up_pass_and_take_the_median() -> None:
    # Two inputs, three timed passes after the warm-up pass.
    passes = [[9.0, 9.0], [0.001, 0.5], [0.003, 0.1], [0.002, 0.3]]
    outcomes = [_outcome(s) for row in passes for s in row]
    times = medians(JobResult(Outcome(Status.OK), tuple(outcomes)), 2, passes=3)
    assert times == [0.002, 0.3]
    # A job that broke off: the calls that ran; none at all gives 0.
    assert medians(JobResult(Outcome(Status.OK), tuple(outcomes[:5])), 2, passes=3) == [
        0.002, 0.5]
    assert medians(JobResult(Outcome(Status.OK), tuple(outcomes[:2])), 2, passes=3) == [0, 0]
    with pytest.raises(EvalplusError, match="does not load"):
        broken = Outcome(Status.ERROR, error="SyntaxError", fault=Fault.RAISED)
        medians(JobResult(broken, ()), 2, passes=3)


def test_timing_job_calls_every_input_once_per_pass() -> None:
    job = timing_job(TASK, passes=2)
    assert job.code == TASK.solution and job.entry_point == "f"
    assert job.inputs == [[10], [3], [2_000_000], [7]] * 3
    assert not job.fail_fast


def test_calibration_measures_the_ground_truth_in_reference_units(sandbox: Sandbox) -> None:
    (calibrated,) = calibrate_tasks([TASK], sandbox, floor=0.3, factor=5.0, passes=3)
    calibration = calibrated.calibration
    assert calibration is not None
    assert (calibration.floor_seconds, calibration.factor) == (0.3, 5.0)
    assert calibration.reference_seconds is not None and calibration.reference_seconds > 0
    assert len(calibration.units) == 4
    small, tiny, big, other = calibration.units
    # Summing two million numbers costs thousands of times summing ten.
    assert big > 100 * max(small, tiny, other)
    assert replace(calibrated, calibration=None) == TASK
    assert measure_reference(sandbox) > 0


def test_calibration_round_trips_through_the_artifact(tmp_path: Path) -> None:
    path = tmp_path / "suite.jsonl.gz"
    task = replace(TASK, calibration=CALIBRATION)
    write_plus_file([task, replace(TASK, task_id="T/1")], path)
    loaded = load_plus_file(path)
    assert loaded[0].calibration == CALIBRATION
    assert loaded[1].calibration is None
    extra = plus_record(task)[EXTRA_FIELD]["calibration"]
    assert extra["gt_units"] == list(CALIBRATION.units)
    assert extra["reference"] == "ref" and extra["reference_seconds"] == 0.0125


def _record_line(task: Task, **calibration: object) -> str:
    record = plus_record(task)
    record[EXTRA_FIELD].pop("calibration", None)
    record[EXTRA_FIELD].update(calibration)
    return json.dumps(record)


def test_legacy_time_limits_are_read_as_seconds(tmp_path: Path) -> None:
    path = tmp_path / "legacy.jsonl"
    path.write_text(_record_line(TASK, time_limits=[1.0, 2.0, 3.0, 4.0]) + "\n")
    (task,) = load_plus_file(path)
    assert task.calibration == Calibration((1.0, 2.0, 3.0, 4.0), 1.0, 1.0, "seconds", None)


@pytest.mark.parametrize(
    ("calibration", "problem"),
    [
        ({"gt_units": [1, 2, 3, 4]}, "bad 'evalplus_ng' field"),
        ({"gt_units": [1, 2], "floor_seconds": 0.2, "factor": 4, "reference": "r",
          "reference_seconds": 0.01}, "calibration has 2 time(s) for 4 input(s)"),
        ({"gt_units": [1, 2, -3, 4], "floor_seconds": 0.2, "factor": 4, "reference": "r",
          "reference_seconds": 0.01}, "must be positive"),
        ({"gt_units": "1234", "floor_seconds": 0.2, "factor": 4, "reference": "r",
          "reference_seconds": 0.01}, "gt_units must be a list"),
        ({"gt_units": [1, 2, 3, 4], "floor_seconds": 0.2, "factor": 4, "reference": "r",
          "reference_seconds": 0}, "must be positive"),
        ({"gt_units": [1, 2, 3, 4], "floor_seconds": "x", "factor": 4, "reference": "r",
          "reference_seconds": 0.01}, "bad 'evalplus_ng' field"),
    ],
)
def test_bad_calibration_is_a_one_line_error(tmp_path: Path, calibration: dict[str, object],
                                              problem: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(plus_record_text(TASK) + _record_line(replace(TASK, task_id="T/1"),
                                                          calibration=calibration) + "\n")
    with pytest.raises(InputError) as caught:
        load_plus_file(path)
    assert str(caught.value).startswith(f"{path}:2: ")
    assert problem in str(caught.value)


def plus_record_text(task: Task) -> str:
    return json.dumps(plus_record(task)) + "\n"


def test_evaluate_uses_calibrated_limits(sandbox: Sandbox) -> None:
    # One unit lasts 0.01 s here: the plus input's limit is 4 x 25 x 0.01 = 1 s.
    units = (1e-05, 1e-05, 25.0, 1e-05)
    task = replace(TASK, plus_inputs=([5000], [7]),
                   calibration=Calibration(units, 0.2, 4.0, "ref", 0.02))
    truths = run_ground_truth([task], sandbox)
    # Slow by computing (a limit counts CPU time; a sleeper would get up to 2 x limit + 1 s).
    slow = ("import time\ndef f(n):\n    if n > 1000:\n        end = time.process_time() + {}\n"
            "        while time.process_time() < end:\n            pass\n"
            "    return sum(range(n))\n")
    samples = [Sample("T/0", slow.format(0.05), 1), Sample("T/0", slow.format(3), 2)]
    config = EvalConfig(reference_seconds=0.01)
    within, slower = [r for _, r in evaluate_samples({"T/0": task}, truths, samples, sandbox,
                                                     config)]
    assert (within.base_status, within.plus_status) == (Verdict.PASS, Verdict.PASS)
    assert (slower.base_status, slower.plus_status, slower.plus_failure) == (
        Verdict.PASS, Verdict.FAIL, "timeout")
    assert slower.plus_fail_tests == ([5000],)


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_calibrate_command_rewrites_the_suite_and_evaluate_uses_it(tmp_path: Path) -> None:
    suite = tmp_path / "HumanEvalPlus.jsonl.gz"
    write_plus_file([TASK], suite)
    mini = tmp_path / "HumanEvalPlus-Mini.jsonl.gz"
    write_plus_file([replace(TASK, plus_inputs=([7],))], mini)
    code, out, err = _run("calibrate", "--out", str(tmp_path), "--floor", "0.3", "-j", "1")
    assert code == 0, err
    assert f"calibrated 7 tests of 2 tasks in {suite}, {mini}" in out
    (task,) = load_plus_file(suite)
    assert task.calibration is not None and task.calibration.floor_seconds == 0.3
    assert task.calibration.reference == REFERENCE_NAME
    assert replace(task, calibration=None) == TASK
    (small,) = load_plus_file(mini)
    assert small.calibration is not None and len(small.calibration.units) == 3
    samples = tmp_path / "samples.jsonl"
    looping = "def f(n):\n    while True:\n        pass\n"
    samples.write_text("".join(json.dumps({"task_id": "T/0", "solution": code}) + "\n"
                               for code in (SOURCE, looping)))
    code, out, err = _run("evaluate", "--samples", str(samples), "--suite", str(suite),
                          "-j", "1")
    assert code == 0, err
    assert "calibrated suite: reference workload takes" in err
    [results] = tmp_path.glob("samples.evalplus-ng.file-*.json")
    document = json.loads(results.read_text())
    statuses = [(e["base_status"], e["plus_status"], e.get("base_failure"))
                for e in document["eval"]["T/0"]]
    assert statuses == [("pass", "pass", None), ("fail", "fail", "timeout")]


def test_calibrate_command_errors_are_one_line(tmp_path: Path) -> None:
    code, _, err = _run("calibrate", "--out", str(tmp_path / "nowhere"))
    assert code == 2
    assert err.count("\n") == 1 and "no plus suite here" in err
    suite = tmp_path / "HumanEvalPlus.jsonl.gz"
    with gzip.open(suite, "wt") as handle:
        handle.write(plus_record_text(TASK) + "{oops\n")
    code, _, err = _run("calibrate", "--out", str(tmp_path))
    assert code == 2
    assert err.count("\n") == 1 and err.startswith(f"error: {suite}:2: invalid JSON")
    code, _, err = _run("calibrate", "--out", str(tmp_path), "--floor", "0")
    assert code == 2 and "--floor" in err
    code, _, err = _run("calibrate", "--out", str(tmp_path), "--factor", "0.5")
    assert code == 2 and "--factor" in err


def test_only_inputs_whose_time_could_decide_the_limit_get_more_passes(
        sandbox: Sandbox) -> None:
    # f(6_000_000) takes tens of milliseconds: 4 x that is within 4x of the 0.2 s floor,
    # so it is timed in every pass; the others take microseconds (their limit is the
    # floor whatever their time) and are timed once.
    jobs: list[int] = []

    class Recording:
        def run(self, job: Any) -> Any:
            return sandbox.run(job)

        def map(self, jobs_: Any) -> Any:
            listed = list(jobs_)
            jobs.extend(len(job.inputs) for job in listed)
            return sandbox.map(listed)

    slow = replace(TASK, plus_inputs=([6_000_000], [7]))
    [task] = calibrate_tasks([slow], Recording(), passes=3)
    inputs = len(slow.base_inputs) + len(slow.plus_inputs)
    assert jobs == [inputs, 1 * 4]  # one cold timed pass; then a warm-up and 3 of one
    assert task.calibration is not None
    units = task.calibration.units
    assert units[2] > 100 * max(units[0], units[1], units[3])
