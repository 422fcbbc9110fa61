"""`evalplus-ng audit` end to end on one HumanEval task with a fixed ground truth."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from evalplus_ng.backend.executors import Backend
from evalplus_ng.cli import main
from evalplus_ng.pipeline.audit import run_audit
from evalplus_ng.pipeline.context import Workspace
from evalplus_ng.tasks.artifact import write_plus_file
from evalplus_ng.tasks.registry import resolve


def test_audit_flags_humaneval_97_with_a_shrunk_witness(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["audit", "--tasks", "97", "--out", str(tmp_path),
                                       "-j", "1"])
    assert result.exit_code == 0, result.output
    assert "1 defective reference solution(s)" in result.stdout
    findings = json.loads((tmp_path / "audit.json").read_text())
    [finding] = [f for f in findings if f["signal"] == "differential"]
    assert finding["task_id"] == "HumanEval/97" and finding["category"] == "bad-logic"
    assert finding["status"] == "confirmed"
    # -1 % 10 is 9 in Python: the original multiplies 9 by 1; the unit digits are 1 and 1.
    assert (finding["witness"], finding["expected"], finding["actual"]) == ([-1, 1], 1, 9)
    assert "| HumanEval/97 | bad-logic | `multiply(-1, 1)` |" in (tmp_path / "audit.md").read_text()


def test_audit_rejects_a_samples_folder_without_samples(tmp_path: Path) -> None:
    empty = tmp_path / "none"
    empty.mkdir()
    result = CliRunner().invoke(main, ["audit", "--tasks", "97", "--out", str(tmp_path),
                                       "--samples", str(empty), "-j", "1"])
    assert result.exit_code == 2
    assert result.stderr.strip() == f"error: {empty}: no *.jsonl samples files in this folder"


def test_audit_of_some_tasks_leaves_out_samples_of_the_others(tmp_path: Path) -> None:
    # A model's samples file answers every task; --tasks audits one: the others' samples
    # are left out (they were an "unknown task_id" error), a task no dataset has is not.
    folder = tmp_path / "samples"
    folder.mkdir()
    (folder / "model.jsonl").write_text(
        '{"task_id": "HumanEval/0", "completion": "    return True\\n"}\n'
        '{"task_id": "HumanEval/97", "completion": "    return abs(a % 10) * abs(b % 10)\\n"}\n',
        encoding="utf-8")
    result = CliRunner().invoke(main, ["audit", "--tasks", "97", "--out", str(tmp_path / "out"),
                                       "--samples", str(folder), "-j", "1"])
    assert result.exit_code == 0, result.output
    assert "1 defective reference solution(s)" in result.stdout
    (folder / "model.jsonl").write_text('{"task_id": "HumanEval/999", "completion": "x"}\n',
                                        encoding="utf-8")
    result = CliRunner().invoke(main, ["audit", "--tasks", "97", "--out", str(tmp_path / "out"),
                                       "--samples", str(folder), "-j", "1"])
    assert result.exit_code == 2 and "unknown task_id 'HumanEval/999'" in result.stderr


INVERSE = {"task_id": "toy/inv", "entry_point": "inv",
           "prompt": 'def inv(x: int) -> float:\n    """1 / x, for any x: 0 too."""\n',
           "canonical_solution": "    return 1 / x\n", "base_input": [[1], [2]]}


@pytest.mark.parametrize(("answered_lines", "raises"), [(None, True), (200_000, False),
                                                        (2_000_000, True)])
def test_the_suite_augment_wrote_is_not_run_again_on_its_own_ground_truth(
        tmp_path: Path, answered_lines: int | None, raises: bool) -> None:
    # A suite whose oracle answered every input (augment's) cannot hold [0], on which
    # this reference raises: it stands here for an input the audit would find, were it run.
    path = tmp_path / "inv.jsonl"
    path.write_text(json.dumps(INVERSE) + "\n")
    dataset = resolve(str(path))
    out = tmp_path / "out"
    out.mkdir()
    write_plus_file([replace(task, plus_inputs=([4], [0])) for task in dataset.load()],
                    out / dataset.suite_file("plus"))
    summary = run_audit(Workspace(dataset, out, Backend(1)), answered_lines=answered_lines)
    # Vouched for within the line budget, the suite's inputs do not run: no finding on [0].
    found = [(f.signal, f.witness) for f in summary.findings]
    assert found == ([("raises", [0])] if raises else [])


def test_augment_audits_its_own_suite_as_answered(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from evalplus_ng.pipeline import audit, chain
    from evalplus_ng.pipeline.augment import AugmentConfig

    seen: list[int | None] = []
    real = audit.run_audit

    def spy(*args: object, answered_lines: int | None = None, **kwargs: object) -> object:
        seen.append(answered_lines)
        return real(*args, answered_lines=answered_lines, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(audit, "run_audit", spy)
    monkeypatch.setattr(chain, "run_audit", spy)
    path = tmp_path / "inv.jsonl"
    path.write_text(json.dumps(INVERSE) + "\n")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["augment", "--dataset", str(path), "--out", str(out),
                                       "--per-task", "10", "-j", "1", "--no-reduce",
                                       "--no-calibrate"])
    assert result.exit_code == 0, result.output
    assert seen == [AugmentConfig().max_lines] and (out / "audit.json").is_file()
    # The standalone command cannot know where its suite comes from: every input runs.
    result = CliRunner().invoke(main, ["audit", "--dataset", str(path), "--out", str(out),
                                       "-j", "1"])
    assert result.exit_code == 0, result.output
    assert seen[1:] == [None]
