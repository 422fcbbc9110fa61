"""Per-test time limits of program tasks: the rule and its grid (pure), the tasks file's
``time_limit`` per test, the reference's repeats and their checkpoints, ``evaluate``
judging each test within its own limit and counting correctness apart from timeouts,
and ``augment`` writing the limits (the same bytes again, resumed without the sandbox).

Fixtures are written here and in tests/programfixtures.py; nothing reads ``../shared``.
Slow programs spin on CPU time (``time.process_time``), which the sandbox's limits count,
so a verdict does not depend on the machine's load.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from programfixtures import (
    ADD,
    SUM,
    NoRuns,
    add_record,
    augment,
    fake_inputs,
    fake_plan,
    gz_lines,
    sum_tasks,
    use_plan,
    write_jsonl,
    write_samples,
)

from evalplus_ng.backend.executors import Backend
from evalplus_ng.cli import main
from evalplus_ng.errors import InputError
from evalplus_ng.evaluation.program_verdicts import (
    ProgramConfig,
    RunStatus,
    failure_counts,
    failure_kind,
    judge_programs,
)
from evalplus_ng.oracle.programs.answers import NewTest
from evalplus_ng.oracle.programs.timelimits import (
    LimitRule,
    first_limit,
    limit_of,
    needs_repeats,
    on_grid,
    repeat_chunks,
    repeat_job,
    sampled,
    timed,
)
from evalplus_ng.pipeline.programs.augment import (
    ProgramAugmentConfig,
    run_augment_programs,
    summary_lines,
)
from evalplus_ng.pipeline.programs.calibrate import (
    calibrate_program_tests,
    limits_key,
    limits_path,
)
from evalplus_ng.records import (
    Fault,
    Job,
    JobResult,
    Outcome,
    ProgramTask,
    ProgramTest,
    Sample,
    Status,
    Verdict,
)
from evalplus_ng.sandbox import Sandbox
from evalplus_ng.tasks.programfile import load_program_tasks, record_of_test

# --------------------------------------------------------------------------- the rule


def test_the_grid_rounds_up_to_a_power_of_two() -> None:
    assert [on_grid(s) for s in (1.0, 1.01, 1.5, 2.0, 2.1, 5.0, 8.0, 0.3, 0.1)] == [
        1.0, 2.0, 2.0, 2.0, 4.0, 8.0, 8.0, 0.5, 0.125]
    assert on_grid(2.0 * (1 + 2**-52)) == 4.0 and on_grid(4.0 * (1 - 2**-53)) == 4.0
    for bad in (0.0, -1.0, float("inf"), float("nan")):
        with pytest.raises(ValueError):
            on_grid(bad)


def test_a_limit_is_the_floor_or_factor_times_the_slowest_run_on_the_grid() -> None:
    rule = LimitRule()  # floor 1 s, factor 4
    assert limit_of([0.0003]) == 1.0 and limit_of([]) == 1.0
    assert limit_of([0.3, 0.5, 0.4]) == 2.0  # the slowest: 4 x 0.5
    assert limit_of([0.26]) == 2.0  # 1.04 rounds up
    assert limit_of([0.9], LimitRule(floor_seconds=0.2, factor=2.0)) == 2.0  # 1.8 rounds up
    # timing again moves the times, even by half: the limits do not move
    for times in ([0.30, 0.31, 0.29], [0.45, 0.30, 0.32], [0.26, 0.49, 0.30]):
        assert limit_of(times, rule) == 2.0
    assert {limit_of([t * (1 + jitter)]) for t in (0.0001, 0.01, 0.05)
            for jitter in (-0.2, 0.0, 0.2)} == {1.0}
    with pytest.raises(ValueError):
        LimitRule(factor=0.5)


def test_only_tests_whose_time_could_decide_the_limit_run_again() -> None:
    rule = LimitRule()  # a quarter of the floor: 4 x t >= 0.25, t >= 62.5 ms
    assert [needs_repeats(t, rule) for t in (0.0001, 0.06, 0.0625, 0.7)] == [
        False, False, True, True]
    assert not needs_repeats(0.7, LimitRule(runs=1))
    firsts = [0.001, 0.1, 0.2, 0.0, 0.3, 0.07, 0.08]
    assert repeat_chunks(firsts, rule, size=2) == [[1, 2], [4, 5], [6]]
    assert first_limit(0.1) == 1.0 and first_limit(0.5) == 2.0


LOADED = Outcome(Status.OK)


def _result(outcomes: Sequence[Outcome], passed: Sequence[bool],
            load: Outcome = LOADED) -> JobResult:
    return JobResult(load, tuple(outcomes), tuple(passed))


def test_the_slowest_run_counts_and_what_is_not_a_run_does_not() -> None:
    ok = Outcome(Status.OK, "x", seconds=0.2)
    slower = Outcome(Status.OK, "x", seconds=0.45)
    timeout = Outcome(Status.TIMEOUT, error="no reply")
    raised = Outcome(Status.ERROR, error="ValueError", fault=Fault.RAISED)
    unrun = Outcome(Status.ERROR, error="not run", fault=Fault.NOT_RUN)
    firsts = [0.3, 0.001, 0.1, 0.4, 0.3]
    chunks = [[0, 2], [3, 4]]
    results = [
        # two passes over tests 0 and 2: test 0 once slower, test 2 once another answer
        _result([ok, ok, slower, Outcome(Status.OK, "y", seconds=0.1)],
                [True, True, True, False]),
        # test 3 timed out once (it counts as its limit), test 4 raised, then a run unrun
        _result([timeout, raised, ok, unrun], [False, False, True, False]),
    ]
    got = timed(firsts, chunks, results)
    assert got.slowest == (0.45, 0.001, 0.2, first_limit(0.4), 0.3)
    assert (got.repeated, got.timeouts, got.unstable) == (4, 1, 2)
    assert got.limits() == (2.0, 1.0, 1.0, 8.0, 2.0)
    broken = timed(firsts, chunks[:1], [_result([], [], Outcome(Status.ERROR, error="x",
                                                                fault=Fault.RAISED))])
    assert broken.slowest == tuple(firsts) and broken.unstable == 2


def test_only_a_task_s_slowest_tests_are_timed_again() -> None:
    rule = LimitRule(sample=3)
    # needing repeats: 1, 2, 4, 5, 6, 7 (0 and 3 are too quick); the slowest three of
    # those by first time, the earlier of equal times first: 4 (0.5), then 2 and 6 (0.3)
    firsts = [0.001, 0.1, 0.3, 0.0, 0.5, 0.07, 0.3, 0.3]
    assert sampled(firsts, rule) == [2, 4, 6]
    assert repeat_chunks(firsts, rule, size=2) == [[2, 4], [6]]
    assert sampled(firsts, LimitRule(sample=100)) == [1, 2, 4, 5, 6, 7]
    assert sampled(firsts, LimitRule(runs=1)) == [] and sampled([], rule) == []
    with pytest.raises(ValueError):
        LimitRule(sample=0)


def _passes(seconds: Sequence[float], passes: int = 2) -> JobResult:
    """A repeat job's result: each test (by place in the chunk) took ``seconds`` on every
    pass, and answered right."""
    outcomes = [Outcome(Status.OK, "x", seconds=t) for t in seconds] * passes
    return _result(outcomes, [True] * len(outcomes))


def test_the_sample_s_slowdown_carries_to_the_tests_not_timed_again() -> None:
    rule = LimitRule(sample=2)
    firsts = [0.5, 0.001, 0.2, 0.4, 0.1]  # sampled: 0 and 3; estimated: 2 and 4
    chunks = repeat_chunks(firsts, rule)
    assert chunks == [[0, 3]]
    # test 0 ran 1.2 times its first, test 3 1.5 times: the task's slowdown is 1.5
    got = timed(firsts, chunks, [_passes([0.6, 0.6])], rule)
    assert got.slowdown == pytest.approx(1.5)
    assert got.slowest == pytest.approx((0.6, 0.001, 0.3, 0.6, 0.15))
    assert (got.repeated, got.estimated, got.timeouts, got.unstable) == (2, 2, 0, 0)
    assert got.limits(rule) == (4.0, 1.0, 2.0, 4.0, 1.0)  # test 2: 4 x 0.3 = 1.2, up to 2
    # runs faster than the first: the slowdown is 1, the estimated keep their first time
    quicker = timed(firsts, chunks, [_passes([0.3, 0.2])], rule)
    assert quicker.slowdown == 1.0 and quicker.slowest == (0.5, 0.001, 0.2, 0.4, 0.1)
    # every test timed again (a large sample): nothing estimated
    whole = LimitRule(sample=16)
    assert timed(firsts, repeat_chunks(firsts, whole), [_passes([0.5, 0.4, 0.2, 0.1])],
                 whole).estimated == 0


def test_a_timeout_in_the_sample_gives_at_least_its_limit_over_its_first() -> None:
    rule = LimitRule(sample=2)
    firsts = [0.1, 0.4, 0.5, 0.08]  # sampled: 1 and 2; estimated: 0 and 3
    timeout = Outcome(Status.TIMEOUT, error="no reply")
    ok = Outcome(Status.OK, "x", seconds=0.5)
    # test 1 timed out once (its limit, 1.6 s, counts: 4 times its first), test 2 did not
    got = timed(firsts, [[1, 2]], [_result([timeout, ok, ok, ok], [False, True, True, True])],
                rule)
    assert got.slowest[1] == first_limit(0.4) and got.timeouts == 1
    assert got.slowdown == pytest.approx(4.0)
    assert got.slowest[0] == pytest.approx(0.4) and got.slowest[3] == pytest.approx(0.32)
    assert got.limits(rule) == (2.0, 8.0, 2.0, 2.0)


def test_an_unstable_test_of_the_sample_gives_no_slowdown() -> None:
    rule = LimitRule(sample=2)
    firsts = [0.1, 0.4, 0.5, 0.08]  # sampled: 1 and 2; estimated: 0 and 3
    # test 1 ran 3 times slower once, but answered otherwise on the other pass: its ratio
    # does not count; test 2's 1.2 does
    outcomes = [Outcome(Status.OK, "x", seconds=1.2), Outcome(Status.OK, "x", seconds=0.6),
                Outcome(Status.OK, "y", seconds=0.4), Outcome(Status.OK, "x", seconds=0.5)]
    got = timed(firsts, [[1, 2]], [_result(outcomes, [True, True, False, True])], rule)
    assert got.unstable == 1 and got.slowest[1] == 1.2  # its own slowest still counts
    assert got.slowdown == pytest.approx(1.2)
    assert got.slowest[0] == pytest.approx(0.12) and got.slowest[3] == pytest.approx(0.096)
    # a reference that no longer loads: no ratio at all, the estimated keep their first
    broken = timed(firsts, [[1, 2]], [_result([], [], Outcome(Status.ERROR, error="x",
                                                               fault=Fault.RAISED))], rule)
    assert broken.slowdown == 1.0 and broken.slowest == tuple(firsts)
    assert (broken.unstable, broken.estimated) == (2, 2)


def test_the_sample_s_size_is_part_of_the_checkpoint_s_key() -> None:
    task = ProgramTask("cc/echo", "", "print(input())\n", ())
    tests = _new([0.3, 0.1])
    keys = {limits_key(task, tests, LimitRule(sample=k)) for k in (1, 16, 17)}
    assert len(keys) == 3
    assert limits_key(task, tests, LimitRule()) == limits_key(task, tests,
                                                              LimitRule(sample=16))


def test_a_repeat_job_runs_whole_passes_judged_within_the_first_limit() -> None:
    tests = [ProgramTest(f"{k}\n", f"{k}\n") for k in range(4)]
    task = ProgramTask("cc/t", "", "print(input())\n", tuple(tests))
    job = repeat_job(task, tests, [0.1, 0.5, 0.0, 0.3], [1, 3], LimitRule(runs=3))
    assert list(job.inputs) == ["1\n", "3\n", "1\n", "3\n"]
    assert list(job.expected or []) == ["1\n", "3\n", "1\n", "3\n"]
    assert list(job.time_limits) == [2.0, 1.2, 2.0, 1.2]
    assert job.program and not job.fail_fast and job.code == task.solution


# --------------------------------------------------------------------------- the tasks file

TESTS: list[dict[str, Any]] = [
    {"input": "1 2\n", "output": "3\n", "public": True},
    {"input": "5 5\n", "output": "10\n", "public": False, "origin": "stress",
     "time_limit": 0.25},
    {"input": "-1 1\n", "output": "0\n", "public": False, "origin": "plus", "time_limit": None}]


def test_a_test_s_own_limit_is_read_back_and_written_where_set(tmp_path: Path) -> None:
    (task,) = load_program_tasks(write_jsonl(tmp_path / "t.jsonl.gz", [add_record(TESTS)]))
    assert [test.time_limit for test in task.tests] == [None, 0.25, None]
    assert [record_of_test(test) for test in task.tests] == [
        TESTS[0], TESTS[1], {k: v for k, v in TESTS[2].items() if k != "time_limit"}]
    # a file without the field reads as before
    plain = [{k: v for k, v in test.items() if k != "time_limit"} for test in TESTS]
    (old,) = load_program_tasks(write_jsonl(tmp_path / "o.jsonl.gz", [add_record(plain)]))
    assert all(test.time_limit is None for test in old.tests)
    for value, problem in [(0, "test 1: 'time_limit' must be above 0"),
                           (-1, "test 1: 'time_limit' must be a non-negative number"),
                           ("2", "test 1: 'time_limit' must be a non-negative number"),
                           (True, "test 1: 'time_limit' must be a non-negative number")]:
        bad = [TESTS[0], {**TESTS[1], "time_limit": value}]
        with pytest.raises(InputError, match=problem):
            load_program_tasks(write_jsonl(tmp_path / "b.jsonl.gz", [add_record(bad)]))


def test_a_test_s_own_limit_comes_first_then_the_task_s_then_the_caller_s() -> None:
    own, bare = ProgramTest("", "", time_limit=0.25), ProgramTest("", "")
    task = ProgramTask("t", "", "", (own, bare))
    timed_task = ProgramTask("t", "", "", (own, bare), time_limit=3.0)
    config = ProgramConfig(time_limit=2.0)
    assert [config.limit(task, own), config.limit(task, bare)] == [0.25, 2.0]
    assert config.limit(timed_task, bare) == 3.0 and config.limit(timed_task, own) == 0.25
    floor = ProgramConfig(time_limit=2.0, min_time_limit=0.5)
    assert [floor.limit(task, own), floor.limit(timed_task, bare)] == [0.5, 3.0]


# --------------------------------------------------------------------------- evaluate

#: Right, but spins half a second of CPU on "5 5": over that test's own limit.
SLOW = ("import time\na, b = map(int, input().split())\nif a == 5:\n"
        "    began = time.process_time()\n"
        "    while time.process_time() - began < 0.5:\n        pass\nprint(a + b)\n")
def _own_task(tmp_path: Path) -> ProgramTask:
    (task,) = load_program_tasks(write_jsonl(tmp_path / "t.jsonl.gz", [add_record(TESTS)]))
    return task


def test_each_test_runs_within_its_own_limit(program_sandbox: Sandbox, tmp_path: Path) -> None:
    task = _own_task(tmp_path)
    samples = [Sample("cc/add", ADD, 1), Sample("cc/add", SLOW, 2),
               Sample("cc/add", "print(3)\n", 3)]
    right, slow, wrong = judge_programs({"cc/add": task}, samples, program_sandbox,
                                        ProgramConfig(time_limit=2.0, details=True))
    assert [run.status for run in right.tests] == [RunStatus.PASS] * 3
    assert [run.time_limit for run in right.tests] == [2.0, 0.25, 2.0]
    assert [run.status for run in slow.tests] == [
        RunStatus.PASS, RunStatus.TIMEOUT, RunStatus.PASS]
    assert (slow.base, slow.full) == (Verdict.PASS, Verdict.FAIL)
    assert [failure_kind(r) for r in (right, slow, wrong)] == ["", "timeout", "correctness"]
    assert failure_kind(wrong, "base") == ""  # "3" is right on the public test
    assert failure_counts([right, slow, wrong]) == {
        "samples": 2, "timeout": 1, "refused": 0,
        "correctness": {"wrong_answer": 1, "runtime_error": 0, "output_limit": 0}}


def test_evaluate_reports_correctness_apart_from_timeouts(tmp_path: Path) -> None:
    tasks = write_jsonl(tmp_path / "t.jsonl.gz", [add_record(TESTS)])
    samples = write_samples(tmp_path / "s.jsonl", "cc/add",
                            [ADD, SLOW, "print(3)\n", "print("])
    result = CliRunner().invoke(main, ["evaluate", "--dataset-file", str(tasks), "--samples",
                                       str(samples), "-j", "1"])
    assert result.exit_code == 0, result.output
    assert ("full failures: 3 sample(s): correctness 2 (1 wrong_answer, 1 runtime_error), "
            "timeout 1") in result.output
    named = f"s.evalplus-ng.full-{hashlib.sha256(tasks.read_bytes()).hexdigest()[:12]}.json"
    document = json.loads((tmp_path / named).read_text())
    assert document["failures"]["full"] == {
        "samples": 3, "timeout": 1, "refused": 0,
        "correctness": {"wrong_answer": 1, "runtime_error": 1, "output_limit": 0}}
    assert document["failures"]["base"]["samples"] == 1  # the syntax error
    right, slow, _wrong, _syntax = document["eval"]["cc/add"]
    assert [t["time_limit"] for t in right["tests"]] == [10.0, 0.25, 10.0]
    assert slow["first_failure"] == {"index": 1, "status": "timeout", "tier": "stress"}


# --------------------------------------------------------------------------- augment


class _Repeats:
    """An executor answering repeat jobs with each run's expected output in ``seconds``."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.jobs: list[Job] = []

    def run(self, job: Job) -> JobResult:
        self.jobs.append(job)
        outputs = list(job.expected or [])
        return JobResult(Outcome(Status.OK), tuple(Outcome(Status.OK, out, seconds=self.seconds)
                                                   for out in outputs),
                         (True,) * len(outputs))

    def map(self, jobs: Any) -> Iterator[JobResult]:
        return (self.run(job) for job in jobs)


def _new(seconds: Sequence[float]) -> tuple[NewTest, ...]:
    return tuple(NewTest(ProgramTest(f"{k}\n", f"{k}\n", False, "plus"), "random", t)
                 for k, t in enumerate(seconds))


def test_limits_are_checkpointed_and_time_nothing_again(tmp_path: Path) -> None:
    task = ProgramTask("cc/echo", "", "print(input())\n", ())
    quick = ProgramTask("cc/quick", "", "print(input())\n", ())
    items = [(task, _new([0.001, 0.3, 0.1])), (quick, _new([0.001])),
             (ProgramTask("cc/none", "", "print(1)\n", ()), ())]
    box = _Repeats(0.4)
    asked: list[int] = []
    heard: list[tuple[int, int]] = []

    def executor() -> Any:
        asked.append(1)
        return box

    found = calibrate_program_tests(items, LimitRule(), tmp_path, executor,
                                    lambda done, total: heard.append((done, total)))
    assert set(found) == {"cc/echo", "cc/quick"}  # a task without new tests has none
    assert found["cc/echo"].timed.slowest == (0.001, 0.4, 0.4)
    assert found["cc/echo"].limits == (1.0, 2.0, 2.0) and found["cc/echo"].timed.repeated == 2
    assert found["cc/quick"].limits == (1.0,) and found["cc/quick"].timed.repeated == 0
    assert len(box.jobs) == 1 and list(box.jobs[0].inputs) == ["1\n", "2\n"] * 2
    assert heard[-1] == (2, 2) and asked == [1]
    kept = json.loads(limits_path(tmp_path, "cc/echo").read_text())["limits"]
    assert list(kept) == ["task_id", "limits", "slowest", "repeated", "timeouts", "unstable",
                          "estimated", "slowdown"]  # one flat record, the runs' counts in it
    again = calibrate_program_tests(items, LimitRule(), tmp_path, executor)
    assert again == found and asked == [1]  # from the checkpoints: no sandbox asked for
    # another rule (or other tests) is another key: timed again
    calibrate_program_tests(items, LimitRule(factor=8.0), tmp_path, executor)
    assert asked == [1, 1]


def test_the_tests_outside_the_sample_are_estimated_and_kept(tmp_path: Path) -> None:
    task = ProgramTask("cc/echo", "", "print(input())\n", ())
    items = [(task, _new([0.001, 0.3, 0.1]))]
    box = _Repeats(0.4)
    rule = LimitRule(sample=1)
    (found,) = calibrate_program_tests(items, rule, tmp_path, lambda: box).values()
    assert [list(job.inputs) for job in box.jobs] == [["1\n", "1\n"]]  # the slowest only
    got = found.timed
    assert (got.repeated, got.estimated) == (1, 1)
    assert got.slowdown == pytest.approx(0.4 / 0.3)
    assert got.slowest[:2] == (0.001, 0.4) and got.slowest[2] == pytest.approx(0.4 / 3)
    assert found.limits == (1.0, 2.0, 1.0)
    again = calibrate_program_tests(items, rule, tmp_path, NoRuns)
    assert again == {"cc/echo": found}  # every field read back from the checkpoint


#: The fake plan's reference, spinning 70 ms of CPU on its large inputs (n = 200): their
#: time could decide the limit, so the reference runs on them again.
SPINNING = SUM.replace(
    "print(", "import time\nif n == 200:\n    began = time.process_time()\n"
              "    while time.process_time() - began < 0.07:\n        pass\nprint(", 1)


def _records(tmp_path: Path) -> list[tuple[ProgramTask, dict[str, Any]]]:
    path = sum_tasks(tmp_path / "t.jsonl.gz")
    (task, record), *rest = zip(load_program_tasks(path), gz_lines(path), strict=True)
    spinning = ProgramTask(task.task_id, task.prompt, SPINNING, task.tests)
    return [(spinning, {**record, "canonical_solution": SPINNING}), *rest]


def _run(records: Any, out: Path, **options: Any) -> Any:
    return run_augment_programs(records, ProgramAugmentConfig(count=40), out,
                                planner=fake_plan, generator=fake_inputs,
                                **options)


def test_augment_writes_each_new_test_s_limit_and_resumes(tmp_path: Path) -> None:
    records = _records(tmp_path)
    summary = _run(records, tmp_path / "out", backend=Backend(1))
    sums, echo = gz_lines(summary.artifact)
    own, new = sums["tests"][:2], sums["tests"][2:]
    assert own == records[0][1]["tests"] and echo["tests"] == records[1][1]["tests"]
    assert all("time_limit" not in test for test in own)  # the dataset's own: untouched
    seconds = json.loads(summary.seconds_file.read_text())
    firsts, slowest = (seconds["tasks"]["cc/sum"][name] for name in ("seconds", "slowest"))
    assert seconds["limits"]["floor_seconds"] == 1.0 and len(slowest) == len(new)
    for test, first, most in zip(new, firsts, slowest, strict=True):
        assert most >= first and test["time_limit"] == limit_of([most])
    (limits,) = summary.limits
    again_timed = sum(needs_repeats(first) for first in firsts)
    assert limits.timed.repeated == again_timed >= 4  # the large inputs, each 70 ms at least
    assert [test["time_limit"] for test in new] == list(limits.limits)
    stats = json.loads(summary.stats.read_text())
    assert stats["limits"]["totals"]["tests"] == len(new)
    assert stats["limits"]["totals"]["repeated"] == again_timed
    assert any(line.startswith("time limits of the new tests") for line in
               summary_lines(summary))
    # resumed: every task and every limit from its checkpoint, the same bytes, no sandbox
    first = summary.artifact.read_bytes()
    again = _run(records, tmp_path / "out", executor=NoRuns())
    assert again.artifact.read_bytes() == first and again.resumed == 2
    # without a rule: no limits written
    bare = _run(records, tmp_path / "out", executor=NoRuns(), rule=None)
    assert all("time_limit" not in test for test in gz_lines(bare.artifact)[0]["tests"])
    assert "limits" not in json.loads(bare.stats.read_text())


def test_a_fresh_augment_gives_the_same_limits(tmp_path: Path) -> None:
    """Timing again moves the times; the grid keeps the limits (the fast reference's
    tests are all at the floor)."""
    path = sum_tasks(tmp_path / "t.jsonl.gz")
    records = list(zip(load_program_tasks(path), gz_lines(path), strict=True))
    one = _run(records, tmp_path / "one", backend=Backend(1))
    two = _run(records, tmp_path / "two", backend=Backend(1))
    assert one.artifact.read_bytes() == two.artifact.read_bytes()
    assert {test.get("time_limit") for test in gz_lines(one.artifact)[0]["tests"][2:]} \
        == {1.0}


def test_augment_no_calibrate_writes_no_limits(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    use_plan(monkeypatch)
    tasks = sum_tasks(tmp_path / "t.jsonl.gz")
    result = augment(tasks, tmp_path / "out", "-j", "1", "--no-calibrate", per_task=20)
    assert "time limits" not in result.output
    new = gz_lines(tmp_path / "out" / "ProgramsPlus.jsonl.gz")[0]["tests"][2:]
    assert new and all("time_limit" not in test for test in new)
