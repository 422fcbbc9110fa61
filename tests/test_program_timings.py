"""Timings files (``OUT/reference-seconds.json``) and ``augment --timings``: what the
reference's time decided (inputs dropped near the budget, limits near a step of the grid)
is the one part of a program suite a run measures; replayed, two runs on machines that
time differently give the same artifact byte for byte.

The reference runs on a fake executor whose times are noisy (a seeded stream per
"machine"), so that two fresh runs really differ; the plan and the tasks are
tests/programfixtures.py's.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from programfixtures import fake_inputs, fake_plan, gz_lines, sum_tasks

from evalplus_ng.cli import main
from evalplus_ng.errors import InputError
from evalplus_ng.generate.programs.planner import RANDOM, ProgramInput
from evalplus_ng.oracle.programs.answers import UNRUN, Timings, input_key, replayed
from evalplus_ng.pipeline.programs.augment import (
    SECONDS_FILE,
    ProgramAugmentConfig,
    run_augment_programs,
    summary_lines,
    warning_lines,
)
from evalplus_ng.pipeline.programs.timings import read_timings
from evalplus_ng.records import Fault, Job, JobResult, Outcome, Status
from evalplus_ng.tasks.programfile import load_program_tasks


class NoisyMachine:
    """Runs the sum reference of tests/programfixtures.py (in process): its answer, in a
    time that grows with ``n`` and moves by up to 1.6 times from run to run (a ``seed``
    per machine), a timeout past the input's limit, and a job stopped after its
    ``max_timeouts``, as the sandbox does. Records every job."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.jobs: list[Job] = []

    def seconds(self, text: str) -> float:
        n = int(text.split("\n")[0])
        return (0.4 * n / 12 if n < 200 else 1.0) * self.rng.uniform(0.6, 1.6)

    def run(self, job: Job) -> JobResult:
        self.jobs.append(job)
        outcomes: list[Outcome] = []
        passed: list[bool] = []
        timeouts = 0
        for k, (text, limit) in enumerate(zip(job.inputs, job.time_limits, strict=True)):
            assert isinstance(text, str)
            seconds = self.seconds(text)
            if seconds > limit:
                outcomes.append(Outcome(Status.TIMEOUT, error="timeout", seconds=limit))
                timeouts += 1
            else:
                output = f"{sum(map(int, text.split(chr(10))[1].split()))}\n"
                outcomes.append(Outcome(Status.OK, output, seconds=seconds))
            if job.expected is not None:
                passed.append(outcomes[-1].value == job.expected[k])
            if job.max_timeouts is not None and timeouts >= job.max_timeouts:
                break
        return JobResult(Outcome(Status.OK), tuple(outcomes), tuple(passed))

    def map(self, jobs: Iterable[Job]) -> Iterator[JobResult]:
        return (self.run(job) for job in jobs)


def _records(tmp_path: Path) -> list[tuple[Any, dict[str, Any]]]:
    path = sum_tasks(tmp_path / "t.jsonl.gz")
    return list(zip(load_program_tasks(path), gz_lines(path), strict=True))


def _run(records: Any, out: Path, machine: NoisyMachine, **options: Any) -> Any:
    return run_augment_programs(records, ProgramAugmentConfig(count=60), out,
                                planner=fake_plan, generator=fake_inputs, executor=machine,
                                **options)


def test_a_replayed_timings_file_gives_the_same_artifact_on_another_machine(
        tmp_path: Path) -> None:
    records = _records(tmp_path)
    first = _run(records, tmp_path / "first", NoisyMachine(1))
    fresh = _run(records, tmp_path / "fresh", NoisyMachine(2))
    # timed afresh, the other machine keeps and drops other inputs, and sets other limits
    assert first.artifact.read_bytes() != fresh.artifact.read_bytes()
    recorded = read_timings(first.seconds_file)
    assert recorded.time_limit == 1.0 and set(recorded.tasks) == {"cc/sum"}
    entry = recorded.tasks["cc/sum"]
    assert entry.dropped and set(entry.dropped.values()) <= {"timeout", "not_run"}
    machine = NoisyMachine(2)
    replay = _run(records, tmp_path / "replay", machine, timings=recorded.tasks)
    assert replay.artifact.read_bytes() == first.artifact.read_bytes()
    assert replay.seconds_file.read_bytes() == first.seconds_file.read_bytes()
    # the dropped inputs were not run; the kept ones within more than the budget; no
    # limit timed again (the slowest runs are the file's)
    ran = [text for job in machine.jobs for text in job.inputs]
    assert ran and not {input_key(str(text)) for text in ran} & set(entry.dropped)
    assert all(limit == 4.0 for job in machine.jobs for limit in job.time_limits)
    assert all(job.expected is None for job in machine.jobs)  # no repeat job
    assert replay.reports[0].replay_missed == 0 and not warning_lines(replay.reports)
    assert replay.replayed == 1 and any(line.startswith("timings replayed for 1 tasks")
                                        for line in summary_lines(replay))
    assert first.replayed == 0 and not any(line.startswith("timings replayed")
                                           for line in summary_lines(first))


class RaisingOnSeven(NoisyMachine):
    """A reference that raises where ``n == 7`` (its plan is refuted: no test kept), and
    answers the others near the budget (some over it, some not, by the machine)."""

    def seconds(self, text: str) -> float:
        return 3 * super().seconds(text)

    def run(self, job: Job) -> JobResult:
        result = super().run(job)
        return JobResult(result.load, tuple(
            Outcome(Status.ERROR, error="ValueError", fault=Fault.RAISED)
            if str(text).startswith("7\n") else outcome
            for text, outcome in zip(job.inputs, result.outcomes, strict=False)),
            result.passed)


def test_a_refuted_task_replays_its_answered_inputs_too(tmp_path: Path) -> None:
    records = _records(tmp_path)
    first = _run(records, tmp_path / "first", RaisingOnSeven(1))
    assert first.reports[0].outcome == "refuted"
    entry = read_timings(first.seconds_file).tasks["cc/sum"]
    assert entry.answered and not entry.inputs  # nothing kept, the answers still timed
    replay = _run(records, tmp_path / "replay", RaisingOnSeven(2),
                  timings=read_timings(first.seconds_file).tasks)
    assert replay.reports[0].dropped == first.reports[0].dropped
    assert replay.seconds_file.read_bytes() == first.seconds_file.read_bytes()


def test_a_replay_says_which_kept_inputs_it_could_not_answer(tmp_path: Path) -> None:
    records = _records(tmp_path)
    first = _run(records, tmp_path / "first", NoisyMachine(1))
    recorded = read_timings(first.seconds_file).tasks

    class Slower(NoisyMachine):
        def seconds(self, text: str) -> float:
            return 100 * super().seconds(text)

    replay = _run(records, tmp_path / "replay", Slower(1), timings=recorded,
                  rule=None)
    missed = replay.reports[0].replay_missed
    assert missed > 0
    assert any(f"{missed} input(s) the timings file kept" in line
               for line in warning_lines(replay.reports))


def test_replayed_outcomes_follow_the_file() -> None:
    texts = ["1\n5\n", "2\n1 2\n", "3\n1 2 3\n", "4\n1 1 1 1\n"]
    timings = Timings({input_key(texts[0]): 0.25}, {input_key(texts[1]): "timeout",
                                                     input_key(texts[2]): "not_run"})
    ok, slow = Outcome(Status.OK, "5\n", seconds=0.9), Outcome(Status.OK, "4\n", seconds=1.5)
    got = replayed([ProgramInput(text, RANDOM) for text in [*texts, "5\n1 1 1 1 1\n"]],
                   [slow, UNRUN, UNRUN, ok, slow], timings, 1.0)
    assert got[0] == Outcome(Status.OK, "4\n", seconds=0.25)  # kept: the file's seconds
    assert got[1].status is Status.TIMEOUT and got[2] == UNRUN and got[3] == ok
    assert got[4].status is Status.TIMEOUT  # not in the file: the budget, after the run
    assert not timings.runs(texts[1]) and timings.kept(texts[0]) and timings.runs(texts[3])
    with pytest.raises(ValueError):
        Timings({}, {"k": "runtime_error"})  # only time decides a replayed drop


@pytest.mark.parametrize(("text", "problem"), [
    ("{", "not JSON"),
    ('{"time_limit": 1.0, "tasks": {"cc/sum": [0.1]}}', "not a timings file"),
    ('{"format": 2, "time_limit": 1.0, "tasks": {"cc/sum": {"inputs": ["a"], '
     '"seconds": []}}}', "task 'cc/sum': 1 inputs but 0 seconds"),
    ('{"format": 2, "time_limit": 1.0, "tasks": {"cc/sum": {"dropped": {"a": "raised"}}}}',
     "'dropped' is not an object"),
    ('{"format": 2, "tasks": {}}', "no positive 'time_limit'"),
])
def test_a_bad_timings_file_is_one_error_naming_it(tmp_path: Path, text: str,
                                                   problem: str) -> None:
    path = tmp_path / "seconds.json"
    path.write_text(text)
    with pytest.raises(InputError, match=problem) as raised:
        read_timings(path)
    assert str(path) in str(raised.value)


def test_the_command_refuses_timings_of_another_budget_or_for_functions(
        tmp_path: Path) -> None:
    tasks = sum_tasks(tmp_path / "t.jsonl.gz")
    seconds = tmp_path / SECONDS_FILE
    seconds.write_text(json.dumps({"format": 2, "time_limit": 2.0, "tasks": {}}))
    result = CliRunner().invoke(main, ["augment", "--dataset-file", str(tasks), "--out",
                                       str(tmp_path / "out"), "--timings", str(seconds)])
    assert result.exit_code == 2
    assert "made with --time-limit 2, which decided its drops" in result.output
    result = CliRunner().invoke(main, ["augment", "--dataset", "humaneval", "--out",
                                       str(tmp_path / "f"), "--timings", str(seconds)])
    assert result.exit_code == 2 and "--timings: not for function tasks" in result.output
