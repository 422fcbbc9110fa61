"""`evalplus-ng augment` end to end on a few tasks: valid, reproducible, resumable, loadable."""

from __future__ import annotations

import contextlib
import gzip
import json
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from evalplus_ng.cli import main
from evalplus_ng.errors import UnknownTaskError
from evalplus_ng.generate.contract import load_contract
from evalplus_ng.pipeline.augment import select_tasks
from evalplus_ng.resources import data_dir
from evalplus_ng.tasks.artifact import write_plus_file
from evalplus_ng.tasks.plusfile import load_plus_file
from evalplus_ng.tasks.registry import load_humaneval

TASKS = "0,53,127"
FIELDS = ["task_id", "prompt", "entry_point", "canonical_solution", "test", "contract",
          "base_input", "plus_input", "atol"]


def _augment(out: Path, *extra: str) -> str:
    result = CliRunner().invoke(main, ["augment", "--out", str(out), "--tasks", TASKS,
                                       "--per-task", "40", "-j", "2", *extra])
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.fixture(scope="module")
def first_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("aug")
    _augment(out)
    return out


def test_artifact_has_evalplus_fields_and_valid_inputs(first_run: Path) -> None:
    with gzip.open(first_run / "HumanEvalPlus.jsonl.gz", "rt", encoding="utf-8") as handle:
        records = [json.loads(line) for line in handle]
    assert [r["task_id"] for r in records] == ["HumanEval/0", "HumanEval/53", "HumanEval/127"]
    assert all(list(r)[: len(FIELDS)] == FIELDS for r in records)
    contracts = data_dir("contracts") / "humaneval"
    by_id = {task.task_id: task for task in load_humaneval()}
    for task in load_plus_file(first_run / "HumanEvalPlus.jsonl.gz"):
        assert len(task.plus_inputs) == 40
        contract = load_contract(by_id[task.task_id], contracts)
        assert [contract.violation(args) for args in task.plus_inputs] == [None] * 40
        # Types survive the round trip: HumanEval/127 takes tuples.
    loaded = {t.task_id: t for t in load_plus_file(first_run / "HumanEvalPlus.jsonl.gz")}
    assert all(type(args[0]) is tuple for args in loaded["HumanEval/127"].plus_inputs)
    stats = json.loads((first_run / "stats.json").read_text())
    assert stats["plus_inputs"]["min"] == 40
    # The stress tier: same schema and base inputs, valid new inputs none of which is in plus.
    stress = {t.task_id: t for t in load_plus_file(first_run / "HumanEvalPlus-Stress.jsonl.gz")}
    assert list(stress) == list(loaded)
    for task_id, task in stress.items():
        assert task.base_inputs == loaded[task_id].base_inputs
        contract = load_contract(by_id[task_id], contracts)
        assert all(contract.violation(args) is None for args in task.plus_inputs)
        assert not {repr(a) for a in task.plus_inputs} & {repr(a) for a in
                                                         loaded[task_id].plus_inputs}
    assert [r["stress_inputs"] for r in stats["tasks"]] == [
        len(stress[t].plus_inputs) for t in stress]


def _uncalibrated(path: Path, tmp_path: Path) -> bytes:
    """The suite at ``path`` written again without its calibration."""
    tasks = load_plus_file(path)
    assert all(task.calibration is not None for task in tasks), path
    copy = tmp_path / ("uncalibrated-" + path.name)
    write_plus_file([replace(task, calibration=None) for task in tasks], copy)
    return copy.read_bytes()


def test_same_seed_gives_byte_identical_artifacts(first_run: Path, tmp_path: Path) -> None:
    # Timings are the one part of a suite that cannot repeat: without them (or
    # with them taken out again), every artifact is the same byte for byte.
    _augment(tmp_path, "--no-calibrate")
    for name in ("HumanEvalPlus.jsonl.gz", "HumanEvalPlus-Mini.jsonl.gz",
                 "HumanEvalPlus-Stress.jsonl.gz"):
        assert (tmp_path / name).read_bytes() == _uncalibrated(first_run / name, tmp_path), name
    for name in ("stats.json", "audit.json", "audit.md", "reduction.json", "reduction.md"):
        assert (tmp_path / name).read_bytes() == (first_run / name).read_bytes(), name
    other = tmp_path / "other"
    _augment(other, "--seed", "1", "--no-audit", "--no-reduce", "--no-calibrate")
    assert (other / "HumanEvalPlus.jsonl.gz").read_bytes() != \
        (first_run / "HumanEvalPlus.jsonl.gz").read_bytes()


def test_rerun_resumes_from_checkpoints(first_run: Path, tmp_path: Path) -> None:
    before = _uncalibrated(first_run / "HumanEvalPlus.jsonl.gz", tmp_path)
    assert "(3 from checkpoints)" in _augment(first_run)
    assert _uncalibrated(first_run / "HumanEvalPlus.jsonl.gz", tmp_path) == before


def test_augment_of_more_tasks_adds_them_and_keeps_the_rest_in_step(
        first_run: Path, tmp_path: Path) -> None:
    import shutil

    folder = tmp_path / "out"
    shutil.copytree(first_run, folder)
    before = {t.task_id: t for t in load_plus_file(folder / "HumanEvalPlus.jsonl.gz")}
    audited = [r for r in json.loads((folder / "audit.json").read_text())]
    result = CliRunner().invoke(main, ["augment", "--out", str(folder), "--tasks", "2",
                                       "--per-task", "40", "-j", "2"])
    assert result.exit_code == 0, result.output
    assert (f"1 tasks augmented (0 from checkpoints), 3 kept from the suite already in "
            f"{folder}, 4 in all") in result.stdout
    after = {t.task_id: t for t in load_plus_file(folder / "HumanEvalPlus.jsonl.gz")}
    ids = ["HumanEval/0", "HumanEval/2", "HumanEval/53", "HumanEval/127"]
    assert list(after) == ids  # the dataset's order
    for task_id, task in before.items():  # kept as they were, calibration included
        assert after[task_id] == task
    assert after["HumanEval/2"].calibration is not None
    stress = load_plus_file(folder / "HumanEvalPlus-Stress.jsonl.gz")
    assert [t.task_id for t in stress] == ids and all(t.calibration for t in stress)
    stats = json.loads((folder / "stats.json").read_text())
    assert [r["task_id"] for r in stats["tasks"]] == ids
    # The later stages cover every task: the MINIs, and the audit keeps the others' findings.
    for name in ("HumanEvalPlus-Mini.jsonl.gz", "HumanEvalPlus-Stress-Mini.jsonl.gz"):
        assert [t.task_id for t in load_plus_file(folder / name)] == ids
    now = json.loads((folder / "audit.json").read_text())
    assert [r for r in now if r["task_id"] != "HumanEval/2"] == audited
    # Other settings: the kept tasks would not match; an error names them, nothing changes.
    suite = (folder / "HumanEvalPlus.jsonl.gz").read_bytes()
    result = CliRunner().invoke(main, ["augment", "--out", str(folder), "--tasks", "3",
                                       "--per-task", "41", "-j", "2"])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        f"error: {folder} holds 4 task(s) augmented with other settings or another ground "
        "truth (HumanEval/0, HumanEval/2, HumanEval/53, HumanEval/127): augment them too "
        "(add them to --tasks, or omit --tasks) or write to another --out"]
    assert (folder / "HumanEvalPlus.jsonl.gz").read_bytes() == suite
    # Without reduce, a MINI of the suite before is not left beside the new suite.
    result = CliRunner().invoke(main, ["augment", "--out", str(folder), "--tasks", "4",
                                       "--per-task", "40", "-j", "2", "--no-reduce",
                                       "--no-audit"])
    assert result.exit_code == 0, result.output
    assert not (folder / "HumanEvalPlus-Mini.jsonl.gz").exists()
    assert not (folder / "HumanEvalPlus-Stress-Mini.jsonl.gz").exists()
    assert "HumanEvalPlus-Mini.jsonl.gz: reduced from another suite" in result.stderr


def test_augment_into_a_folder_of_another_datasets_suite_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "stats.json").write_text(json.dumps({"tasks": [{"task_id": "Mbpp/2"}]}))
    result = CliRunner().invoke(main, ["augment", "--out", str(tmp_path), "--tasks", "0",
                                       "--per-task", "5", "--no-audit", "--no-reduce"])
    assert result.exit_code == 2
    assert result.stderr.strip() == (f"error: {tmp_path} holds a suite of tasks humaneval "
                                     "does not have (Mbpp/2, ...): write to another --out")
    assert not (tmp_path / "HumanEvalPlus.jsonl.gz").exists()


def test_the_artifact_judges_samples(first_run: Path, tmp_path: Path) -> None:
    samples = tmp_path / "s.jsonl"
    samples.write_text(json.dumps({"task_id": "HumanEval/53", "completion": "    return x + y\n"})
                       + "\n" + json.dumps({"task_id": "HumanEval/53",
                                            "completion": "    return abs(x) + y\n"}) + "\n")
    result = CliRunner().invoke(main, ["evaluate", "--samples", str(samples), "--suite",
                                       str(first_run / "HumanEvalPlus.jsonl.gz")])
    assert result.exit_code == 0, result.output
    [results] = tmp_path.glob("s.evalplus-ng.file-*.json")
    document = json.loads(results.read_text())
    statuses = [(e["base_status"], e["plus_status"]) for e in document["eval"]["HumanEval/53"]]
    # abs(x) + y passes HumanEval's base tests (all x >= 0) but not the plus inputs.
    assert statuses[0] == ("pass", "pass")
    assert statuses[1][0] == "pass" and statuses[1][1] == "fail"


def test_evaluate_judges_base_and_plus_by_default_when_augment_made_a_plus_suite(
        first_run: Path, tmp_path: Path) -> None:
    samples = tmp_path / "s.jsonl"
    samples.write_text(json.dumps({"task_id": "HumanEval/53",
                                   "completion": "    return abs(x) + y\n"}) + "\n")
    result = CliRunner().invoke(main, ["evaluate", "--samples", str(samples), "--artifacts",
                                       str(first_run), "-j", "1"])
    assert result.exit_code == 0, result.output
    assert f"judging with the plus suite of {first_run} (base and plus tests)" in result.stderr
    assert "base: pass@1 100.0" in result.stdout and "plus: pass@1 0.0" in result.stdout
    assert "drop from base to plus: pass@1 100.0 points" in result.stdout
    document = json.loads((tmp_path / "s.evalplus-ng.plus.json").read_text())
    assert document["evalplus_ng"]["suite"] == "plus"
    # Without a plus suite in the artifacts folder: the base tests, and the user is told so.
    (tmp_path / "empty").mkdir()
    result = CliRunner().invoke(main, ["evaluate", "--samples", str(samples), "--artifacts",
                                       str(tmp_path / "empty"), "-j", "1"])
    assert result.exit_code == 0, result.output
    assert "judging with the base suite only: " in result.stderr
    assert "plus" not in "".join(line for line in result.stdout.splitlines()
                                 if "results in" not in line)
    assert json.loads((tmp_path / "s.evalplus-ng.base.json").read_text())[
        "evalplus_ng"]["suite"] == "base"


def test_task_selection() -> None:
    tasks = load_humaneval()
    assert [t.number for t in select_tasks(tasks, "3,1-2,HumanEval/10")] == [1, 2, 3, 10]
    with pytest.raises(UnknownTaskError):
        select_tasks(tasks, "999")
    with pytest.raises(UnknownTaskError):
        select_tasks(tasks, "abc")
    with pytest.raises(UnknownTaskError, match="reversed task range '5-2': did you mean '2-5'"):
        select_tasks(tasks, "5-2")
    with pytest.raises(UnknownTaskError, match="no task selected"):
        select_tasks(tasks, " , ")
    # Numbers that are not contiguous (MBPP's): a range takes those it holds.
    sparse = [t for t in tasks if t.number in (2, 3, 6, 11)]
    assert [t.number for t in select_tasks(sparse, "1-7")] == [2, 3, 6]
    with pytest.raises(UnknownTaskError, match="unknown task number 4"):
        select_tasks(sparse, "4")
    with pytest.raises(UnknownTaskError, match="no task numbered in '7-10'"):
        select_tasks(sparse, "7-10")


def test_a_reversed_range_is_a_one_line_error_and_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["augment", "--out", str(out), "--tasks", "5-2"])
    assert result.exit_code == 2
    assert result.stderr.strip().count("\n") == 0 and "reversed task range" in result.stderr
    assert not out.exists()


def test_plus_and_stress_are_two_verdicts(tmp_path: Path) -> None:
    # HumanEval/41 returns n**2; its plain reference counts the n * n collisions one by one,
    # so inputs with n past a few hundred go to the stress tier.
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["augment", "--out", str(out), "--tasks", "41",
                                       "--per-task", "40", "--no-audit", "--no-reduce",
                                       "--no-calibrate"])
    assert result.exit_code == 0, result.output
    stats = json.loads((out / "stats.json").read_text())["tasks"][0]
    assert stats["tiers"].get("plain-cost", 0) >= 1
    plus = load_plus_file(out / "HumanEvalPlus.jsonl.gz")[0]
    stress = load_plus_file(out / "HumanEvalPlus-Stress.jsonl.gz")[0]
    assert max(args[0] for args in plus.plus_inputs) < 1000 < max(a[0] for a in stress.plus_inputs)
    samples = tmp_path / "s.jsonl"
    quadratic = "    return sum(1 for _ in range(n) for _ in range(n))\n"
    samples.write_text("".join(json.dumps({"task_id": "HumanEval/41", "completion": code}) + "\n"
                               for code in ("    return n * n\n", quadratic)))
    verdicts = {}
    for suite in ("plus", "stress"):
        result = CliRunner().invoke(main, ["evaluate", "--samples", str(samples), "--suite", suite,
                                           "--artifacts", str(out)])
        assert result.exit_code == 0, result.output
        document = json.loads((tmp_path / f"s.evalplus-ng.{suite}.json").read_text())
        verdicts[suite] = [(e["plus_status"], e.get("plus_failure"))
                           for e in document["eval"]["HumanEval/41"]]
        if suite == "stress":
            assert "stress (efficiency)" in result.output
    # The quadratic sample is correct: it passes plus, and only the stress tier times it out.
    assert verdicts == {"plus": [("pass", None), ("pass", None)],
                        "stress": [("pass", None), ("fail", "timeout")]}


STOPPED_MID_RUN = """
import signal, sys
from pathlib import Path
from evalplus_ng.backend.executors import Backend
from evalplus_ng.pipeline.augment import AugmentConfig, run_augment, select_tasks
from evalplus_ng.pipeline.context import Workspace
from evalplus_ng.tasks.registry import load_humaneval, resolve

# A parent that ignores SIGTERM (as one whose handler a worker could swallow): its
# forked workers must still die when the pool stops them.
signal.signal(signal.SIGTERM, signal.SIG_IGN)
calls = []

def progress(done, total):
    calls.append(done)
    if len(calls) == 2:
        raise RuntimeError("stop")

tasks = select_tasks(load_humaneval(), "0,53,127")
try:
    run_augment(tasks, AugmentConfig(per_task=5),
                Workspace(resolve("humaneval"), Path(sys.argv[1]), Backend(2)), progress)
except RuntimeError:
    print("stopped")
"""


def test_augment_stopped_mid_run_does_not_wait_for_its_workers(tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys

    run = subprocess.Popen([sys.executable, "-c", STOPPED_MID_RUN, str(tmp_path / "out")],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           start_new_session=True)
    try:
        out, err = run.communicate(timeout=120)
    finally:
        # Workers that ignored SIGTERM would outlive a failing run: take the whole group.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(run.pid, signal.SIGKILL)
    assert out.strip() == "stopped", err


def test_candidates_beyond_the_ground_truth_are_capped_per_task(tmp_path: Path) -> None:
    # The reference loops n times: under a 100-line budget only n in [40, 50) are
    # answered, and the contract asks n >= 40. Past half of per_task candidates beyond the
    # ground truth no round starts, and a round is sized to stay near that allowance;
    # uncapped, the rounds go on (1,593 such candidates judged for 7 inputs).
    from evalplus_ng.oracle.tiers import plain_reference
    from evalplus_ng.pipeline.augment import MAX_UNANSWERED_SHARE, AugmentConfig, augment_task
    from evalplus_ng.records import Task
    from evalplus_ng.tasks.registry import resolve

    prompt = 'def f(n: int) -> int:\n    """The sum of the numbers below n (n >= 40)."""\n'
    body = "    total = 0\n    for i in range(n):\n        total += i\n    return total\n"
    task = Task("T/1", prompt, "f", prompt + body, ([40], [45], [300]),
                contract="    assert n >= 40  # $_CONTRACT_$\n")
    config = AugmentConfig(per_task=200, max_lines=100, hypothesis_examples=0)
    suites = augment_task(task, config, plain_reference(task, {}, set()),
                          resolve("humaneval", tmp_path))
    plus, report = suites.plus, suites.report
    unanswered = report.dropped.get("expensive", 0) + report.dropped.get("timeout", 0)
    allowance = config.per_task * MAX_UNANSWERED_SHARE
    assert allowance <= unanswered <= 1.3 * allowance
    assert plus and all(40 <= n < 50 for (n,) in plus)  # what was kept is within the budget


def test_each_mini_inherits_the_calibration_of_its_suite(first_run: Path) -> None:
    # augment calibrates the plus and stress suites, then reduces them: a MINI's tests keep
    # the units their inputs were timed at in the full suite (timed once, not again).
    for full, mini in (("HumanEvalPlus.jsonl.gz", "HumanEvalPlus-Mini.jsonl.gz"),
                       ("HumanEvalPlus-Stress.jsonl.gz", "HumanEvalPlus-Stress-Mini.jsonl.gz")):
        parents = {t.task_id: t for t in load_plus_file(first_run / full)}
        for task in load_plus_file(first_run / mini):
            parent = parents[task.task_id]
            assert task.calibration is not None and parent.calibration is not None
            units = dict(zip(map(repr, (*parent.base_inputs, *parent.plus_inputs)),
                             parent.calibration.units, strict=True))
            assert task.calibration.units == tuple(
                units[repr(args)] for args in (*task.base_inputs, *task.plus_inputs))
            assert task.calibration.reference_seconds == parent.calibration.reference_seconds
