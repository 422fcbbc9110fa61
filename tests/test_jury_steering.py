"""Samples cannot steer the suite, end to end through the command line (small fixtures of
this file, no ../shared): files named after two model families are two samples files, not
two families; the user declares families (``--family PATTERN=FAMILY``); the jury holds at
most a tenth of a task's plus inputs and calls samples that outvote the ground truth on
most of them suspect; any answer, however large, gives an audit and no traceback."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from test_jury import LAST_DIGIT

from evalplus_ng.cli import EXIT_INPUT, main

#: Names of real samples files of two families (WizardLM, Vicuna), as a hostile user names
#: files to make two families of one source.
WIZARD = "TheBloke_WizardLM-30B-GPTQ_VICUNA_MEDIUM.jsonl"
VICUNA = "TheBloke_vicuna-13B-1.1-GPTQ-4bit-128g_VICUNA_MEDIUM.jsonl"
#: Right on the base inputs (12, 7, 120) only: 0 on any other input.
ZERO_ELSE = ("def last_digit(n):\n    return abs(n) % 10 if n in (12, 7, 120) else 0\n")
RIGHT = "def last_digit(n):\n    return abs(n) % 10\n"
RIGHT_TOO = "def last_digit(n):\n    return int(str(abs(n))[-1])\n"


def _tasks(tmp_path: Path) -> Path:
    """The one-task tasks file whose reference is wrong below -999 (3 of its 40 inputs)."""
    tasks = tmp_path / "toy.jsonl"
    tasks.write_text(json.dumps(LAST_DIGIT) + "\n", encoding="utf-8")
    return tasks


def _samples(folder: Path, files: dict[str, list[str]]) -> Path:
    folder.mkdir()
    for name, codes in files.items():
        (folder / name).write_text("".join(json.dumps({"task_id": "toy/1", "solution": c})
                                           + "\n" for c in codes), encoding="utf-8")
    return folder


def _augment(tasks: Path, out: Path, *flags: str) -> Result:
    return CliRunner().invoke(main, ["augment", "--dataset", str(tasks), "--out", str(out),
                                     "--per-task", "40", "-j", "1", "--no-reduce",
                                     "--no-calibrate", *flags])


def _findings(out: Path) -> list[dict[str, Any]]:
    return list(json.loads((out / "audit.json").read_text(encoding="utf-8")))


def _jury(out: Path) -> list[dict[str, Any]]:
    return [f for f in _findings(out) if f["signal"] in ("samples", "suspect-samples")]


def test_samples_named_after_two_families_that_outvote_the_reference_hold_nothing(
        tmp_path: Path) -> None:
    tasks = _tasks(tmp_path)
    alone = _augment(tasks, tmp_path / "alone", "--no-audit")
    assert alone.exit_code == 0, alone.output
    samples = _samples(tmp_path / "s", {WIZARD: [ZERO_ELSE] * 2, VICUNA: [ZERO_ELSE] * 2})
    out = tmp_path / "out"
    result = _augment(tasks, out, "--samples", str(samples))
    assert result.exit_code == 0, result.output
    # The suite is the one made without samples, byte for byte: nothing held.
    assert (out / "ToyPlus.jsonl.gz").read_bytes() == \
        (tmp_path / "alone" / "ToyPlus.jsonl.gz").read_bytes()
    assert not (out / "ToyPlus-Held.jsonl.gz").exists()
    assert json.loads((out / "stats.json").read_text())["held_by_audit"]["inputs"] == 0
    [found] = _jury(out)
    assert found["signal"] == "suspect-samples" and found["held_inputs"] == 0
    assert found["families"] == {VICUNA: 2, WIZARD: 2}  # two files, not two models' names
    assert 2 * found["disputed_inputs"] > found["checked_inputs"] == 40
    assert "suspect samples on 1 task(s)" in result.stdout and "## Suspect samples" in \
        (out / "audit.md").read_text()


def test_families_are_what_the_user_declares(tmp_path: Path) -> None:
    tasks = _tasks(tmp_path)
    samples = _samples(tmp_path / "s", {"alpha_1.jsonl": [RIGHT, RIGHT_TOO],
                                        "alpha_2.jsonl": [RIGHT]})
    # Two files are two families: a lead holding the reference's 3 wrong inputs.
    out = tmp_path / "out"
    result = _augment(tasks, out, "--samples", str(samples), "--family", "alpha_1*=A",
                      "--family", "alpha_2*=B")
    assert result.exit_code == 0, result.output
    [lead] = _jury(out)
    assert lead["signal"] == "samples" and lead["families"] == {"A": 2, "B": 1}
    assert lead["held_inputs"] == 3 and (out / "ToyPlus-Held.jsonl.gz").exists()
    # Declared one family, they are no jury: nothing found, nothing held.
    audit = CliRunner().invoke(main, ["audit", "--dataset", str(tasks), "--out", str(out),
                                      "-j", "1", "--samples", str(samples),
                                      "--family", "alpha_*=alpha"])
    assert audit.exit_code == 0, audit.output
    assert _jury(out) == []
    # A pattern that matches no samples file is a one-line error, before any work.
    fresh = tmp_path / "fresh"
    refused = _augment(tasks, fresh, "--samples", str(samples), "--family", "QwenCoder=q")
    assert refused.exit_code == EXIT_INPUT and "Traceback" not in refused.output
    assert "--family: QwenCoder=q: 'QwenCoder' matches no samples file" in refused.output
    assert not (fresh / "ToyPlus.jsonl.gz").exists()
    alone = _augment(tasks, fresh, "--family", "alpha_*=alpha")
    assert alone.exit_code == EXIT_INPUT and "--family: only with --samples" in alone.output


#: Answers too large for ``repr``, for a finding's cell, or too deep for the sandbox.
HUGE = {"int": "10 ** 5000", "text": "'x' * 1_000_000",
        "deep": "__import__('functools').reduce(lambda a, _: [a], range(100_000), [])"}


def _plus(path: Path) -> list[Any]:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return [args for line in handle for args in json.loads(line)["plus_input"]]


@pytest.mark.parametrize("kind", ["int", "text", "deep"])
def test_a_huge_answer_where_the_reference_is_wrong_is_a_lead_or_a_failure(
        tmp_path: Path, kind: str) -> None:
    huge = f"def last_digit(n):\n    return abs(n) % 10 if n > -1000 else {HUGE[kind]}\n"
    samples = _samples(tmp_path / "s", {"a.jsonl": [huge] * 2, "b.jsonl": [huge] * 2})
    out = tmp_path / "out"
    result = _augment(_tasks(tmp_path), out, "--samples", str(samples))
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    found = _jury(out)
    assert "## Jury leads" in (out / "audit.md").read_text() or not found
    if kind in ("deep", "text"):  # more than the parent reads back: a failure, no vote
        assert found == []
        return
    [lead] = found
    assert lead["signal"] == "samples" and lead["held_inputs"] == 3
    assert isinstance(lead["expected"], str) and len(lead["expected"]) < 2100
    assert lead["expected"].startswith("0x")
    assert lead["expected"].endswith("more characters)")
    assert all(n < -999 for [n] in _plus(out / "ToyPlus-Held.jsonl.gz"))


def test_samples_answering_a_huge_int_everywhere_are_suspect_and_the_audit_is_written(
        tmp_path: Path) -> None:
    huge = ("def last_digit(n):\n    return abs(n) % 10 if n in (12, 7, 120) else "
            "10 ** 5000\n")
    samples = _samples(tmp_path / "s", {WIZARD: [huge] * 2, VICUNA: [huge] * 2})
    out = tmp_path / "out"
    result = _augment(_tasks(tmp_path), out, "--samples", str(samples))
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    [found] = _jury(out)
    assert found["signal"] == "suspect-samples" and found["expected"].startswith("0x")
    assert not (out / "ToyPlus-Held.jsonl.gz").exists()
