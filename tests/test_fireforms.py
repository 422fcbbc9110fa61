"""evalplus 0.3.1's command lines (python-fire's forms) as ours: the rewrite on literal
argv lists, and every form of the table in docs/how-to/from-evalplus.md parsed by
``evaluate`` (CliRunner) into the same request as our own flags, without judging anything."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from evalplus_ng import cli
from evalplus_ng.fireforms import (
    EVALPLUS_EVALUATE,
    FireFormError,
    is_flag,
    read,
    rewrite,
    truthy,
)

#: Our options as ``evaluate`` has them: name -> takes a value (a few, for the rewrite).
OURS = {"--dataset": True, "--samples": True, "--suite": True, "-j": True, "--jobs": True,
        "--parallel": True, "--base-only": False, "--mini": False, "--noextreme": False,
        "--no-extreme": False, "--test-details": False, "--details": False,
        "--min-time-limit": True, "--gt-time-limit-factor": True, "--version": True,
        "-i": False, "--i-just-wanna-run": False, "--resume": False, "--memory-mb": True,
        "--no-sanitize": False, "-h": False, "--help": False}


def _rewrite(line: str) -> list[str]:
    return rewrite(shlex.split(line), EVALPLUS_EVALUATE, OURS)


@pytest.mark.parametrize(("line", "expected"), [
    ("--dataset humaneval --samples s.jsonl", "--dataset=humaneval --samples=s.jsonl"),
    ("humaneval --samples s.jsonl", "--dataset=humaneval --samples=s.jsonl"),
    ("--samples s.jsonl humaneval", "--dataset=humaneval --samples=s.jsonl"),
    ("humaneval s.jsonl", "--dataset=humaneval --samples=s.jsonl"),
    ("--dataset mbpp s.jsonl", "--dataset=mbpp --samples=s.jsonl"),
    ("humaneval s.jsonl True 4", "--dataset=humaneval --samples=s.jsonl --base-only "
                                 "--parallel=4"),
    ("s.jsonl --base_only --dataset humaneval",
     "--dataset=humaneval --samples=s.jsonl --base-only"),
    ("--base_only=False --base-only=True --nobase_only", ""),
    ("--base_only=false --mini=0 --noextreme None", "--base-only"),  # fire's literals
    ("--base_only humaneval", "--base-only"),  # a flag's value is the next non-flag
    ("--min_time_limit=-1 --gt-time-limit-factor 8", "--min-time-limit=-1 "
                                                     "--gt-time-limit-factor=8"),
    ("--version", "--version=True"),
    ("--nonoextreme --test_details", "--test-details"),
    ("-i --memory_mb 100 --no_sanitize -j 3", "-i --memory-mb 100 --no-sanitize -j 3"),
    ("--foo_bar x --no-sanitize", "--foo_bar --no-sanitize --dataset=x"),
    ("a b c d e f g h i j k l", "--dataset=a --samples=b --base-only --parallel=d "
                                "--i-just-wanna-run --test-details --min-time-limit=g "
                                "--gt-time-limit-factor=h --mini --noextreme --version=k l"),
    ("humaneval -- --help", "--dataset=humaneval --help"),
])
def test_fire_forms_rewrite_to_ours(line: str, expected: str) -> None:
    assert _rewrite(line) == shlex.split(expected)


def test_fire_reads_flags_values_and_literals_as_fire_does() -> None:
    assert [is_flag(t) for t in ["--x", "-x", "-xy", "-1", "-", "x", "--"]] == [
        True, True, True, False, False, False, True]
    assert [truthy(t) for t in ["True", "False", "0", "0.0", "None", "[]", "''", "false",
                                "no", "1", "x y"]] == [
        True, False, False, False, False, False, False, True, True, True, True]


@pytest.mark.parametrize(("line", "suite", "notices"), [
    ("humaneval S --base_only=false", "base", [
        "--base_only false: fire reads the text 'false' as true, so --base-only is on "
        "(False, 0 or --nobase_only turn it off)"]),
    ("--base_only humaneval --samples S", "base", [
        "--base_only humaneval: fire reads the text 'humaneval' as true, so --base-only is on"]),
    ("--samples S humaneval stray", "base", [
        "the positional argument 'stray' is read as --base-only=stray (fire fills dataset, "
        "samples, base_only, ... in that order)"]),
    ("humaneval S True", "base", ["the positional argument 'True' is read as --base-only=True"]),
    ("humaneval S --base_only=False --test_details=1 --mini", "mini", []),
    ("humaneval S --base-only", "base", []),
])
def test_a_value_fire_reads_in_a_way_not_meant_gets_a_notice_line(
        evaluate_requests: list[Any], tmp_path: Path, line: str, suite: str,
        notices: list[str]) -> None:
    # --base_only=false and a stray token gave a base-only run without a word.
    argv = shlex.split(line.replace("S", str(tmp_path / "s.jsonl")))
    read_notices = read(argv, EVALPLUS_EVALUATE, OURS).notices
    assert len(read_notices) == len(notices)
    assert all(n.startswith(start) for n, start in zip(read_notices, notices, strict=True))
    result = CliRunner().invoke(cli.main, ["evaluate", *argv])
    assert result.exit_code == 0, result.output
    lines = [text for text in result.stderr.splitlines() if text.startswith("notice: ")]
    assert len(lines) == len(notices), result.stderr
    assert all(text.startswith(f"notice: {start}") for text, start in zip(
        lines, notices, strict=True))
    assert evaluate_requests.pop().suite == suite  # the forms are kept


def test_generating_samples_is_refused_by_name() -> None:
    with pytest.raises(FireFormError, match=r"--model: evalplus\.evaluate generates samples"):
        _rewrite("humaneval --model gpt-4o --backend openai --greedy")


# ------------------------------------------------------------------ evaluate, parsed


def _request(evaluate_requests: list[Any], folder: Path, line: str) -> tuple[Any, ...]:
    argv = shlex.split(line.replace("S", str(folder / "s.jsonl")))
    result = CliRunner().invoke(cli.main, ["evaluate", *argv])
    assert result.exit_code == 0, (line, result.output)
    request = evaluate_requests.pop()
    space = request.workspace
    return (request.samples, request.suite, request.resume, request.config, request.limits,
            request.results, request.sanitizing, request.evalplus_results,
            space.dataset.name, space.out,
            space.backend.workers)


#: evalplus 0.3.1 command lines (after `evalplus.evaluate`) and ours they mean.
FORMS = [
    ("--dataset humaneval --samples S", "--samples S"),
    ("humaneval S", "--samples S"),
    ("--samples S humaneval", "--samples S"),
    ("--dataset=mbpp --samples=S", "--dataset mbpp --samples S"),
    ("mbpp --samples S --base_only", "--dataset mbpp --samples S --suite base"),
    ("humaneval S --base-only True", "--samples S --suite base"),
    ("humaneval S --base_only=False", "--samples S"),
    ("humaneval S --nobase_only", "--samples S"),
    ("humaneval S --parallel 1", "--samples S -j 1"),
    ("humaneval S --parallel=1 --i_just_wanna_run", "--samples S -j 1"),
    ("humaneval S -i --i-just-wanna-run", "--samples S"),
    ("humaneval S --test_details", "--samples S --details"),
    ("humaneval S --min_time_limit 2 --gt_time_limit_factor=8",
     "--samples S --min-time-limit 2 --time-factor 8"),
    ("humaneval S --mini", "--samples S --suite mini"),
    ("humaneval S --mini --base_only", "--samples S --suite base"),
    ("humaneval S --noextreme", "--samples S"),
    ("humaneval S --version", "--samples S"),
    ("humaneval S --version v0.1.9", "--samples S"),
    ("mbpp S --version=v0.2.0", "--dataset mbpp --samples S"),
]


@pytest.mark.parametrize(("theirs", "ours"), FORMS)
def test_each_evalplus_form_makes_the_request_ours_does(
        evaluate_requests: list[Any], tmp_path: Path, theirs: str, ours: str) -> None:
    made = evaluate_requests
    assert _request(made, tmp_path, theirs) == _request(made, tmp_path, ours)


@pytest.mark.parametrize(("line", "problem"), [
    ("--samples S --foo", "error: No such option '--foo'."),
    ("--samples S -b", "error: No such option '-b'."),
    ("--samples S --no-base-only",  # click suggested --base-only, the opposite
     "error: --no-base-only: no such option; --base-only is off unless given (fire's form "
     "to turn it off: --nobase_only)"),
    ("--samples S --no_test_details", "error: --no_test_details: no such option; "
                                      "--test-details is off unless given"),
    ("humaneval S --model gpt-4o", "error: --model: evalplus.evaluate generates samples"),
    ("mbpp S --version v0.1.0", "error: --version v0.1.0: evalplus-ng reads MBPP+ v0.2.0"),
    ("humaneval S -i --resume", "error: --i-just-wanna-run judges every sample again"),
    ("humaneval S --parallel 0", "error: Invalid value for '-j' / '--jobs' / '--parallel'"),
])
def test_what_we_refuse_is_one_line_exit_2(evaluate_requests: list[Any], tmp_path: Path,
                                           line: str, problem: str) -> None:
    argv = shlex.split(line.replace("S", str(tmp_path / "s.jsonl")))
    result = CliRunner().invoke(cli.main, ["evaluate", *argv])
    assert result.exit_code == 2 and not evaluate_requests
    assert result.stderr.count("\n") == 1 and result.stderr.startswith(problem), result.stderr
