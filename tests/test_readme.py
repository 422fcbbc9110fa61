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


#: A program task the planner plans (a count, then that many integers), for the Python API
#: page's program example.
SUM_STATEMENT = """Sum

Input

The first line contains a single integer n (1 ≤ n ≤ 100) — the length of the array.

The second line contains n integers a_1, a_2, ..., a_n (1 ≤ a_i ≤ 10^9).

Output

Print the sum of the array.
"""
SUM = "input()\nprint(sum(map(int, input().split())))\n"


def test_the_python_api_program_example_runs_as_written(tmp_path: Path, monkeypatch: Any,
                                                        capsys: Any) -> None:
    """The Python API page's program chain example, verbatim, on a one-task file: the chain
    adds tests, and they fail an answer that sums only the first three numbers, which
    passes the public tests."""
    import gzip
    import json

    page = (ROOT / "docs" / "reference" / "python-api.md").read_text(encoding="utf-8")
    block = re.search(r"## Program tasks from Python.*?```python\n(.*?)```", page, re.S)
    assert block is not None, "the Python API page has no program example"
    task = {"task_id": "cc/sum", "prompt": SUM_STATEMENT, "canonical_solution": SUM,
            "tests": [{"input": "3\n1 2 3\n", "output": "6\n", "public": True},
                      {"input": "1\n5\n", "output": "5\n", "public": True},
                      {"input": "2\n10 20\n", "output": "30\n", "public": False}]}
    (tmp_path / "tasks.jsonl.gz").write_bytes(
        gzip.compress((json.dumps(task) + "\n").encode(), mtime=0))
    wrong = "input()\nprint(sum(list(map(int, input().split()))[:3]))\n"
    (tmp_path / "samples.jsonl").write_text("".join(
        json.dumps({"task_id": "cc/sum", "solution": code}) + "\n" for code in (SUM, wrong)),
        encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    exec(compile(block.group(1), "python-api.md", "exec"), {})
    out = capsys.readouterr().out
    assert "done: augment" in out and "done: reduce" in out
    assert "programs-out/ProgramsPlus.jsonl.gz" in out
    assert "1 of 1 tasks, 2 samples (2 per task) {'base': {1: 1.0}, 'full': {1: 0.5}}" in out
    assert "'correctness': {'wrong_answer': 1" in out
    assert (tmp_path / "programs-out" / "ProgramsMini.jsonl.gz").is_file()
