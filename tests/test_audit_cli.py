"""`evalplus-ng audit` end to end on one HumanEval task with a fixed ground truth."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from evalplus_ng.cli import main


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
