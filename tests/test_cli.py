"""The CLI end to end (click's CliRunner): evaluate, errors, resume, hostile samples."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from evalplus_ng.cli import main

CORRECT = "    return x + y\n"


def _samples(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def _results(samples: Path, suite: str = "base") -> Path:
    """The results file ``evaluate`` writes beside ``samples`` for a suite kind; for
    ``file`` (a suite named by its path), the one such file there."""
    if suite == "file":
        [path] = samples.parent.glob(f"{samples.stem}.evalplus-ng.file-*.json")
        return path
    return samples.with_name(f"{samples.stem}.evalplus-ng.{suite}.json")


def _statuses(samples: Path, suite: str = "base") -> list[str]:
    document = json.loads(_results(samples, suite).read_text())
    return [entry["base_status"] for entries in document["eval"].values() for entry in entries]


def test_evaluate_writes_results_and_pass_at_k(tmp_path: Path) -> None:
    samples = _samples(tmp_path / "s.jsonl", [
        {"task_id": "HumanEval/53", "completion": CORRECT, "model": "ignored"},
        {"task_id": "HumanEval/53", "completion": "    return x - y\n"},
        {"task_id": "HumanEval/53",
         "solution": "def add(x: int, y: int):\n    return y + x\n"},
    ])
    code, out, _ = _run("evaluate", "--samples", str(samples), "-j", "1")
    assert code == 0, out
    assert _statuses(samples) == ["pass", "fail", "pass"]
    assert "base: pass@1 66.7" in out
    assert "over 1 of 164 tasks, 3 samples (3 per task)" in out
    document = json.loads(_results(samples).read_text())
    failed = document["eval"]["HumanEval/53"][1]
    # The base suite has no plus column: None, as `evalplus.evaluate --base_only` writes.
    assert failed["base_fail_tests"] and failed["plus_status"] is None


def test_results_say_what_the_first_failing_test_did(tmp_path: Path) -> None:
    # Wrong value, exception, time-out, dead process, code that does not load: each named
    # (as written: EvalPlus's sanitizer would cut the body that does not parse away).
    bodies = ["    return x - y\n", "    raise ValueError(x)\n", "    while True:\n        pass\n",
              "    import os\n    os._exit(3)\n", "    return (\n", CORRECT]
    samples = _samples(tmp_path / "s.jsonl", [{"task_id": "HumanEval/53", "completion": body}
                                              for body in bodies])
    code, out, _ = _run("evaluate", "--samples", str(samples), "-j", "2", "--suite", "base",
                        "--min-time-limit", "0.5", "--no-sanitize")
    assert code == 0, out
    entries = json.loads(_results(samples).read_text())["eval"]["HumanEval/53"]
    # EvalPlus's statuses (a test cut off by its time limit is "fail" there too), and
    # what each failure was beside them.
    assert [(e["base_status"], e.get("base_failure")) for e in entries] == [
        ("fail", "wrong output"), ("fail", "exception"), ("fail", "timeout"),
        ("fail", "crash"), ("fail", "exception"), ("pass", None)]
    # The base suite has no plus column.
    assert [(e["plus_status"], e.get("plus_failure")) for e in entries] == [(None, None)] * 6
    # A resumed run reads the kinds back.
    code, out, _ = _run("evaluate", "--samples", str(samples), "-j", "2", "--suite", "base",
                        "--min-time-limit", "0.5", "--no-sanitize", "--resume")
    assert code == 0 and "(6 reused)" in out, out
    again = json.loads(_results(samples).read_text())["eval"]["HumanEval/53"]
    assert again == entries


def test_plus_tier_timeouts_are_counted_apart_from_wrong_answers(tmp_path: Path) -> None:
    # Two kills on a plus input of a million: one a wrong answer, one a timeout; the results
    # keep the timeout a failure kind of its own and the summary counts the kills by kind.
    from dataclasses import replace

    from evalplus_ng.tasks.artifact import write_plus_file
    from evalplus_ng.tasks.registry import resolve

    task = next(t for t in resolve("humaneval").load() if t.task_id == "HumanEval/53")
    suite = tmp_path / "Plus.jsonl.gz"
    write_plus_file([replace(task, plus_inputs=([10**6, 1],))], suite)
    samples = _samples(tmp_path / "s.jsonl", [
        {"task_id": "HumanEval/53", "completion": CORRECT},
        {"task_id": "HumanEval/53", "completion": "    return x + y if x < 10**5 else 0\n"},
        {"task_id": "HumanEval/53",
         "completion": "    while x >= 10**5:\n        pass\n    return x + y\n"}])
    code, out, _ = _run("evaluate", "--samples", str(samples), "-j", "2", "--suite", str(suite),
                        "--min-time-limit", "0.5")
    assert code == 0, out
    entries = json.loads(_results(samples, "file").read_text())["eval"]["HumanEval/53"]
    assert [(e["base_status"], e["plus_status"], e.get("plus_failure")) for e in entries] == [
        ("pass", "pass", None), ("pass", "fail", "wrong output"), ("pass", "fail", "timeout")]
    assert "kills (pass base, fail plus): 2 (1 wrong output, 1 timeout)" in out


def test_by_default_answers_are_judged_as_evalplus_sanitize_then_evaluate(
        tmp_path: Path) -> None:
    # A correct answer in markdown with prose, and a body that forgot an import: EvalPlus's
    # sanitizer recovers neither (the prompt is the longest run; no import is added), so by
    # default both fail; --repair passes both and counts them; --no-sanitize runs the
    # prompt followed by the completion, as evalplus.evaluate alone does.
    wrapped = "```python\ndef add(x: int, y: int):\n    return x + y\n```\nThis adds them."
    forgot = "    return floor(x) + y\n"
    samples = _samples(tmp_path / "s.jsonl", [
        {"task_id": "HumanEval/53", "completion": wrapped},
        {"task_id": "HumanEval/53", "completion": forgot},
        {"task_id": "HumanEval/53", "completion": CORRECT}])
    code, out, _ = _run("evaluate", "--samples", str(samples), "-j", "1", "--suite", "base")
    assert code == 0 and _statuses(samples) == ["fail", "fail", "pass"], out
    assert "repairs" not in out
    code, out, _ = _run("evaluate", "--samples", str(samples), "-j", "1", "--suite", "base",
                        "--repair")
    assert code == 0 and _statuses(samples) == ["pass", "pass", "pass"], out
    assert ("repairs (--repair) changed the program of 2 sample(s) and the verdict of 2 "
            "(base: 2 now pass, 0 now fail)") in out
    assert "without repairs (as evalplus.sanitize, then evalplus.evaluate): base: pass@1 33.3" \
        in out
    code, out, _ = _run("evaluate", "--samples", str(samples), "-j", "1", "--no-sanitize")
    assert code == 0 and _statuses(samples) == ["fail", "fail", "pass"], out
    entries = json.loads(_results(samples).read_text())["eval"]["HumanEval/53"]
    assert entries[0]["base_failure"] == "exception"
    solution = entries[0]["solution"]
    assert solution.endswith(wrapped) and solution.startswith("\n\ndef add")
    code, _, err = _run("evaluate", "--samples", str(samples), "--no-sanitize", "--repair")
    assert code == 2 and "choose one" in err


def test_evaluate_takes_evalplus_flag_names(tmp_path: Path) -> None:
    # Switching from evalplus: its flag names judge the same way as ours.
    rows = [{"task_id": "HumanEval/53", "completion": CORRECT},
            {"task_id": "HumanEval/53", "completion": "    return x - y\n"}]
    ours = _samples(tmp_path / "ours.jsonl", rows)
    theirs = _samples(tmp_path / "theirs.jsonl", rows)
    code, out, _ = _run("evaluate", "--samples", str(ours), "-j", "1", "--details",
                        "--min-time-limit", "1.5", "--time-factor", "5")
    assert code == 0, out
    code, out2, _ = _run("evaluate", "--samples", str(theirs), "--parallel", "1", "--base-only",
                         "--test-details", "--min_time_limit", "1.5",
                         "--gt-time-limit-factor", "5", "--noextreme")
    assert code == 0, out2
    assert out.replace("ours", "theirs") == out2
    assert _statuses(ours) == _statuses(theirs) == ["pass", "fail"]
    # --mini is --suite mini (here: no MINI in the artifacts folder, named in the error).
    code, _, err = _run("evaluate", "--samples", str(ours), "--mini",
                        "--artifacts", str(tmp_path / "nothing"))
    assert code == 2 and "Mini" in err
    code, _, err = _run("evaluate", "--samples", str(ours), "--mini", "--suite", "plus")
    assert code == 2 and "choose one" in err
    code, _, err = _run("evaluate", "--samples", str(ours), "--noextreme", "--suite", "stress")
    assert code == 2 and "the stress suite is the extreme inputs" in err


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ('{"task_id": "HumanEval/53", "completion": "x"}\n{oops\n', ":2: invalid JSON"),
        ('{"task_id": "HumanEval/999", "completion": "x"}\n', ":1: unknown task_id"),
        ('{"task_id": "HumanEval/53"}\n', ":1: missing or non-string 'completion'"),
        ('["HumanEval/53"]\n', ":1: expected a JSON object"),
        ("", ": no samples in file"),
        # Every bad shape of a line: one line naming it, never a traceback.
        ('{"task_id": "HumanEval/53", "completion": "x"}\n{"task_id": "HumanEval/53", '
         '"completion": ' + "[" * 100_000 + "]" * 100_000 + "}\n",
         ":2: invalid JSON: nested too deeply"),
        ('{"task_id": "HumanEval/53", "completion": "x", "meta": '
         + '{"a": ' * 100_000 + "1" + "}" * 100_001 + "\n", ":1: invalid JSON: nested too deeply"),
        ("[" * 100_000 + "\n", ":1: invalid JSON: nested too deeply"),
        ('{"task_id": "HumanEval/53", "completion": 1' + "0" * 5000 + "}\n",
         ":1: invalid JSON: Exceeds the limit"),
        ('{"task_id": "HumanEval/53", "completion": 5}\n', ":1: missing or non-string"),
        ('{"task_id": "HumanEval/53", "completion": ["x"]}\n', ":1: missing or non-string"),
        ('{"task_id": 53, "completion": "x"}\n', ":1: missing or non-string 'task_id'"),
        ('{"task_id": ["HumanEval/53"], "completion": "x"}\n', ":1: missing or non-string"),
        ('"HumanEval/53"\n', ":1: expected a JSON object"),
        ('{"task_id": "HumanEval/53", "completion": "x"}\n\x00\n', ":2: invalid JSON"),
        (b'{"task_id": "HumanEval/53", "completion": "x"}\n\n{"a": "\xff"}\n',
         ":3: not UTF-8 at byte 8"),
    ],
)
def test_bad_samples_file_is_one_line_exit_2(tmp_path: Path, content: str | bytes,
                                             problem: str) -> None:
    samples = tmp_path / "bad.jsonl"
    samples.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    code, _, err = _run("evaluate", "--samples", str(samples))
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {samples}")
    assert problem in lines[0]


def test_bad_flags_and_missing_suite(tmp_path: Path) -> None:
    samples = _samples(tmp_path / "s.jsonl", [{"task_id": "HumanEval/53", "completion": CORRECT}])
    assert _run("evaluate", "--samples", str(samples), "-j", "0")[0] == 2
    assert _run("evaluate", "--samples", str(samples), "--dataset", "nope")[0] == 2
    code, _, err = _run("evaluate", "--samples", str(samples), "--suite", "plus",
                        "--artifacts", str(tmp_path / "none"))
    assert code == 2 and "run `evalplus-ng augment" in err
    code, _, err = _run("evaluate", "--samples", str(tmp_path / "absent.jsonl"))
    assert code == 2 and "no such file" in err


def test_resume_reuses_unchanged_verdicts(tmp_path: Path) -> None:
    rows: list[dict[str, object]] = [{"task_id": "HumanEval/53", "completion": CORRECT}] * 2
    samples = _samples(tmp_path / "s.jsonl", rows)
    assert _run("evaluate", "--samples", str(samples))[0] == 0
    code, out, _ = _run("evaluate", "--samples", str(samples), "--resume")
    assert code == 0 and "(2 reused)" in out
    _samples(samples, [*rows, {"task_id": "HumanEval/53", "completion": "    return 0\n"}])
    code, out, _ = _run("evaluate", "--samples", str(samples), "--resume")
    assert code == 0 and "(2 reused)" in out
    assert _statuses(samples) == ["pass", "pass", "fail"]


@pytest.mark.parametrize("forgery", ["no mac", "edited", "another secret"])
def test_resume_does_not_trust_a_forged_results_file(tmp_path: Path, forgery: str) -> None:
    # The identity in a results file (suite digest, settings) is public: a samples file
    # shipped with a results file that says "pass" for a wrong sample must not pass.
    rows: list[dict[str, object]] = [
        {"task_id": "HumanEval/53", "completion": "    return x - y\n"},
        {"task_id": "HumanEval/53", "completion": CORRECT}]
    samples = _samples(tmp_path / "s.jsonl", rows)
    assert _run("evaluate", "--samples", str(samples), "-j", "1")[0] == 0
    results = _results(samples)
    document = json.loads(results.read_text())
    wrong = document["eval"]["HumanEval/53"][0]
    assert wrong["base_status"] == "fail"
    wrong.update(base_status="pass", plus_status="pass", base_fail_tests=[],
                 plus_fail_tests=[])
    for key in ("base_failure", "plus_failure"):
        wrong.pop(key, None)
    if forgery == "no mac":
        document["evalplus_ng"].pop("mac", None)
    elif forgery == "another secret":
        from evalplus_ng.seal import sealed

        document = sealed(document, b"k" * 32)
    results.write_text(json.dumps(document, indent=1) + "\n")
    code, out, err = _run("evaluate", "--samples", str(samples), "-j", "1", "--resume")
    assert code == 0, out
    assert "(0 reused)" in out
    assert f"{results}: not sealed by evalplus-ng" in err
    assert _statuses(samples) == ["fail", "pass"]
    # The file written now is sealed again: the next --resume reuses both verdicts.
    assert json.loads(results.read_text())["evalplus_ng"]["mac"].startswith("hmac-sha256:")
    code, out, _ = _run("evaluate", "--samples", str(samples), "-j", "1", "--resume")
    assert code == 0 and "(2 reused)" in out, out


def _plus_statuses(results: Path) -> list[str]:
    return [entry["plus_status"] for entries in json.loads(results.read_text())["eval"].values()
            for entry in entries]


def test_resume_after_base_judges_plus_again(tmp_path: Path) -> None:
    # A sample right on small numbers only: it passes the base tests and fails plus.
    from dataclasses import replace

    from evalplus_ng.tasks.artifact import write_plus_file
    from evalplus_ng.tasks.registry import load_humaneval

    add = next(t for t in load_humaneval() if t.task_id == "HumanEval/53")
    suite = tmp_path / "suite.jsonl.gz"
    write_plus_file([replace(add, plus_inputs=([10**6, 1], [3, 4]))], suite)
    small = "    return x + y if x < 10**5 else 0\n"
    samples = _samples(tmp_path / "s.jsonl", [{"task_id": "HumanEval/53", "completion": small},
                                              {"task_id": "HumanEval/53", "completion": CORRECT}])
    # One results file named for both suites: --resume must not take the base run's
    # verdicts for plus verdicts.
    results = tmp_path / "results.json"
    code, out, _ = _run("evaluate", "--samples", str(samples), "--suite", "base",
                        "--results", str(results))
    assert code == 0, out
    saved = json.loads(results.read_text())
    assert saved["evalplus_ng"]["suite"] == "base" and saved["hash"] == saved["evalplus_ng"]["hash"]
    code, out, err = _run("evaluate", "--samples", str(samples), "--suite", str(suite),
                          "--resume", "--results", str(results))
    assert code == 0, out
    assert "(0 reused)" in out and "judging every sample again" in err
    assert _plus_statuses(results) == ["fail", "pass"]
    assert "plus: pass@1 50.0" in out
    # What the figures are over, and how much plus takes off base.
    assert "over 1 of 1 tasks, 2 samples (2 per task)" in out
    assert "drop from base to plus: pass@1 50.0 points" in out
    # Same suite and settings: both verdicts are reused, whatever their order in the file.
    _samples(samples, [{"task_id": "HumanEval/53", "completion": CORRECT},
                       {"task_id": "HumanEval/53", "completion": small}])
    code, out, _ = _run("evaluate", "--samples", str(samples), "--suite", str(suite),
                        "--resume", "--results", str(results))
    assert code == 0 and "(2 reused)" in out
    assert _plus_statuses(results) == ["pass", "fail"]


HOSTILE = {
    "loop": "    while True:\n        pass\n",
    "exit_at_call": "    import os\n    os._exit(0)\n",
    "exit_at_import": "    pass\nimport os\nos._exit(0)\n",
    "fork_bomb": "    import os\n    while True:\n        os.fork()\n",
    "kill_parent": "    import os, signal\n    os.kill(os.getppid(), signal.SIGKILL)\n",
    "delete": "    import os\n    os.remove({sentinel!r})\n    return x + y\n",
    "sleep": "    import time\n    time.sleep(1000)\n",
    "always_equal": (
        "    class E:\n        def __eq__(s, o):\n            return True\n    return E()\n"
    ),
}


def test_hostile_samples_get_verdicts_and_the_run_finishes(tmp_path: Path) -> None:
    sentinel = tmp_path / "keep.txt"
    sentinel.write_text("precious", encoding="utf-8")
    rows: list[dict[str, object]] = []
    for body in HOSTILE.values():
        rows.append({"task_id": "HumanEval/53", "completion": CORRECT})
        rows.append({"task_id": "HumanEval/53",
                     "completion": body.replace("{sentinel!r}", repr(str(sentinel)))})
    rows.append({"task_id": "HumanEval/53", "completion": CORRECT})
    samples = _samples(tmp_path / "hostile.jsonl", rows)
    # As written: EvalPlus's sanitizer would drop some attacks (a function without a
    # return, code at import time) before they run.
    code, out, _ = _run("evaluate", "--samples", str(samples), "-j", "2",
                        "--min-time-limit", "0.3", "--no-sanitize")
    assert code == 0, out
    statuses = _statuses(samples)
    assert statuses[0::2] == ["pass"] * (len(HOSTILE) + 1)
    assert all(status != "pass" for status in statuses[1::2])
    assert sentinel.read_text(encoding="utf-8") == "precious"
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "hostile.evalplus-ng.base.json", "hostile.jsonl", "keep.txt"]


def test_absurdly_nested_code_gets_a_verdict_and_the_run_finishes(tmp_path: Path) -> None:
    # `return 1+1+...` ten thousand times overflows the parser's stack (RecursionError in
    # ast.parse): the sample fails, the others are judged, the results file is written.
    nested = "    return 1" + "+1" * 10_000 + "\n"
    samples = _samples(tmp_path / "s.jsonl", [
        {"task_id": "HumanEval/53", "completion": nested},
        {"task_id": "HumanEval/53", "solution": "def add(x: int, y: int):\n" + nested},
        {"task_id": "HumanEval/53", "completion": CORRECT},
    ])
    code, out, _ = _run("evaluate", "--samples", str(samples), "-j", "1")
    assert code == 0, out
    assert _statuses(samples) == ["fail", "fail", "pass"]


def test_the_results_file_is_never_written_through_a_planted_link(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious", encoding="utf-8")
    samples = _samples(tmp_path / "s.jsonl", [{"task_id": "HumanEval/53", "completion": CORRECT}])
    (tmp_path / "s.evalplus-ng.base.json.tmp").symlink_to(victim)  # a fixed temporary name
    code, out, _ = _run("evaluate", "--samples", str(samples), "-j", "1")
    assert code == 0, out
    assert victim.read_text(encoding="utf-8") == "precious"
    assert _statuses(samples) == ["pass"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "s.evalplus-ng.base.json", "s.evalplus-ng.base.json.tmp", "s.jsonl", "victim.txt"]


def test_augment_writes_the_suite_and_its_mini(tmp_path: Path) -> None:
    out = tmp_path / "out"
    code, stdout, _ = _run("augment", "--tasks", "13,53", "--per-task", "30", "--out", str(out),
                           "-j", "1")
    assert code == 0, stdout
    for name in ("HumanEvalPlus.jsonl.gz", "HumanEvalPlus-Mini.jsonl.gz", "stats.json",
                 "reduction.md", "audit.json", "audit.md"):
        assert (out / name).is_file(), name
    assert "offline:" in stdout
    code, stdout, _ = _run("evaluate", "--samples", str(_samples(tmp_path / "s.jsonl", [
        {"task_id": "HumanEval/53", "completion": CORRECT},
        {"task_id": "HumanEval/53", "completion": "    return x + y if x != 0 else y + 1\n"},
    ])), "--suite", "mini", "--artifacts", str(out), "-j", "1")
    assert code == 0, stdout
    # The MINI keeps the base tests, and add(0, 1) is one of them.
    assert _statuses(tmp_path / "s.jsonl", "mini") == ["pass", "fail"]


def test_samples_of_tasks_the_suite_lacks_are_skipped_with_a_warning(tmp_path: Path) -> None:
    # A partial suite (HumanEval/53 only): samples of other HumanEval tasks are skipped and
    # counted, as EvalPlus warns and skips; a task no dataset has is still an error.
    from dataclasses import replace

    from evalplus_ng.tasks.artifact import write_plus_file
    from evalplus_ng.tasks.registry import load_humaneval

    add = next(t for t in load_humaneval() if t.task_id == "HumanEval/53")
    suite = tmp_path / "suite.jsonl.gz"
    write_plus_file([replace(add, plus_inputs=([3, 4],))], suite)
    samples = _samples(tmp_path / "s.jsonl", [
        {"task_id": "HumanEval/0", "completion": "    return True\n"},
        {"task_id": "HumanEval/53", "completion": CORRECT},
        {"task_id": "HumanEval/0", "completion": "    return False\n"},
    ])
    code, out, err = _run("evaluate", "--samples", str(samples), "--suite", str(suite))
    assert code == 0, out
    assert "2 sample(s) of 1 task(s) the suite lacks were skipped (HumanEval/0)" in err
    assert "1 samples judged (0 reused, 2 skipped: their tasks are not in the suite)" in out
    document = json.loads(_results(samples, "file").read_text())
    assert list(document["eval"]) == ["HumanEval/53"]
    assert document["evalplus_ng"]["samples"] == {"judged": 1, "total": 1, "skipped": 2}
    only_absent = _samples(tmp_path / "o.jsonl", [{"task_id": "HumanEval/0",
                                                   "completion": "    return True\n"}])
    code, _, err = _run("evaluate", "--samples", str(only_absent), "--suite", str(suite))
    assert code == 2 and "no samples of the suite's tasks" in err
    unknown = _samples(tmp_path / "u.jsonl", [{"task_id": "HumanEval/999", "completion": "x"}])
    code, _, err = _run("evaluate", "--samples", str(unknown), "--suite", str(suite))
    assert code == 2 and "unknown task_id 'HumanEval/999'" in err


def test_a_samples_folder_in_evalplus_layout_is_judged_like_its_jsonl(tmp_path: Path) -> None:
    # EvalPlus's folder layout: TASK_ID (with _ for /) / N.py, complete solutions.
    right = "def add(x: int, y: int):\n    return x + y\n"
    wrong = "def add(x: int, y: int):\n    return x - y\n"
    folder = tmp_path / "samples"
    (folder / "HumanEval_53").mkdir(parents=True)
    for number, code in ((0, right), (1, wrong), (2, right), (10, wrong)):
        (folder / "HumanEval_53" / f"{number}.py").write_text(code, encoding="utf-8")
    (folder / "notes.txt").write_text("not a task folder", encoding="utf-8")
    code, out, _ = _run("evaluate", "--samples", str(folder), "-j", "1")
    assert code == 0, out
    results = json.loads((folder / "evalplus-ng.base.json").read_text())
    # 10.py comes after 2.py (numbers, not text order).
    assert [e["base_status"] for e in results["eval"]["HumanEval/53"]] == [
        "pass", "fail", "pass", "fail"]
    flat = _samples(tmp_path / "flat.jsonl", [{"task_id": "HumanEval/53", "solution": c}
                                              for c in (right, wrong, right, wrong)])
    code, out2, _ = _run("evaluate", "--samples", str(flat), "-j", "1")
    assert code == 0 and out2.split("\n")[1:] == out.split("\n")[1:]
    # A solution file that is not text is a one-line error naming it.
    (folder / "HumanEval_53" / "3.py").write_bytes(b"\xff\xfe\x00")
    code, _, err = _run("evaluate", "--samples", str(folder), "-j", "1")
    assert code == 2 and "HumanEval_53/3.py" in err and "cannot read" in err


def _private(path: Path, text: str) -> Path:
    """A file only its owner may read (a key, someone's notes)."""
    path.write_text(text, encoding="utf-8")
    path.chmod(0o600)
    return path


@pytest.mark.parametrize("planted", ["link to a file", "link to a folder", "fifo", "folder"])
def test_a_samples_folder_is_read_for_its_own_files_only(tmp_path: Path, planted: str) -> None:
    # A link in a samples folder (from an archive, say) would have the run read a file
    # elsewhere, run it and copy it into the results: one line naming it, nothing judged.
    secret = "def add(x: int, y: int):\n    return 'the content of a private file'\n"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    _private(elsewhere / "key.py", secret)
    folder = tmp_path / "samples"
    (folder / "HumanEval_53").mkdir(parents=True)
    (folder / "HumanEval_53" / "0.py").write_text("def add(x: int, y: int):\n" + CORRECT,
                                                  encoding="utf-8")
    if planted == "link to a file":
        bad = folder / "HumanEval_53" / "1.py"
        bad.symlink_to(elsewhere / "key.py")
    elif planted == "link to a folder":
        bad = folder / "HumanEval_2"
        bad.symlink_to(elsewhere, target_is_directory=True)
    elif planted == "fifo":  # read, it would wait forever for a writer
        bad = folder / "HumanEval_53" / "1.py"
        os.mkfifo(bad)
    else:
        bad = folder / "HumanEval_53" / "1.py"
        bad.mkdir()
    code, out, err = _run("evaluate", "--samples", str(folder), "-j", "1", "--no-sanitize")
    assert code == 2, out
    assert err.strip().splitlines() == [
        f"error: {bad}: a link or not a regular file: a samples folder is read for its own "
        "files only"]
    assert not list(folder.glob("*.json"))


def test_a_folder_of_samples_files_takes_no_link(tmp_path: Path) -> None:
    from evalplus_ng.errors import InputError
    from evalplus_ng.tasks.samples import sample_files

    folder = tmp_path / "samples"
    folder.mkdir()
    _samples(folder / "a.jsonl", [{"task_id": "HumanEval/53", "completion": CORRECT}])
    assert sample_files(folder) == [folder / "a.jsonl"]
    row = json.dumps({"task_id": "HumanEval/53", "solution": "a private program"})
    (folder / "b.jsonl").symlink_to(_private(tmp_path / "private.jsonl", row + "\n"))
    with pytest.raises(InputError, match=r"b\.jsonl: a link or not a regular file"):
        sample_files(folder)
    # A file named by the user is read through a link: the user chose it.
    assert sample_files(folder / "b.jsonl") == [folder / "b.jsonl"]
