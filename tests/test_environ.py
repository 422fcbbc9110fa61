"""The environment of what the sandbox starts is an allow-list: no variable of the shell
that ran evalplus-ng (an API key, a token, a home folder, a proxy) reaches a sample, a
program, the sanitizer's workers or a results file, in either jail."""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path

import pytest
from click.testing import CliRunner
from programfixtures import ADD_TASK, ADD_TESTS, add_record, write_jsonl

from evalplus_ng.cli import main
from evalplus_ng.jobs import program_job
from evalplus_ng.judge import JUDGE
from evalplus_ng.records import Job, Status
from evalplus_ng.sandbox import Limits, Sandbox
from evalplus_ng.sandbox.bounded import bounded_map
from evalplus_ng.sandbox.environ import NAMES, child_environment, package_home
from evalplus_ng.sandbox.rootfs import JAIL_ROOT
from evalplus_ng.serialize import decode, encode

#: The variable a test plants in its own environment, as a user exports an API key.
SECRET_NAME = "EVALPLUS_TEST_API_KEY"

#: A function sample that returns what it can find of its environment: its variables and
#: every environment /proc lets it read (its own, its parent's, its pid 1's).
SNOOPING_FUNCTION = """import os
def f(x):
    found = []
    for path in ("/proc/self/environ", f"/proc/{os.getppid()}/environ", "/proc/1/environ"):
        try:
            with open(path, "rb") as handle:
                found.append(handle.read().decode("latin-1"))
        except OSError:
            pass
    return [sorted(f"{k}={v}" for k, v in os.environ.items()), found]
"""
#: The same as a program: its variables, one a line, on stdout.
SNOOPING_PROGRAM = "import os\nfor k, v in sorted(os.environ.items()):\n    print(f'{k}={v}')\n"


@pytest.fixture
def secret(monkeypatch: pytest.MonkeyPatch) -> str:
    """A secret in this process's environment (and in a ``PYTHONPATH`` entry)."""
    value = f"sk-{uuid.uuid4().hex}"
    monkeypatch.setenv(SECRET_NAME, value)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        [os.environ.get("PYTHONPATH", ""), f"/nonexistent/{value}"]))
    return value


def _assert_allowed(variables: list[str], secret: str) -> None:
    """``variables`` (``NAME=value`` lines) are the allow-list's and the child's own."""
    env = dict(line.split("=", 1) for line in variables)
    assert secret not in "\n".join(variables)
    # The child's working folder is its TMPDIR; bubblewrap sets PWD to the jail's folder.
    assert set(env) - {"TMPDIR", "PWD"} == set(NAMES), sorted(env)
    assert env["TMPDIR"].startswith(JAIL_ROOT + "/")
    assert env.get("PWD", JAIL_ROOT) == JAIL_ROOT


def test_the_environment_is_the_allow_list_whatever_the_parent_holds() -> None:
    parent = {"OPENAI_API_KEY": "sk-1", "GITHUB_TOKEN": "ghp_2", "HOME": "/home/alice",
              "HTTPS_PROXY": "http://alice:pw@proxy:3128", "LD_PRELOAD": "/tmp/x.so",
              "PATH": "/home/alice/bin:/usr/bin", "LANG": "de_DE.UTF-8",
              "PYTHONHASHSEED": "123", "OMP_NUM_THREADS": "64",
              "PYTHONPATH": os.pathsep.join(["/opt/ng", "/home/alice/project", "/opt/py/lib"])}
    env = child_environment(parent, "/opt/ng", ["/opt/py"])
    assert env == {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "OMP_NUM_THREADS": "1",
                   "OPENBLAS_NUM_THREADS": "1", "PATH": "/usr/local/bin:/usr/bin:/bin",
                   "PYTHONHASHSEED": "0", "PYTHONPATH": os.pathsep.join(["/opt/ng", "/opt/py/lib"])}
    assert sorted(env) == sorted(NAMES)
    assert child_environment({}, "/opt/ng", [])["PYTHONPATH"] == "/opt/ng"


def test_a_sample_and_a_program_see_only_the_allow_list(jail: str, secret: str) -> None:
    with Sandbox(1, Limits(memory_bytes=1 << 30, load_seconds=5.0), judge=JUDGE) as box:
        result = box.run(Job(code=SNOOPING_FUNCTION, entry_point="f", inputs=[encode([1])],
                             time_limits=[10.0]))
        assert result.outcomes[0].status is Status.OK, result
        variables, environs = decode(result.outcomes[0].value)
        _assert_allowed(variables, secret)
        assert all(secret not in text for text in environs)
        assert f"PYTHONPATH={package_home()}" in variables
        program = box.run(program_job(ADD_TASK, SNOOPING_PROGRAM, ADD_TESTS[:1], 10.0))
        assert program.outcomes[0].status is Status.OK, program
        _assert_allowed(program.outcomes[0].value.splitlines(), secret)


def test_the_sanitizers_workers_see_only_the_allow_list(secret: str) -> None:
    # Trusted code, not jailed: it gets the same environment all the same.
    asked = f"${SECRET_NAME}|$HOME|$PYTHONHASHSEED"
    assert bounded_map("os.path:expandvars", [(asked,)]) == [f"${SECRET_NAME}|$HOME|0"]


@pytest.mark.parametrize("flags", [(), ("--no-sanitize",)])
def test_a_program_cannot_publish_a_key_in_the_results_file(
        tmp_path: Path, secret: str, flags: tuple[str, ...]) -> None:
    # A program's error text is written in the results file: it would carry the key.
    tasks = write_jsonl(tmp_path / "tasks.jsonl.gz", [add_record()])
    leak = ("import os\nraise ValueError(repr({k: v for k, v in os.environ.items() "
            "if k.endswith(('KEY', 'TOKEN'))}))\n")
    samples = write_jsonl(tmp_path / "s.jsonl", [{"task_id": "cc/add", "solution": leak}])
    result = CliRunner().invoke(main, ["evaluate", "--dataset-file", str(tasks), "--samples",
                                       str(samples), "-j", "1", "--min-time-limit", "0.5",
                                       *flags])
    assert result.exit_code == 0, result.output
    [written] = tmp_path.glob("s.evalplus-ng.full-*.json")
    assert secret not in written.read_text()
    [entry] = json.loads(written.read_text())["eval"]["cc/add"]
    assert entry["tests"][0]["error"] == "ValueError: {}"
