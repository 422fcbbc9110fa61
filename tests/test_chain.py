"""``augment`` end to end as one Python call
(:func:`evalplus_ng.pipeline.chain.run_augment_chain`)."""

from __future__ import annotations

import contextlib
import json
from contextlib import AbstractContextManager
from pathlib import Path

import pytest

from evalplus_ng.backend.executors import Backend
from evalplus_ng.pipeline.augment import AugmentConfig
from evalplus_ng.pipeline.chain import STAGES, ChainOptions, run_augment_chain
from evalplus_ng.pipeline.context import Progress, Workspace
from evalplus_ng.tasks.plusfile import load_plus_file
from evalplus_ng.tasks.registry import resolve

ADD = {"task_id": "toy/add", "entry_point": "add",
       "prompt": 'def add(a: int, b: int) -> int:\n    """The sum of a and b."""\n',
       "canonical_solution": "    if a < 0:\n        return b + a\n    return a + b\n",
       "base_input": [[1, 2], [-3, 4]]}


def _run(tmp_path: Path, options: ChainOptions | None = None) -> tuple[list[str], Path]:
    path = tmp_path / "toy.jsonl"
    path.write_text(json.dumps(ADD) + "\n")
    dataset = resolve(str(path), tmp_path / "data")
    out = tmp_path / "out"
    stages: list[str] = []
    labels: list[str] = []

    def bars(label: str) -> AbstractContextManager[Progress]:
        labels.append(label)
        return contextlib.nullcontext(lambda _done, _total: None)

    summary = run_augment_chain(dataset.load(), AugmentConfig(dataset=dataset.name,
                                                              per_task=12),
                                Workspace(dataset, out, Backend(1)),
                                options or ChainOptions(), bars,
                                lambda stage, _summary: stages.append(stage))
    assert summary.augment.artifact == out / "ToyPlus.jsonl.gz"
    assert labels[0] == "augmenting"
    return stages, out


def test_the_chain_runs_every_stage_in_order_and_writes_every_suite(tmp_path: Path) -> None:
    stages, out = _run(tmp_path)
    assert stages == ["augment", "audit", "calibrate", "reduce", "reduce-stress"]
    assert [s for s in STAGES if s in stages] == stages
    for name in ("ToyPlus", "ToyPlus-Mini", "ToyPlus-Stress", "ToyPlus-Stress-Mini"):
        [task] = load_plus_file(out / f"{name}.jsonl.gz")
        assert task.calibration is not None, name  # calibrated before it was reduced
    assert (out / "audit.json").is_file() and (out / "reduction.json").is_file()


def test_stages_turned_off_do_not_run(tmp_path: Path) -> None:
    stages, out = _run(tmp_path, ChainOptions(audit=False, calibrate=False, reduce=False))
    assert stages == ["augment"]
    assert not (out / "audit.json").exists() and not (out / "ToyPlus-Mini.jsonl.gz").exists()
    [task] = load_plus_file(out / "ToyPlus.jsonl.gz")
    assert task.calibration is None


def test_each_stage_hands_the_suites_it_wrote_to_the_next_in_memory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Every stage used to read back the suite the stage before it had just written (the
    # audit, the calibration, each reduction): each suite file is now written, never read.
    from evalplus_ng.tasks import plusfile

    read: list[Path] = []
    original = plusfile.read_jsonl

    def reading(path: Path) -> object:
        read.append(Path(path))
        return original(path)

    monkeypatch.setattr(plusfile, "read_jsonl", reading)
    stages, out = _run(tmp_path)
    assert stages == ["augment", "audit", "calibrate", "reduce", "reduce-stress"]
    assert [path for path in read if path.parent == out] == []
    monkeypatch.undo()
    for name in ("ToyPlus", "ToyPlus-Mini", "ToyPlus-Stress", "ToyPlus-Stress-Mini"):
        [task] = load_plus_file(out / f"{name}.jsonl.gz")
        assert task.calibration is not None, name
