"""``augment`` of program tasks as one Python call (:mod:`evalplus_ng.pipeline.programs.chain`):
each stage reported through ``on_stage`` as it ends, progress one bar at a time, and the
tasks file read from the workspace's dataset."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from programfixtures import gz_lines, sum_tasks, use_plan

from evalplus_ng.backend.executors import Backend
from evalplus_ng.errors import InputError
from evalplus_ng.pipeline.chain import Bars
from evalplus_ng.pipeline.context import Progress, Workspace
from evalplus_ng.pipeline.programs.augment import ARTIFACT
from evalplus_ng.pipeline.programs.chain import (
    STAGES,
    ProgramAugmentConfig,
    ProgramChainOptions,
    one_at_a_time,
    run_program_chain,
)
from evalplus_ng.pipeline.programs.minimize import MINI_ARTIFACT, MINI_STATS
from evalplus_ng.tasks.registry import program_file, resolve


def _recording_bars(events: list[str]) -> Bars:
    @contextmanager
    def bars(label: str) -> Iterator[Progress]:
        events.append(f"open {label}")
        yield lambda done, total: events.append(f"{label} {done}/{total}")
        events.append(f"close {label}")
    return bars


def test_one_bar_at_a_time_a_stage_ending_the_one_before() -> None:
    events: list[str] = []
    with one_at_a_time(_recording_bars(events)) as stages:
        first, second = stages("augmenting"), stages("timing limits")
        assert events == []  # a bar opens on its stage's first update only
        first(1, 2)
        first(2, 2)
        second(1, 1)
        assert events[-2:] == ["open timing limits", "timing limits 1/1"]
    assert events == ["open augmenting", "augmenting 1/2", "augmenting 2/2", "close augmenting",
                      "open timing limits", "timing limits 1/1", "close timing limits"]


def test_the_chain_reports_each_stage_and_removes_a_stale_mini(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    use_plan(monkeypatch)
    tasks = sum_tasks(tmp_path / "tasks.jsonl.gz")
    assert program_file(str(tasks)) == tasks == program_file("humaneval", tasks)
    out = tmp_path / "out"
    space = Workspace(resolve(str(tasks), tmp_path / "data"), out, Backend(1))
    reported: list[tuple[str, object]] = []
    events: list[str] = []
    summary = run_program_chain(ProgramAugmentConfig(count=10), space,
                                ProgramChainOptions(tasks="cc/sum", calibrate=False),
                                _recording_bars(events),
                                lambda stage, got: reported.append((stage, got)))
    assert [stage for stage, _ in reported] == ["augment"]
    assert reported[0][1] is summary.augment and summary.augment.artifact == out / ARTIFACT
    assert [line["task_id"] for line in gz_lines(out / ARTIFACT)] == ["cc/sum"]
    assert events[0] == "open augmenting" and "open timing limits" not in events
    assert (summary.audit, summary.mini, summary.removed) == (None, None, ())

    # a MINI left by a run on another suite goes, each file reported as a stage
    (out / MINI_ARTIFACT).write_bytes(b"")
    (out / MINI_STATS).write_text(json.dumps({"suite": "another"}))
    reported.clear()
    again = run_program_chain(ProgramAugmentConfig(count=10), space,
                              ProgramChainOptions(tasks="cc/sum", calibrate=False),
                              on_stage=lambda stage, got: reported.append((stage, got)))
    assert [stage for stage, _ in reported] == ["augment", "stale", "stale"]
    assert set(again.removed) == {out / MINI_ARTIFACT, out / MINI_STATS}
    assert not (out / MINI_ARTIFACT).exists()
    assert again.augment.resumed == 1  # the checkpoint of the first run
    assert {stage for stage, _ in reported} <= set(STAGES)


def test_the_chain_needs_a_tasks_file(tmp_path: Path) -> None:
    space = Workspace(resolve("humaneval", tmp_path / "data"), tmp_path / "out")
    with pytest.raises(InputError, match="program tasks are read from a tasks file"):
        run_program_chain(ProgramAugmentConfig(count=1), space)


def test_timings_of_another_time_limit_are_refused_naming_the_flag(
        tmp_path: Path) -> None:
    tasks = sum_tasks(tmp_path / "tasks.jsonl.gz")
    seconds = tmp_path / "seconds.json"
    seconds.write_text(json.dumps({"format": 2, "time_limit": 2.0, "tasks": {}}))
    space = Workspace(resolve(str(tasks), tmp_path / "data"), tmp_path / "out")
    with pytest.raises(InputError, match=r"^--timings .*made with --time-limit 2, which"):
        run_program_chain(ProgramAugmentConfig(count=1), space,
                          ProgramChainOptions(timings=seconds))
