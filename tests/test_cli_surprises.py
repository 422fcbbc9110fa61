"""What a newcomer trips on: a flag read in a way the user did not mean is an error (or a
notice), never a quietly different run."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from evalplus_ng.cli import main


def test_an_artifacts_folder_that_does_not_exist_is_an_error(tmp_path: Path) -> None:
    # Named by the user, a missing folder gave a base-only run and exit code 0.
    samples = tmp_path / "samples.jsonl"
    samples.write_text(json.dumps({"task_id": "HumanEval/2",
                                   "completion": "    return number % 1.0\n"}) + "\n")
    missing = tmp_path / "no-such-out"
    done = CliRunner().invoke(main, ["evaluate", "--samples", str(samples), "--artifacts",
                                     str(missing), "-j", "1"])
    assert done.exit_code == 2, done.output
    assert f"{missing}: no such folder" in done.output
    assert not list(tmp_path.glob("samples.evalplus-ng.*.json"))


def test_a_misspelt_suite_lists_the_names(tmp_path: Path) -> None:
    samples = tmp_path / "samples.jsonl"
    samples.write_text(json.dumps({"task_id": "HumanEval/2",
                                   "completion": "    return number % 1.0\n"}) + "\n")
    done = CliRunner().invoke(main, ["evaluate", "--samples", str(samples), "--suite", "plsu"])
    assert done.exit_code == 2, done.output
    assert "'plsu' is neither a suite name (auto, base, plus, mini, stress" in done.output
