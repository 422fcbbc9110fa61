"""A trusted parent that no sample can stall: the attacks in ``hostile_parent/`` (one per
file) on its own work (sanitizing, parsing, decoding outputs), each bounded.

Each attack runs end to end in a subprocess between two right answers, under a wall-time
allowance far above what a bounded run needs (the attacks cost minutes to hours
unbounded): it must get its failing verdict and reason, and its neighbours must pass.
The attacks on the parent's memory must also keep the parent's own peak memory and the
run's time within twice those of the same run with a right answer in their place.
"""

from __future__ import annotations

import json
import os
import runpy
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from evalplus_ng.evaluation.verdicts import evaluate_samples, results_document
from evalplus_ng.records import (
    SANITIZE_LIMIT,
    TOO_LARGE,
    TYPED,
    VALUE,
    Fault,
    Job,
    JobResult,
    Kept,
    Outcome,
    Sample,
    Status,
    Task,
    Verdict,
)
from evalplus_ng.sandbox.allowance import (
    FACTOR,
    SLACK_BYTES,
    SLACK_NESTING,
    SLACK_VALUES,
    Allowance,
    allowance,
    nesting,
    values,
)
from evalplus_ng.sandbox.bounded import CallLimits, Exceeded, bounded_map
from evalplus_ng.sandbox.jail import MODE_VARIABLE
from evalplus_ng.sandbox.protocol import value_text
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

    # Expected: a list of 200,000 ints, so that the forged set (4 MB) is within its
    # allowance; past it (where 3 is expected), it is too large, unread.
    code = _record("colliding_set")["solution"]
    job = Job(code=code, entry_point="add", inputs=[encode([1, 2])], time_limits=[5.0],
              expected=[encode(list(range(200_000)))])
    with Sandbox(1, Limits(memory_bytes=1 << 30), judge=JUDGE) as sandbox:
        result = sandbox.run(job)
        small = sandbox.run(replace(job, expected=[encode(3)]))
    (outcome,) = result.outcomes
    assert outcome.status is Status.BAD_OUTPUT and result.passed == (False,)
    assert outcome.error == ("unjudgeable output: more than 16 distinct members of 200000 "
                             "share one hash value")
    assert isinstance(outcome, Outcome)
    assert [(o.status, o.fault) for o in small.outcomes] == [(Status.ERROR, Fault.TOO_LARGE)]


# --------------------------------------------------------------------------- the parent's cost

#: Runs ``evaluate`` (the arguments after the code) and reports, on its last line of
#: stderr, the process's own peak memory (KiB) and CPU seconds: the parent's, not its
#: supervisors' or their children's.
_MEASURED = ("import resource, runpy, sys\n"
             "try:\n"
             "    runpy.run_module('evalplus_ng.cli', run_name='__main__', alter_sys=True)\n"
             "finally:\n"
             "    usage = resource.getrusage(resource.RUSAGE_SELF)\n"
             "    sys.stderr.write(f'\\nparent {usage.ru_maxrss} "
             "{usage.ru_utime + usage.ru_stime}\\n')\n")


@dataclass(frozen=True)
class _Cost:
    """An ``evaluate`` run: its results entries (every task's, in file order), its wall
    seconds and the parent's peak memory in KiB."""

    entries: list[dict[str, Any]]
    seconds: float
    peak_kib: int


def _measured(folder: Path, rows: list[dict[str, Any]], options: Sequence[str],
              user: tuple[int, list[str], dict[str, str]] | None = None) -> _Cost:
    """``evaluate -j 2`` on ``rows`` in a subprocess (killed past 5 minutes), measured; as
    ``user`` (its uid, Python and environment) where given."""
    folder.mkdir()
    samples = folder / "s.jsonl"
    samples.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    root = Path(__file__).parent.parent
    python, env = [sys.executable], {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(root), os.environ.get("PYTHONPATH", "")])}
    as_user: dict[str, Any] = {}
    if user is not None:
        uid, python, env = user
        env = {**env, "EVALPLUS_NG_CACHE": str(folder / "cache"),
               **{k: v for k, v in os.environ.items() if k == MODE_VARIABLE}}
        os.chown(folder, uid, uid)
        as_user = {"user": uid, "group": uid, "extra_groups": []}
    began = time.monotonic()
    done = subprocess.run([*python, "-c", _MEASURED, "evaluate", "--samples", str(samples),
                           "-j", "2", *options], capture_output=True, text=True, timeout=300,
                          env=env, check=False, cwd=folder, **as_user)
    seconds = time.monotonic() - began
    assert done.returncode == 0, done.stderr[-2000:]
    (results,) = folder.glob("s.evalplus-ng.*.json")
    document = json.loads(results.read_text(encoding="utf-8"))
    peak = int(done.stderr.strip().splitlines()[-1].split()[1])
    return _Cost([entry for task in document["eval"].values() for entry in task], seconds, peak)


#: HumanEval/53's reference, as a solution.
ADD = "def add(x, y):\n    return x + y\n"
BASE_OPTIONS = ("--suite", "base", "--min-time-limit", "0.5")
#: The attacks on the parent's memory, each a sample in ``hostile_parent/``.
MEMORY_ATTACKS = ("huge_output", "set_padding", "queued_outputs", "checker_flood")


def _spelled_apart(code: str, count: int) -> list[str]:
    """``count`` copies of ``code``, each a distinct text (a sample's code is judged once)."""
    return [f"{code.rstrip()}  # {k}\n" for k in range(count)]


def _solutions(task_id: str, codes: Sequence[str]) -> list[dict[str, Any]]:
    return [{"task_id": task_id, "solution": code} for code in codes]


def _tasks_file(folder: Path, fixture: dict[str, Any]) -> str:
    path = folder / "tasks.jsonl"
    path.write_text(json.dumps(fixture["TASK"]) + "\n", encoding="utf-8")
    path.chmod(0o644)
    return str(path)


@dataclass(frozen=True)
class _Attack:
    """An attack on the parent's memory judged end to end: the samples with a right answer
    in the hostile one's place, the same with it, the options of ``evaluate``, and the
    verdicts (each results entry's status, failure kind, first failure and tests run)."""

    right: list[dict[str, Any]]
    hostile: list[dict[str, Any]]
    options: tuple[str, ...]
    verdicts: list[tuple[Any, ...]]


def _verdicts(entries: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """Each results entry's statuses and what failed it (a program's: its first failure
    and how many tests ran)."""
    return [(entry["base_status"], entry.get("base_failure"), entry.get("full_status"),
             entry.get("first_failure"), len(entry.get("tests", ()))) for entry in entries]


def _attack(name: str, folder: Path) -> _Attack:
    """The attack of ``hostile_parent/<name>.py``, between right answers (others spelled
    apart around it, so that a run's time is that of judging samples, not of starting)."""
    fixture = runpy.run_path(str(HOSTILE_PARENT / f"{name}.py"))
    passed = ("pass", None, None, None, 0)
    if name == "huge_output":
        right = {"task_id": "HumanEval/53", "completion": CORRECT}
        other = {"task_id": "HumanEval/53", "completion": "    return y + x\n"}
        around = _solutions("HumanEval/53", _spelled_apart(ADD, 30))
        return _Attack([right, other, right, *around],
                       [right, {"task_id": "HumanEval/53", **fixture["record"]()}, right,
                        *around], BASE_OPTIONS,
                       [passed, ("fail", "wrong output", None, None, 0), *[passed] * 31])
    if name == "set_padding":
        reference = _solutions("Mbpp/2", [fixture["TASK"]["canonical_solution"]])
        around = _solutions("Mbpp/2", _spelled_apart(fixture["RIGHT"], 30))
        return _Attack([*reference, around[0], *reference, *around],
                       [*reference, {"task_id": "Mbpp/2", **fixture["record"]()}, *reference,
                        *around], ("--dataset", _tasks_file(folder, fixture), *BASE_OPTIONS),
                       [passed, ("fail", "wrong output", None, None, 0), *[passed] * 31])
    if name == "queued_outputs":
        slow = _solutions("HumanEval/53", [fixture["SLOW"]])
        last = [{"task_id": "HumanEval/53", "completion": CORRECT}]

        def rows(records: list[dict[str, str]]) -> list[dict[str, Any]]:
            return [*slow, *({"task_id": "HumanEval/53", **r} for r in records), *last]

        return _Attack(rows(fixture["right_records"]()), rows(fixture["records"]()),
                       BASE_OPTIONS, [passed, *[("fail", "wrong output", None, None, 0)]
                                      * fixture["COUNT"], passed])
    assert name == "checker_flood"
    programs = _solutions("cc/div", [fixture["SMALLEST"]])
    # Other right answers, which the checker judges on every test.
    others = _solutions("cc/div", _spelled_apart(fixture["RIGHT"], 4))
    all_passed = ("pass", None, "pass", None, len(fixture["TASK"]["tests"]))
    first = {"index": 0, "status": "wrong_answer", "tier": "public"}
    return _Attack([*programs, others[0], *programs, *others],
                   [*programs, {"task_id": "cc/div", **fixture["record"]()}, *programs,
                    *others],
                   ("--dataset-file", _tasks_file(folder, fixture), "--min-time-limit", "2"),
                   [all_passed, ("fail", None, "fail", first, 1), all_passed,
                    *[all_passed] * 4])


def _bounded(folder: Path, name: str,
             user: tuple[int, list[str], dict[str, str]] | None = None) -> None:
    """Attack ``name`` gets its verdicts, the parent's peak memory and the run's time
    within twice those of the same run with a right answer in the hostile one's place."""
    attack = _attack(name, folder)
    plain = _measured(folder / "right", attack.right, attack.options, user)
    attacked = _measured(folder / "hostile", attack.hostile, attack.options, user)
    assert attacked.peak_kib <= 2 * plain.peak_kib, (attacked.peak_kib, plain.peak_kib)
    if attacked.seconds > 2 * plain.seconds:
        # Other work on the machine (the tests run on two workers) slows a run of a second
        # or two, never speeds one up: the faster of two runs each, taken in turn.
        attacked = min(attacked, _measured(folder / "hostile-again", attack.hostile,
                                           attack.options, user), key=lambda c: c.seconds)
        plain = min(plain, _measured(folder / "right-again", attack.right, attack.options,
                                     user), key=lambda c: c.seconds)
    assert attacked.seconds <= 2 * plain.seconds, (attacked.seconds, plain.seconds)
    assert _verdicts(attacked.entries) == attack.verdicts
    if name == "checker_flood":  # the first wrong output ended it, unread past UTF-8
        (only,) = attacked.entries[1]["tests"]
        assert only["error"] == f"stdout is not UTF-8 text: byte 0 of {8 << 20}"


@pytest.mark.parametrize("name", MEMORY_ATTACKS)
def test_an_attack_on_the_parents_memory_is_bounded(tmp_path: Path, jail: str,
                                                     name: str) -> None:
    _bounded(tmp_path, name)


@pytest.mark.skipif(os.geteuid() != 0, reason="running as another uid needs root")
@pytest.mark.parametrize("name", MEMORY_ATTACKS)
def test_an_attack_on_the_parents_memory_is_bounded_for_an_ordinary_user(name: str) -> None:
    from asuser import ordinary_user

    with ordinary_user() as user:
        _bounded(user.folder, name, (user.uid, user.python, user.env))


# --------------------------------------------------------------------------- the pieces

def test_an_allowance_follows_the_input_and_the_expected_output() -> None:
    assert [values(text) for text in (b"3", b"[1,2,3]", b"[[],[]]", b'{"t":[1,"a,b"]}')] == [
        1, 4, 5, 5]  # a comma inside a string counts too: an upper bound
    assert [nesting(wire, 10) for wire in (3, [], [[1], 2], {"t": [[1]]})] == [0, 1, 2, 3]
    deep: list[Any] = []
    for _ in range(1000):
        deep = [deep]
    assert nesting(deep, 10) == 11  # counted no further than asked
    small = allowance(b"3", 3, b"[1,2]", [1, 2])
    assert small == Allowance(SLACK_BYTES + FACTOR * 5, SLACK_VALUES + FACTOR * 3,
                              SLACK_NESTING + 1)
    expected = encode(list(range(10_000)))
    text = value_text(expected).encode()
    assert allowance(text, expected, b"[1]", [1]).bytes == SLACK_BYTES + FACTOR * len(text)


#: Per input: 20,000 empty lists (60 KB of text, within its bytes, past its values), a list
#: nested 100 deep, a right answer.
_SIZES = '''\\
def add(x, y):
    if x == 1:
        return [[]] * 20_000
    if x == 2:
        deep = []
        for _ in range(100):
            deep = [deep]
        return deep
    return x + y
'''


def test_outputs_past_their_values_or_nesting_are_too_large() -> None:
    from evalplus_ng.judge import JUDGE
    from evalplus_ng.sandbox import Limits, Sandbox

    inputs = [encode([1, 2]), encode([2, 2]), encode([3, 2])]
    job = Job(_SIZES, "add", inputs, [5.0] * 3, expected=[encode(3), encode(4), encode(5)],
              fail_fast=False)
    with Sandbox(1, Limits(memory_bytes=1 << 30), judge=JUDGE) as sandbox:
        result = sandbox.run(job)
    values_allowed = SLACK_VALUES + FACTOR * 3  # the input [1, 2] holds 3 by the count
    assert [(o.status, o.fault, o.error) for o in result.outcomes] == [
        (Status.ERROR, Fault.TOO_LARGE,
         f"OutputTooLarge: output too large: more than {values_allowed} values"),
        (Status.ERROR, Fault.TOO_LARGE,
         f"OutputTooLarge: output too large: nested more than {SLACK_NESTING + 1} levels deep"),
        (Status.OK, None, None)]
    assert result.passed == (False, False, True)


def test_a_reply_past_its_allowance_is_skipped_never_held() -> None:
    import threading
    import tracemalloc

    from evalplus_ng.sandbox.protocol import HEADER, SECONDS, widen
    from evalplus_ng.sandbox.replies import Reading, _read_run, _Stream

    def frame(payload: bytes) -> bytes:
        body = b"o" + SECONDS.pack(0.5) + payload
        return HEADER.pack(len(body)) + body

    run = frame(b"[1]") + frame(b"[" + b"0," * (16 << 20) + b"0]") + frame(b"[2]")
    read_end, write_end = os.pipe()
    widen(read_end)

    def write() -> None:
        view = memoryview(run)
        while view:
            view = view[os.write(write_end, view[:1 << 16]):]
        os.close(write_end)

    writer = threading.Thread(target=write)
    got: list[Outcome] = []

    def take(judged: list[tuple[Outcome, bool]]) -> bool:
        got.extend(outcome for outcome, _ in judged)
        return False  # never stop: read it all

    stream = _Stream(read_end)
    stream.deadline = time.monotonic() + 60
    tracemalloc.start()
    writer.start()
    try:
        ended = _read_run(stream, len(run), 0, Reading(None, False, 1 << 20), take)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        writer.join()
        os.close(read_end)
    assert not ended and [(o.status, o.value, o.error) for o in got] == [
        (Status.OK, [1], None),
        (Status.ERROR, None, "OutputTooLarge: output too large: more than 1048576 bytes"),
        (Status.OK, [2], None)]
    assert peak < 4 << 20  # of a 32 MB reply: a chunk or two, never the output


@pytest.mark.parametrize(("kept", "values"), [(Kept.ALL, [3, [4], 6]),
                                              (Kept.FAILED, [None, [4], None]),
                                              (Kept.NONE, [None, None, None])])
def test_a_judged_job_keeps_the_outputs_it_asks_for(kept: Kept, values: list[Any]) -> None:
    from evalplus_ng.judge import JUDGE
    from evalplus_ng.sandbox import Limits, Sandbox

    code = "def add(x, y):\n    return [x + y] if x == 2 else x + y\n"
    inputs = [encode([1, 2]), encode([2, 2]), encode([3, 3])]
    job = Job(code, "add", inputs, [5.0] * 3, expected=[encode(3), encode(4), encode(6.0)],
              fail_fast=False, kept=kept)
    with Sandbox(1, Limits(memory_bytes=1 << 30), judge=JUDGE) as sandbox:
        result = sandbox.run(job)
    # 6 for 6.0 passes (an int where a float is expected), judged by value, not by text
    assert result.passed == (True, False, True)
    assert [o.value for o in result.outcomes] == values
