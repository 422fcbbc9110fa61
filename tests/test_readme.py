"""The README's quick start is two commands, and CI runs its test command verbatim."""

from __future__ import annotations

import re
from pathlib import Path

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
