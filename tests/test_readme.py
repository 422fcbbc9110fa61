"""The README's quick start is two commands, CI runs its test command verbatim, and the
examples of the README and the docs run as written."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _quick_start() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Quick start", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block is not None, "quick start has no sh block"
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_quick_start_is_two_commands() -> None:
    main_job, tests = _quick_start()
    assert main_job.startswith("pip install . && evalplus-ng ")
    assert tests.startswith("pip install '.[test]' && ")


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert _quick_start()[1] in ci.splitlines()


def test_main_job_uses_a_shipped_file() -> None:
    main_job = _quick_start()[0]
    for token in main_job.split():
        if token.endswith(".jsonl"):
            assert (ROOT / token).is_file(), token


def test_the_own_benchmark_walkthrough_runs_as_written(tmp_path: Path, monkeypatch: Any) -> None:
    """The README's "Augment your own benchmark" commands, verbatim, on the shipped
    example: the three wrong answers pass base and fail plus."""
    import json
    import shlex
    import shutil

    from click.testing import CliRunner

    from evalplus_ng.cli import main

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Augment your own benchmark", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block is not None
    commands = [shlex.split(line) for line in block.group(1).splitlines() if line.strip()]
    assert [c[:2] for c in commands] == [["evalplus-ng", "augment"], ["evalplus-ng", "evaluate"]]
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    outputs = []
    for command in commands:
        result = CliRunner().invoke(main, command[1:])
        assert result.exit_code == 0, result.output
        outputs.append(result.output)
    assert "base: pass@1 100.0" in outputs[1] and "plus: pass@1 50.0" in outputs[1]
    results = json.loads((tmp_path / "examples" / "toy-samples.evalplus-ng.plus.json")
                         .read_text())
    samples = [json.loads(line) for line in
               (tmp_path / "examples" / "toy-samples.jsonl").read_text().splitlines()]
    verdicts = [(entry["base_status"], entry["plus_status"])
                for task in results["eval"].values() for entry in task]
    assert len(verdicts) == len(samples) == 6
    assert sorted(verdicts) == [("pass", "fail")] * 3 + [("pass", "pass")] * 3


def test_the_python_api_example_runs_as_written(tmp_path: Path, monkeypatch: Any,
                                                capsys: Any) -> None:
    """The Python API page's example (docs/reference/python-api.md), verbatim."""
    page = (ROOT / "docs" / "reference" / "python-api.md").read_text(encoding="utf-8")
    block = re.search(r"## Evaluate samples from Python.*?```python\n(.*?)```", page, re.S)
    assert block is not None, "the Python API page has no python block"
    (tmp_path / "samples.jsonl").write_text(
        '{"task_id": "HumanEval/53", "completion": "    return x + y\\n"}\n'
        '{"task_id": "HumanEval/53", "completion": "    return x - y\\n"}\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    exec(compile(block.group(1), "python-api.md", "exec"), {})
    out = capsys.readouterr().out
    assert "1 of 164 tasks, 2 samples (2 per task) {'base': {1: 0.5}}" in out
    assert "HumanEval/53 fail" in out
    assert (tmp_path / "samples.evalplus-ng.base.json").is_file()
