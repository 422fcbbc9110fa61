"""A trusted parent that no sample can stall: the attacks in ``hostile_parent/`` (one per
file) on its own work (sanitizing, parsing, decoding outputs), each bounded.

Each attack runs end to end in a subprocess between two right answers, under a wall-time
allowance far above what a bounded run needs (the attacks cost minutes to hours
unbounded): it must get its failing verdict and reason, and its neighbours must pass.
"""

from __future__ import annotations

import json
import os
import runpy
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from evalplus_ng.evaluation.evaluate import evaluate_samples, results_document
from evalplus_ng.records import (
    SANITIZE_LIMIT,
    TOO_LARGE,
    TYPED,
    VALUE,
    Job,
    JobResult,
    Outcome,
    Sample,
    Status,
    Task,
    Verdict,
)
from evalplus_ng.sandbox.bounded import CallLimits, Exceeded, bounded_map
from evalplus_ng.serialize import MAX_SHARED_HASH, Unjudgeable, decode, encode
from evalplus_ng.tasks.samples import MAX_SOURCE_BYTES, prepare_all, read_samples_of
from evalplus_ng.tasks.sanitize import sanitize

HOSTILE_PARENT = Path(__file__).parent / "hostile_parent"
#: Hash value 0: every multiple of this int hashes to 0.
MODULUS = 2**61 - 1
PROMPT = "def add(x: int, y: int):\n    \"\"\"Add two numbers x and y\"\"\"\n"
CORRECT = "    return x + y\n"


def _record(name: str) -> dict[str, str]:
    record: dict[str, str] = runpy.run_path(str(HOSTILE_PARENT / f"{name}.py"))["record"]()
    return record


def _evaluate(tmp_path: Path, rows: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], str]:
    """Results entries of an ``evaluate`` run in a subprocess (killed past 5 minutes)."""
    samples = tmp_path / "s.jsonl"
    samples.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    root = Path(__file__).parent.parent
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), os.environ.get(
        "PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, "-m", "evalplus_ng.cli", "evaluate", "--samples", str(samples),
         "-j", "2", "--suite", "base", "--min-time-limit", "0.5"],
        capture_output=True, text=True, timeout=300, env=env, check=False)
    assert done.returncode == 0, done.stderr
    document = json.loads((tmp_path / "s.evalplus-ng.base.json").read_text(encoding="utf-8"))
    return document["eval"]["HumanEval/53"], done.stdout


@pytest.mark.parametrize(("name", "failure"), [
    ("sanitize_blowup", SANITIZE_LIMIT),
    ("huge_source", TOO_LARGE),
    ("colliding_set", "wrong output"),
])
def test_a_hostile_parent_sample_fails_and_the_run_finishes(
        tmp_path: Path, name: str, failure: str) -> None:
    hostile = {"task_id": "HumanEval/53", **_record(name)}
    right = {"task_id": "HumanEval/53", "completion": CORRECT}
    entries, out = _evaluate(tmp_path, [right, hostile, right])
    assert [(e["base_status"], e.get("base_failure")) for e in entries] == [
        ("pass", None), ("fail", failure), ("pass", None)]
    if failure != "wrong output":
        assert f"1 sample(s) failed without running: 1 {failure}" in out
    if failure == TOO_LARGE:  # the results keep the start of it, not 4 MB
        assert len(entries[1]["solution"]) == 1000


def test_sanitizing_past_its_limit_is_cut_and_the_batch_goes_on() -> None:
    blowup = _record("sanitize_blowup")["completion"]
    body = "```python\ndef add(x, y):\n    return x+y\n```\nThat is all."
    answers = [(CORRECT, PROMPT, "add", False), (blowup, PROMPT, "add", False),
               (body, PROMPT, "add", False)]
    results = prepare_all(answers, CallLimits(cpu_seconds=1))
    assert results == [sanitize(CORRECT, PROMPT, "add"), Exceeded("time"),
                       sanitize(body, PROMPT, "add")]


def test_a_call_out_of_memory_or_stuck_in_c_costs_its_worker_and_the_batch_goes_on() -> None:
    # 10 GB asked of a worker capped at 1 GiB; then a loop inside C that never checks
    # for signals, where the CPU timer's handler cannot run (RLIMIT_CPU kills it).
    calls: list[tuple[Any, ...]] = [("x", 10**10), ("ab", 2)]
    assert bounded_map("operator:mul", calls) == [Exceeded("memory"), "abab"]
    calls = [(range(10**12),), (["a", "b"],)]
    assert bounded_map("builtins:max", calls, CallLimits(cpu_seconds=0.5)) == [
        Exceeded("time"), "b"]


def test_a_call_past_its_cpu_time_is_abandoned_and_its_worker_goes_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A regular expression that backtracks for ages (the engine lets the timer's handler
    # run): the worker abandons the call and answers the next one itself.
    started: list[object] = []
    real = subprocess.Popen
    monkeypatch.setattr("evalplus_ng.sandbox.bounded.subprocess.Popen",
                        lambda *a, **k: started.append(a) or real(*a, **k))
    calls = [(r"(a+)+$", "", "a" * 64 + "b"), ("a", "b", "a")]
    assert bounded_map("re:sub", calls, CallLimits(cpu_seconds=0.5)) == [Exceeded("time"), "b"]
    assert len(started) == 1


def test_a_huge_answer_is_refused_before_anything_parses_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    prepared: list[object] = []
    monkeypatch.setattr("evalplus_ng.tasks.samples.prepare_all",
                        lambda answers, **_: prepared.extend(answers)
                        or [sanitize(a, p, e) for a, p, e, _ in answers])
    task = Task("T/0", PROMPT, "add", "def add(x, y):\n    return x + y\n", ((1, 2),))
    fits = f"{CORRECT}    # " + "x" * (MAX_SOURCE_BYTES - len(CORRECT) - 7) + "\n"
    over = fits[:-2] + "é\n"  # one character less, one byte more
    assert len(fits.encode()) == MAX_SOURCE_BYTES == len(over.encode()) - 1
    path = tmp_path / "s.jsonl"
    path.write_text("".join(json.dumps({"task_id": "T/0", "completion": c}) + "\n"
                            for c in (fits, over)), encoding="utf-8")
    samples, _ = read_samples_of(path, {"T/0": task})
    assert [s.refused for s in samples] == ["", TOO_LARGE]
    assert samples[1].code == over[:1000]
    assert [answer for answer, *_ in prepared] == [fits]  # type: ignore[misc]


class _NoRuns:
    def map(self, jobs: Any) -> Any:
        assert not list(jobs), "a refused sample was run"
        return iter(())

    def run(self, job: Job) -> JobResult:
        raise AssertionError("a refused sample was run")


def test_refused_samples_fail_in_both_columns_without_running() -> None:
    from evalplus_ng.oracle.groundtruth import Expected, GroundTruth

    task = Task("T/0", PROMPT, "add", "", ((1, 2),), plus_inputs=((3, 4),))
    truth = GroundTruth("T/0", Expected((3,), (0.0,), (False,)), Expected((7,), (0.0,), (False,)))
    samples = [Sample("T/0", "big", 1, TOO_LARGE), Sample("T/0", "x = (", 2, SANITIZE_LIMIT)]
    results = [r for _, r in evaluate_samples({"T/0": task}, {"T/0": truth}, samples, _NoRuns())]
    assert [(r.base_status, r.plus_status, r.base_failure, r.plus_failure) for r in results] == [
        (Verdict.FAIL, Verdict.FAIL, TOO_LARGE, TOO_LARGE),
        (Verdict.FAIL, Verdict.FAIL, SANITIZE_LIMIT, SANITIZE_LIMIT)]
    entries = results_document(results)["eval"]["T/0"]
    assert [e["plus_failure"] for e in entries] == [TOO_LARGE, SANITIZE_LIMIT]


def test_sets_and_dicts_whose_members_collide_are_refused_unbuilt() -> None:
    crowd = [i * MODULUS for i in range(40_000)]
    for wire in ({"s": crowd}, {"f": crowd}, {"d": [[k, 0] for k in crowd]},
                 [{"t": [1, {"s": crowd}]}]):
        with pytest.raises(Unjudgeable, match="distinct members of 40000 share one hash"):
            decode(wire)
    # A few members may share a hash (-1 and -2 do; so do these): such sets still decode.
    few = {-1, -2, *(i * MODULUS for i in range(MAX_SHARED_HASH - 1)), *range(1, 100)}
    assert decode(encode(few)) == few
    mapping = {(i, str(i)): i for i in range(1000)}
    assert decode(encode(mapping)) == mapping


@pytest.mark.parametrize("equality", [TYPED, VALUE])
def test_the_set_oracle_refuses_a_list_whose_members_collide(equality: str) -> None:
    from evalplus_ng.judge import check

    crowd = [i * MODULUS for i in range(40_000)]
    with pytest.raises(Unjudgeable):
        check("set", ([],), [0], crowd, 0.0, equality)
    assert check("set", ([],), [1, 2], [2, 1, 2], 0.0, equality)
    # Repeats of one value share its hash and are one member: a long list of zeros is judged.
    assert check("set", ([],), [0], [0] * 250, 0.0, equality)
    assert check("set", ([],), [(1, "a"), 0], [(1, "a")] * 250 + [0] * 250, 0.0, equality)
    nan = float("nan")
    assert check("set", ([],), [nan], [nan] * 250, 0.0, equality)


def test_the_sandbox_refuses_a_colliding_output_as_unjudgeable() -> None:
    from evalplus_ng.judge import JUDGE
    from evalplus_ng.sandbox import Limits, Sandbox

    job = Job(code=_record("colliding_set")["solution"], entry_point="add",
              inputs=[encode([1, 2])], time_limits=[5.0], expected=[encode(3)])
    with Sandbox(1, Limits(memory_bytes=1 << 30), judge=JUDGE) as sandbox:
        result = sandbox.run(job)
    (outcome,) = result.outcomes
    assert outcome.status is Status.BAD_OUTPUT and result.passed == (False,)
    assert outcome.error == ("unjudgeable output: more than 16 distinct members of 200000 "
                             "share one hash value")
    assert isinstance(outcome, Outcome)
