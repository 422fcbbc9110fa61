"""`reduce` end to end on two real HumanEval tasks with hand-made plus inputs and samples."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from evalplus_ng.backend.executors import Backend
from evalplus_ng.cli import main
from evalplus_ng.judge import JUDGE
from evalplus_ng.oracle.groundtruth import run_ground_truth
from evalplus_ng.pipeline.context import Workspace
from evalplus_ng.pipeline.minimize import run_reduce
from evalplus_ng.records import Calibration
from evalplus_ng.reduce.mini import CACHE_FOLDER, REPORT_FILE, gather
from evalplus_ng.reduce.profiles import load_profile, profile_names, select
from evalplus_ng.reduce.sample_kills import candidates
from evalplus_ng.reduce.setcover import satisfied
from evalplus_ng.sandbox import Sandbox
from evalplus_ng.tasks.artifact import write_plus_file
from evalplus_ng.tasks.plusfile import load_plus_file
from evalplus_ng.tasks.registry import load_humaneval, resolve
from evalplus_ng.tasks.samples import read_sample_folder

CLOSE = "HumanEval/0"
GCD = "HumanEval/13"

CLOSE_RIGHT = """    for i, a in enumerate(numbers):
        for b in numbers[i + 1:]:
            if abs(a - b) < threshold:
                return True
    return False
"""
CLOSE_TIES = CLOSE_RIGHT.replace("< threshold", "<= threshold")
CLOSE_ADJACENT = """    return any(abs(a - b) < threshold for a, b in zip(numbers, numbers[1:]))
"""
GCD_RIGHT = "    import math\n    return math.gcd(a, b)\n"
GCD_WRONG = "    return min(a, b) if max(a, b) % min(a, b) == 0 else 1\n"
GCD_SLOW = """    while a != b:
        if a > b:
            a -= b
        else:
            b -= a
    return a
"""


def _suite(folder: Path) -> Path:
    rng = random.Random(7)
    tasks = {t.task_id: t for t in load_humaneval()}
    close_plus = (
        *([[round(rng.uniform(0, 10), 1) for _ in range(rng.randint(0, 6))],
           rng.choice([0.1, 0.3, 0.5, 1.0])] for _ in range(40)),
        [[1.0, 2.0], 1.0],  # a tie: only `<=` answers True
    )
    gcd_plus = tuple([rng.randint(1, 300), rng.randint(1, 300)] for _ in range(40))
    suite = [replace(tasks[CLOSE], plus_inputs=close_plus),
             replace(tasks[GCD], plus_inputs=gcd_plus)]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "HumanEvalPlus.jsonl.gz"
    write_plus_file(suite, path)
    return path


def _samples(folder: Path) -> Path:
    answers = {
        "u_right_A.jsonl": {CLOSE: CLOSE_RIGHT, GCD: GCD_RIGHT},
        "u_right_B.jsonl": {CLOSE: CLOSE_RIGHT, GCD: GCD_SLOW},
        "u_ties_A.jsonl": {CLOSE: CLOSE_TIES, GCD: GCD_WRONG},
        "v_adjacent_A.jsonl": {CLOSE: CLOSE_ADJACENT, GCD: GCD_WRONG},
        "v_adjacent_B.jsonl": {CLOSE: CLOSE_TIES, GCD: GCD_RIGHT},
    }
    folder.mkdir(parents=True, exist_ok=True)
    for name, rows in answers.items():
        lines = [json.dumps({"task_id": t, "completion": c}) for t, c in rows.items()]
        (folder / name).write_text("\n".join(lines) + "\n")
    return folder


def test_every_profile_keeps_every_requirement_on_real_tasks(tmp_path: Path) -> None:
    tasks = load_plus_file(_suite(tmp_path / "out"))
    by_id = {t.task_id: t for t in tasks}
    table, _answers = candidates(read_sample_folder(_samples(tmp_path / "samples"), by_id))
    with Sandbox(2, judge=JUDGE) as sandbox:
        truths = run_ground_truth(tasks, sandbox)
        reqs, _seconds = gather(tasks, truths, tmp_path / "cache", sandbox, table)
    for req in reqs.values():
        assert len(req.order) == len(req.task.base_inputs) + len(req.task.plus_inputs)
        assert req.mutants and any(row.killed for row in req.mutants)
        assert any(row.killed for row in req.samples)
        for name in profile_names():
            profile = load_profile(name)
            for held_out in (None, "u_right", "v_adjacent"):
                matrices = req.matrices(held_out)
                chosen = req.reduce(profile, held_out)
                assert chosen == select(profile, matrices, req.order, req.base)
                assert set(req.base) <= set(chosen)
                assert len(chosen) < len(req.order)
                for kind in profile.requirements:
                    assert satisfied(matrices[kind], chosen) == satisfied(matrices[kind],
                                                                          req.order)


def test_reduce_writes_the_mini_suite_and_the_report(tmp_path: Path) -> None:
    out = tmp_path / "out"
    _suite(out)
    samples = _samples(tmp_path / "samples")
    result = CliRunner().invoke(main, ["reduce", "--out", str(out), "--samples", str(samples),
                                       "-j", "2"])
    assert result.exit_code == 0, result.output
    assert "full: " in result.output and "kills kept" in result.output
    mini = load_plus_file(out / "HumanEvalPlus-Mini.jsonl.gz")
    full = {t.task_id: t for t in load_plus_file(out / "HumanEvalPlus.jsonl.gz")}
    assert [t.task_id for t in mini] == [CLOSE, GCD]
    for task in mini:
        assert task.base_inputs == full[task.task_id].base_inputs  # profile full keeps base
        assert set(map(str, task.plus_inputs)) <= set(map(str, full[task.task_id].plus_inputs))
    # The tie input is the only one that tells `<` from `<=`: the samples keep it.
    assert [[1.0, 2.0], 1.0] in [list(args) for args in mini[0].plus_inputs]
    text = (out / REPORT_FILE).read_text()
    plus_profiles = [n for n in profile_names() if load_profile(n).suite == "plus"]
    for name in ("full suite", *plus_profiles, "u_right", "u_ties", "v_adjacent"):
        assert name in text
    assert "| stress |" not in text  # the stress tier's profile has a report of its own
    assert "|  | full suite | coverage | mutants | samples | full |" in text
    assert "| u_right | 100.0 | 100.0 | 100.0 | 100.0 | 100.0 |" in text
    document = json.loads((out / "reduction.json").read_text())
    rows = {row["profile"]: row for row in document["profiles"]}
    assert rows["full"]["kept"] == 1.0
    models = rows["full"]["models"]
    # A kill passes the base tests and fails the full suite. GCD_WRONG and CLOSE_ADJACENT
    # fail the base tests: never kills. CLOSE_TIES (u_ties, v_adjacent_B) fails only on
    # the tie input, which the coverage profile does not keep.
    assert {m: v["kills"] for m, v in models.items()} == {
        "u_right": 0, "u_ties": 1, "v_adjacent": 1}
    assert (rows["coverage"]["kills"], rows["coverage"]["kills_kept"]) == (2, 0)
    assert "| kills kept | 2 | 0 (0.0%) | 2 (100.0%) |" in text
    assert models["u_right"]["full"] == pytest.approx(1.0)
    assert models["u_ties"]["full"] == pytest.approx(0.0)
    # Leave-one-model-out: v_adjacent's kills come back only through others' samples.
    assert models["v_adjacent"]["reduced"] >= models["v_adjacent"]["full"]
    assert document["mutants"]["total"] > 0
    # Requirements are cached per task; a second run recomputes nothing.
    cached = sorted(p.relative_to(out).as_posix() for p in (out / CACHE_FOLDER).rglob("*.json"))
    assert cached == [f"{CACHE_FOLDER}/{kind}/HumanEval_{n}.json"
                      for kind in ("cost", "coverage", "habits", "mutants", "samples", "slips",
                                   "values")
                      for n in (0, 13)]
    stamps = {p: p.stat().st_mtime_ns for p in (out / CACHE_FOLDER).rglob("*.json")}
    first = (out / "HumanEvalPlus-Mini.jsonl.gz").read_bytes()
    again = run_reduce(Workspace(resolve("humaneval"), out, Backend(2)), samples_dir=samples)
    assert {p: p.stat().st_mtime_ns for p in stamps} == stamps
    assert (out / "HumanEvalPlus-Mini.jsonl.gz").read_bytes() == first
    assert again.tests_per_task["full"] == rows["full"]["tests_per_task"]


def test_reduce_without_samples_runs_the_other_profiles(tmp_path: Path) -> None:
    out = tmp_path / "out"
    _suite(out)
    summary = run_reduce(Workspace(resolve("humaneval"), out, Backend(2)), profile="mutants")
    assert set(summary.tests_per_task) == {"(full suite)", "coverage", "mutants", "offline"}
    assert summary.kept == {}
    assert len(load_plus_file(out / "HumanEvalPlus-Mini.jsonl.gz")) == 2
    # With no flags, reduce takes the strongest profile it can run: offline here.
    result = CliRunner().invoke(main, ["reduce", "--out", str(out), "-j", "2"])
    assert result.exit_code == 0, result.output
    assert json.loads((out / "reduction.json").read_text())["profile"] == "offline"


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        (["--profile", "nope"], "no such reduction profile"),
        (["--profile", "samples"], "needs LLM samples: pass --samples DIR"),
        (["--out", "{missing}"], "no plus suite here"),
        (["--suite", "stress"], "no stress suite here"),
    ],
)
def test_reduce_errors_are_one_line_exit_2(tmp_path: Path, args: list[str],
                                           problem: str) -> None:
    out = tmp_path / "out"
    _suite(out)
    args = [a.format(missing=tmp_path / "missing") for a in args]
    result = CliRunner().invoke(main, ["reduce", "--out", str(out), *args])
    assert result.exit_code == 2
    assert problem in result.output
    assert result.output.count("\n") == 1


def test_the_stress_suite_gets_a_mini_of_its_own_with_its_costliest_input(
        tmp_path: Path) -> None:
    # fib (HumanEval/55): the ground truth's work grows with n; n = 3000 is the stress
    # tier's costliest input and the one a naive recursion never finishes.
    out = tmp_path / "out"
    plus = _suite(out)
    fib = next(t for t in load_humaneval() if t.task_id == "HumanEval/55")
    stress = [replace(fib, plus_inputs=tuple([n] for n in (40, 3000, 600, 35, 1200)))]
    write_plus_file(stress, out / "HumanEvalPlus-Stress.jsonl.gz")
    before = plus.read_bytes()
    result = CliRunner().invoke(main, ["reduce", "--out", str(out), "--suite", "stress",
                                       "-j", "2"])
    assert result.exit_code == 0, result.output
    assert "stress: " in result.output  # the profile the stress suite defaults to
    mini = load_plus_file(out / "HumanEvalPlus-Stress-Mini.jsonl.gz")
    assert [t.task_id for t in mini] == ["HumanEval/55"]
    assert [3000] in [list(args) for args in mini[0].plus_inputs]
    assert len(mini[0].plus_inputs) < 5
    assert mini[0].base_inputs == fib.base_inputs
    assert (out / "reduction-stress.md").read_text().startswith(
        "# Test-suite reduction of HumanEvalPlus-Stress.jsonl.gz")
    # The plus suite's MINI, report and cache are not touched.
    assert plus.read_bytes() == before
    assert not (out / "HumanEvalPlus-Mini.jsonl.gz").exists() and not (out / REPORT_FILE).exists()
    assert not (out / CACHE_FOLDER).exists() and (out / f"{CACHE_FOLDER}-stress").is_dir()


def test_reduced_task_keeps_chosen_inputs_and_their_calibration() -> None:
    from evalplus_ng.oracle.groundtruth import Expected, GroundTruth
    from evalplus_ng.reduce.mini import TaskRequirements, reduced_task

    task = replace(next(t for t in load_humaneval() if t.task_id == GCD),
                   base_inputs=([1, 2], [3, 4]), plus_inputs=([5, 6], [7, 8], [9, 10]),
                   calibration=Calibration((1.0, 2.0, 3.0, 4.0, 5.0), 0.2, 4.0, "ref", 0.01))
    empty = Expected((), (), ())
    req = TaskRequirements(task, GroundTruth(GCD, empty, empty), (0, 1, 2, 3, 4))
    mini = reduced_task(req, [4, 1, 2])
    assert mini.base_inputs == ([3, 4],)
    assert mini.plus_inputs == ([5, 6], [9, 10])
    assert mini.calibration == Calibration((2.0, 3.0, 5.0), 0.2, 4.0, "ref", 0.01)
    assert req.base == [0, 1]


def test_the_faults_requirement_wants_a_plus_test_for_every_wrong_sample() -> None:
    from evalplus_ng.oracle.groundtruth import Expected, GroundTruth
    from evalplus_ng.reduce.found import rows_to_wire
    from evalplus_ng.reduce.kills import KillRow
    from evalplus_ng.reduce.mini import TaskRequirements
    from evalplus_ng.reduce.profiles import Profile
    from evalplus_ng.reduce.requirements import read_documents

    task = replace(next(t for t in load_humaneval() if t.task_id == GCD),
                   base_inputs=([1, 2], [3, 4]), plus_inputs=([5, 6], [7, 8], [9, 10]))
    empty = Expected((), (), ())
    rows = (KillRow(frozenset({0, 3})),   # fails base (test 0) and plus test 3
            KillRow(frozenset({1, 4})),   # fails base too; only model "m" wrote it
            KillRow(frozenset({2})))      # passes base: a kill, of plus test 2
    # The samples' cached document is read both ways: their kills, and their faults.
    found = read_documents({"samples": {"rows": rows_to_wire(rows)}}, base=frozenset({0, 1}))
    assert sorted(found) == ["faults", "samples"]
    req = TaskRequirements(task, GroundTruth(GCD, empty, empty), (0, 1, 2, 3, 4), found,
                           authors=(frozenset({"a"}), frozenset({"m"}), frozenset({"a"})))
    assert req.samples == rows
    samples = Profile("samples", ("samples",), keep_base=True)
    faults = Profile("faults", ("faults",), keep_base=True)
    # The kills alone are met by the base tests and test 2; the faults want a plus test
    # failing each wrong sample, base-failing ones too.
    assert req.reduce(samples) == [0, 1, 2]
    assert req.reduce(faults) == [0, 1, 2, 3, 4]
    # A judged model's own samples choose no test.
    assert req.reduce(faults, held_out="m") == [0, 1, 2, 3]
    assert faults.uses_samples and not Profile("x", ("mutants",), keep_base=True).uses_samples


def test_in_process_kinds_warmed_in_worker_processes_are_those_computed_in_place(
        tmp_path: Path) -> None:
    from evalplus_ng.reduce.kills import suite_tests
    from evalplus_ng.reduce.mini import requirement, warm

    tasks = load_plus_file(_suite(tmp_path / "out"))
    with Sandbox(1) as sandbox:
        truths = run_ground_truth(tasks, sandbox)
    warm(tasks, truths, tmp_path / "warm", 2, {"coverage", "cost", "values", "mutants",
                                                 "classes"})
    # Only the cached in-process kinds are warmed; the sandboxed ones are gather's, and
    # the classes are never cached.
    assert sorted(p.name for p in (tmp_path / "warm").iterdir()) == ["cost", "coverage",
                                                                     "values"]
    for task in tasks:
        tests = suite_tests(task, truths[task.task_id])
        for kind, field in (("coverage", "arcs"), ("cost", "lines"), ("values", "goals")):
            warmed = requirement(kind, task, None, tests, tmp_path / "warm")  # from the cache
            fresh = requirement(kind, task, None, tests, tmp_path / "fresh")
            assert warmed[field] == json.loads(json.dumps(fresh[field])) and warmed[field]
