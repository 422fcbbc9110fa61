"""What the CLI refuses or caps before any work: workers beyond the machine, paths it
cannot write, numbers that are not numbers; and the interrupt message's command line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from evalplus_ng import cli
from evalplus_ng.backend.executors import Capacity


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli.main, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def samples(tmp_path: Path) -> Path:
    path = tmp_path / "s.jsonl"
    path.write_text(json.dumps({"task_id": "HumanEval/53", "completion": "    return x + y\n"})
                    + "\n", encoding="utf-8")
    return path


def test_capacity_is_cores_and_memory_at_least_one() -> None:
    gib = 1 << 30
    assert Capacity(2, 22 * gib).workers(4 * gib) == 2
    assert Capacity(64, 30 * gib).workers(4 * gib) == 7
    assert Capacity(8, gib).workers(4 * gib) == 1
    assert Capacity(3, None).workers(4 * gib) == 3
    here = Capacity.here()
    assert here.cores >= 1 and (here.available_bytes is None or here.available_bytes > 0)


def test_workers_are_capped_with_a_notice(monkeypatch: pytest.MonkeyPatch,
                                          evaluate_requests: list[Any], samples: Path) -> None:
    monkeypatch.setattr(Capacity, "here", classmethod(lambda cls: cls(2, 10 << 30)))
    code, _, err = _run("evaluate", "--samples", str(samples), "-j", "1000")
    assert code == 0 and evaluate_requests.pop().workspace.backend.workers == 2
    assert err == ("notice: -j 1000 capped at 2 worker(s): 2 core(s), 10.0 GiB of memory "
                   "available for 4 GiB per worker\n")
    code, _, err = _run("evaluate", "--samples", str(samples), "-j", "2", "--memory-mb", "8192")
    assert code == 0 and evaluate_requests.pop().workspace.backend.workers == 1
    assert "capped at 1" in err
    code, _, err = _run("evaluate", "--samples", str(samples), "-j", "2", "--memory-mb", "1024")
    assert code == 0 and evaluate_requests.pop().workspace.backend.workers == 2 and err == ""


@pytest.mark.parametrize(("args", "problem"), [
    (["--min-time-limit", "inf"], "Invalid value for '--min-time-limit': inf is not in the range"),
    (["--time-factor", "nan"], "'--gt-time-limit-factor': 'nan' is not a finite number."),
    (["--gt_time_limit_factor", "1e400"], "'--time-factor' / '--gt-time-limit-factor'"),
    (["--memory-mb", str(1 << 40)], "Invalid value for '--memory-mb'"),
    (["--parallel", "many"], "'many' is not a valid integer"),
    (["--results", "/proc/x/y.json"],
     "/proc/x/y.json: --results: cannot make the folder /proc/x ("),
])
def test_number_and_path_errors_are_one_line_before_any_work(
        evaluate_requests: list[Any], samples: Path, args: list[str], problem: str) -> None:
    code, _, err = _run("evaluate", "--samples", str(samples), *args)
    assert code == 2 and not evaluate_requests
    assert err.count("\n") == 1 and err.startswith("error: ") and problem in err, err


@pytest.mark.parametrize("command", [
    ["augment", "--out", "/proc/forbidden", "--tasks", "53"],
    ["augment", "--budget", "nan"],
    ["calibrate", "--factor", "inf"],
    ["audit", "--out", "/proc/forbidden"],
    ["report", "--out", "/proc/forbidden", "."],
    ["seed", "--model", "m", "--temperature", "nan"],
])
def test_other_commands_too(command: list[str]) -> None:
    code, out, err = _run(*command)
    assert code == 2 and out == "" and err.count("\n") == 1 and err.startswith("error: "), err
    assert "/proc/forbidden" in err or "Invalid value" in err


def test_a_file_that_cannot_be_written_mid_run_is_one_line(
        monkeypatch: pytest.MonkeyPatch, samples: Path) -> None:
    def fake(*_args: Any, **_kwargs: Any) -> None:
        raise PermissionError(13, "Permission denied", "/somewhere/s_eval_results.json")

    monkeypatch.setattr(cli, "run_evaluate", fake)
    code, _, err = _run("evaluate", "--samples", str(samples))
    assert (code, err) == (2, "error: /somewhere/s_eval_results.json: Permission denied\n")


def test_the_interrupt_message_names_the_command_that_continues(
        monkeypatch: pytest.MonkeyPatch, samples: Path, tmp_path: Path) -> None:
    def interrupted(*_args: Any, **_kwargs: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "run_evaluate", interrupted)
    code, _, err = _run("evaluate", "humaneval", str(samples), "--i_just_wanna_run")
    assert code == 130
    assert err == ("interrupted: the verdicts so far are in the results file; "
                   f"`main evaluate humaneval {samples} --resume` continues\n")
    monkeypatch.setattr(cli, "_workspace", interrupted)  # before augment's first stage
    out = tmp_path / "out"
    code, _, err = _run("augment", "--tasks", "53", "--out", str(out))
    assert code == 130 and "--resume" not in err
    assert err == ("interrupted: finished tasks are checkpointed in the --out folder "
                   "(audited tasks and MINI requirements too); "
                   f"`main augment --tasks 53 --out {out}` continues\n")
