"""Program tasks (stdin/stdout, issue 33's first slice): the text judge, the tasks file and
its one-line errors, programs in the sandbox (hostile ones too), and judging samples of
programs end to end (the Python call and ``evaluate --dataset-file``).

Fixtures are written here and in tests/programfixtures.py (the "a + b" task); nothing reads
``../shared``. The sandbox tests share one supervisor (conftest's ``program_sandbox``; a
few seconds in all; the two time-outs cost half a second each).
"""

from __future__ import annotations

import hashlib
import json
import os
import uuid
from pathlib import Path
from typing import Any

import pytest
import test_sandbox as corpus  # leftover processes (tests/ is on the path, as pytest runs)
from click.testing import CliRunner
from programfixtures import ADD, ADD_TASK, ADD_TESTS, add_record, write_jsonl

from evalplus_ng.cli import main
from evalplus_ng.errors import InputError
from evalplus_ng.evaluation.program_verdicts import (
    ProgramConfig,
    RunStatus,
    judge_programs,
    program_pass_at_k,
)
from evalplus_ng.jobs import program_job
from evalplus_ng.judge import JUDGE, check
from evalplus_ng.pipeline.programs import evaluate as programs_pipeline
from evalplus_ng.records import (
    LINES,
    TOKENS,
    TOO_LARGE,
    Fault,
    JobResult,
    ProgramTask,
    ProgramTest,
    Sample,
    Status,
    Verdict,
)
from evalplus_ng.sandbox import Limits, Sandbox
from evalplus_ng.tasks.programfile import (
    is_program_file,
    load_program_tasks,
    read_program_samples,
)
from evalplus_ng.tasks.samples import MAX_SOURCE_BYTES
from evalplus_ng.textjudge import close_numbers, lines_of, same_lines, same_output, same_tokens

# --------------------------------------------------------------------------- the text judge


def test_lines_ignore_trailing_whitespace_and_trailing_blank_lines() -> None:
    assert same_lines("1 2\n3\n", "1 2   \n3\t\n\n\n")
    assert same_lines("1\n", "1")
    assert same_lines("1\r\n2\r\n", "1\n2\n")  # a carriage return is trailing whitespace
    assert lines_of("a \n\n b\n\n") == ["a", "", " b"]
    assert not same_lines("1 2\n", "1  2\n")  # inside a line, spaces count
    assert not same_lines("1\n2\n", "1\n\n2\n")  # a blank line inside counts
    assert not same_lines("1\n", " 1\n")  # leading whitespace counts
    assert not same_lines("YES\n", "yes\n")


def test_tokens_and_their_tolerance() -> None:
    assert same_tokens("1 2\n3\n", "1\n2 3")
    assert not same_tokens("1 2 3", "1 2")
    assert not same_tokens("0.5", "0.50000")  # no tolerance: exact tokens
    assert same_tokens("0.5", "0.50000", 1e-6)
    assert same_tokens("1000000.0", "1000000.5", 1e-6)  # relative error 5e-7
    assert not same_tokens("1.0", "1.1", 1e-6)
    assert same_tokens("3", "3.0000001", 1e-6)  # not both integers: by value
    assert not same_tokens("100000000000000000001", "100000000000000000000", 1e-6)
    assert same_tokens("007", "7", 1e-6) and not same_tokens("007", "7")
    assert not close_numbers("1_0", "10", 1.0) and not close_numbers("nan", "nan", 1.0)
    assert close_numbers("1e400", "1e400", 1e-6) and not close_numbers("1e400", "1e300", 1e-6)


def test_the_judge_takes_program_equalities_and_fails_what_is_not_text() -> None:
    assert check("", [], "1\n", "1   \n\n", 0.0, LINES)
    assert not check("", [], "1 2\n", "1\n2\n", 0.0, LINES)
    assert check("", [], "1 2\n", "1\n2\n", 0.0, TOKENS)
    assert not same_output("1\n", 1, LINES)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown program equality"):
        same_output("1", "1", "words")
    assert JUDGE.by_text("")  # identical text passes unread


# --------------------------------------------------------------------------- the tasks file


def _task(task_id: str = "cc/add", **fields: Any) -> dict[str, Any]:
    """The tiny task's line with every optional field a tasks file may hold."""
    return add_record(task_id=task_id, **{
        "multiple_answers_suspected": False, "float_output_suspected": False,
        "source": "here", "tags": ["math"], "time_limit": None, **fields})


def test_a_tasks_file_of_programs_loads_into_frozen_records(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "tasks.jsonl.gz", [
        _task(), _task("cc/float", equality=TOKENS, atol=1e-6, time_limit=2,
                       float_output_suspected=True, name="1A. Float")])
    assert is_program_file(path)
    add, floats = load_program_tasks(path)
    assert (add.task_id, add.solution, add.equality, add.atol) == ("cc/add", ADD, LINES, 0.0)
    assert add.base_tests == (ProgramTest("1 2\n", "3\n", True),)
    assert len(add.tests) == 3 and add.flags == frozenset() and add.time_limit is None
    assert (floats.equality, floats.atol, floats.time_limit, floats.name) == (
        TOKENS, 1e-6, 2.0, "1A. Float")
    assert floats.flags == {"float_output_suspected"}
    with pytest.raises(AttributeError):
        add.solution = "x"  # type: ignore[misc]


def test_a_tasks_file_of_functions_is_no_program_file(tmp_path: Path) -> None:
    functions = write_jsonl(tmp_path / "f.jsonl", [
        {"task_id": "t", "prompt": "", "entry_point": "f", "canonical_solution": "",
         "tests": ["assert 1"]}])
    assert not is_program_file(functions)
    assert not is_program_file(tmp_path / "missing.jsonl")


@pytest.mark.parametrize(("record", "problem"), [
    ({"task_id": "t", "prompt": "", "tests": []}, "missing field(s): canonical_solution"),
    (_task(task_id=""), "'task_id' must be a non-empty string"),
    (_task(tests=[]), "'tests' must be a non-empty list"),
    (_task(tests=["1 2"]), "test 0: expected an object with 'input' and 'output'"),
    (_task(tests=[{"input": "1", "output": 3}]), "test 0: 'output' must be a string"),
    (_task(tests=[{"input": "1", "output": "3", "public": "yes"}]),
     "test 0: 'public' must be true or false"),
    (_task(equality="words"), "unknown equality 'words'; known: lines, tokens"),
    (_task(atol=1e-6), "'atol' compares numbers token by token"),
    (_task(equality=TOKENS, atol=-1), "'atol' must be a non-negative number"),
    (_task(time_limit=0), "'time_limit' must be above 0"),
    (_task(multiple_answers_suspected="no"), "'multiple_answers_suspected' must be true or "
                                             "false"),
])
def test_a_malformed_task_is_one_error_naming_file_and_line(
        tmp_path: Path, record: dict[str, Any], problem: str) -> None:
    path = write_jsonl(tmp_path / "tasks.jsonl", [_task("cc/first"), record])
    with pytest.raises(InputError) as caught:
        load_program_tasks(path)
    assert str(caught.value).startswith(f"{path}:2: {problem}")


def test_repeated_ids_empty_files_and_bad_json_are_errors(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"tasks.jsonl:2: duplicate task_id 'cc/add'"):
        load_program_tasks(write_jsonl(tmp_path / "tasks.jsonl", [_task(), _task()]))
    with pytest.raises(InputError, match="no tasks in file"):
        load_program_tasks(write_jsonl(tmp_path / "empty.jsonl", []))
    (tmp_path / "bad.jsonl").write_text(json.dumps(_task()) + "\n{oops\n")
    with pytest.raises(InputError, match=r"bad.jsonl:2: invalid JSON"):
        load_program_tasks(tmp_path / "bad.jsonl")


def test_samples_of_programs(tmp_path: Path) -> None:
    tasks = {"cc/add": ProgramTask("cc/add", "", ADD, ())}
    path = write_jsonl(tmp_path / "s.jsonl", [
        {"task_id": "cc/add", "solution": ADD}, {"task_id": "cc/add", "completion": "print(3)"},
        {"task_id": "cc/add", "solution": "#" * (MAX_SOURCE_BYTES + 1)}])
    first, second, third = read_program_samples(path, tasks)
    assert (first.code, first.line, second.code) == (ADD, 1, "print(3)")
    assert third.refused == TOO_LARGE and len(third.code) == 1000
    with pytest.raises(InputError, match=r"s2.jsonl:1: unknown task_id 'cc/sub'"):
        read_program_samples(write_jsonl(tmp_path / "s2.jsonl", [{"task_id": "cc/sub",
                                                                   "solution": ""}]), tasks)
    with pytest.raises(InputError, match=r"s3.jsonl:1: missing or non-string 'solution'"):
        read_program_samples(write_jsonl(tmp_path / "s3.jsonl", [{"task_id": "cc/add"}]), tasks)


# --------------------------------------------------------------------------- the sandbox

LIMIT = 0.5


def _run(sandbox: Sandbox, code: str, *, fail_fast: bool = False, limit: float = LIMIT,
         **options: Any) -> JobResult:
    return sandbox.run(program_job(ADD_TASK, code, ADD_TESTS, limit, fail_fast=fail_fast,
                                   **options))


def _kinds(result: JobResult) -> list[tuple[str, str | None]]:
    return [(o.status.value, o.fault and o.fault.value) for o in result.outcomes]


PROGRAMS = {
    # stdin is a regular file: fast-IO templates size it with os.fstat
    "fstat": "import os\nx = os.read(0, os.fstat(0).st_size).split()\n"
             "print(int(x[0]) + int(x[1]))\n",
    "buffer": "import sys\na, b = map(int, sys.stdin.buffer.readline().split())\n"
              "sys.stdout.buffer.write(b'%d\\n' % (a + b))\n",
    "exit": "a, b = map(int, input().split())\nprint(a + b)\nexit()\nprint('not this')\n",
    "main": "def main():\n    a, b = map(int, input().split())\n    print(a + b)\n"
            "if __name__ == '__main__':\n    main()\n",
    "atexit": "import atexit\na, b = map(int, input().split())\n"
              "atexit.register(lambda: print(a + b))\n",
    # the contest idiom: a thread with a large stack, for deep recursion
    "thread": "import sys, threading\nsys.setrecursionlimit(10**6)\n"
              "threading.stack_size(10**8)\n"
              "def depth(n):\n    return 0 if n == 0 else 1 + depth(n - 1)\n"
              "def main():\n    a, b = map(int, input().split())\n"
              "    print(a + b + depth(50000) - 50000)\n"
              "t = threading.Thread(target=main)\nt.start()\nt.join()\n",
    "flushed, then os._exit": "import os, sys\na, b = map(int, input().split())\n"
                               "print(a + b)\nsys.stdout.flush()\nos._exit(0)\n",
    # nothing a run leaves reaches the next input's process
    "fresh": "import os, sys\nassert not os.listdir('.')\nopen('seen', 'w').write('1')\n"
             "assert sys.getrecursionlimit() == 1000\nsys.setrecursionlimit(5000)\n"
             "a, b = map(int, input().split())\nprint(a + b)\n",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_right_programs_pass_every_test(program_sandbox: Sandbox, name: str) -> None:
    result = _run(program_sandbox, PROGRAMS[name])
    assert result.all_passed, _kinds(result)
    assert result.outcomes[0].value.rstrip() == "3"


def test_what_programs_get_wrong(program_sandbox: Sandbox) -> None:
    wrong = _run(program_sandbox, "print(3)\n")
    assert wrong.passed == (True, False, False) and wrong.outcomes[1].value == "3\n"
    unflushed = _run(program_sandbox, "import os\nprint(3)\nos._exit(0)\n")  # lost with its buffer
    assert unflushed.outcomes[0].value == "" and not any(unflushed.passed)
    for code, fault, error in [
        ("raise ValueError('no')", Fault.RAISED, "ValueError: no"),
        ("import sys\nprint(3)\nsys.exit(2)\n", Fault.RAISED, "SystemExit: 2"),
        ("import os\nos._exit(3)\n", Fault.RAISED, "exit code 3"),
        ("def f(n):\n    return f(n + 1)\nf(0)\n", Fault.RECURSION, "RecursionError"),
    ]:
        result = _run(program_sandbox, code)
        assert [(o.status, o.fault) for o in result.outcomes] == [(Status.ERROR, fault)] * 3
        assert (result.outcomes[0].error or "").startswith(error)
    syntax = _run(program_sandbox, "print(")
    assert syntax.load.status is Status.ERROR and syntax.outcomes == ()


def test_stdout_is_read_as_utf8_text_and_nothing_else(program_sandbox: Sandbox) -> None:
    # Its own bytes: not UTF-8 is a wrong answer, whatever the test expects; UTF-8 text,
    # control characters too, is read as it is.
    task = ProgramTask("cc/echo", "Echo.", "", (ProgramTest("", "\x00\u00e9\n", True),))
    wrote = {"import sys\nsys.stdout.buffer.write(b'\\xff\\n')\n": (Status.BAD_OUTPUT, False),
             "print('\\x00\\u00e9')\n": (Status.OK, True),
             "print('\\x00\\u00e9  ')\n": (Status.OK, True)}  # passes by lines, not by text
    for code, (status, passed) in wrote.items():
        result = program_sandbox.run(program_job(task, code, task.tests, LIMIT))
        (outcome,) = result.outcomes
        assert (outcome.status, result.passed) == (status, (passed,)), code
    assert outcome.value == "\x00\u00e9  \n"
    bad = program_sandbox.run(program_job(task, next(iter(wrote)), task.tests, LIMIT))
    assert bad.outcomes[0].error == "stdout is not UTF-8 text: byte 0 of 2"


def test_fail_fast_stops_at_the_first_failure(program_sandbox: Sandbox) -> None:
    result = _run(program_sandbox, "print(3)\n", fail_fast=True)
    assert result.passed == (True, False)


HOSTILE = {
    "loop": ("while True:\n    pass\n", Status.TIMEOUT, None),
    "flood": ("while True:\n    print('x' * 4096)\n", Status.ERROR, Fault.TOO_LARGE),
    "os.write flood": ("import os\nwhile True:\n    os.write(1, b'x' * 65536)\n",
                       Status.ERROR, Fault.TOO_LARGE),
    "fork bomb": ("import os\nwhile True:\n    os.fork()\n", Status.ERROR, Fault.RAISED),
    "thread bomb": ("import _thread, time\nwhile True:\n"
                    "    _thread.start_new_thread(time.sleep, (60,))\n",
                    Status.ERROR, Fault.RAISED),
    "memory": ("x = bytearray(2 << 30)\n", Status.ERROR, Fault.RAISED),
    "closes its descriptors": ("import os\nos.closerange(0, 100)\n", Status.CRASH, None),
}


def test_hostile_programs_get_a_verdict_and_leave_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    marker = uuid.uuid4().hex
    corpus.tag(monkeypatch, marker)
    with Sandbox(1, Limits(memory_bytes=1 << 30, load_seconds=5.0), judge=JUDGE) as box:
        for name, (code, status, fault) in HOSTILE.items():
            result = _run(box, code, fail_fast=True, limit=0.25, max_output_bytes=1 << 20)
            assert result.load.status is Status.OK, name
            assert [(o.status, o.fault) for o in result.outcomes] == [(status, fault)], name
            assert _run(box, ADD).all_passed, name  # the next program is unharmed
    assert corpus._wait_for_no_leftovers(marker) == []


def test_a_program_deleting_files_outside_its_folder_deletes_nothing(
        program_sandbox: Sandbox) -> None:
    outside = Path.home() / ".cache" / "evalplus-ng-tests" / uuid.uuid4().hex
    outside.mkdir(parents=True)
    sentinel = outside / "sentinel.txt"
    sentinel.write_text("still here")
    try:
        code = (f"import os, shutil\nshutil.rmtree({str(outside)!r}, ignore_errors=True)\n"
                f"os.remove({str(sentinel)!r})\n")
        result = _run(program_sandbox, code, fail_fast=True)
        assert [(o.status, o.fault) for o in result.outcomes] == [(Status.ERROR, Fault.RAISED)]
        assert sentinel.read_text() == "still here"
    finally:
        sentinel.unlink()
        outside.rmdir()


def test_a_program_job_takes_no_line_budget() -> None:
    with pytest.raises(ValueError, match="no max_lines"):
        program_job(ADD_TASK, ADD, ADD_TESTS, 1.0, max_lines=10)


# --------------------------------------------------------------------------- judging samples


def _samples() -> list[Sample]:
    return [Sample("cc/add", ADD, 1), Sample("cc/add", "print(3)\n", 2),
            Sample("cc/add", "print(", 3), Sample("cc/add", ADD, 4),
            Sample("cc/add", "x", 5, refused=TOO_LARGE)]


def test_judging_samples_gives_base_and_full_verdicts(program_sandbox: Sandbox) -> None:
    results = judge_programs({"cc/add": ADD_TASK}, _samples(), program_sandbox,
                             ProgramConfig(time_limit=LIMIT))
    assert [(r.base, r.full) for r in results] == [
        (Verdict.PASS, Verdict.PASS), (Verdict.PASS, Verdict.FAIL),
        (Verdict.FAIL, Verdict.FAIL), (Verdict.PASS, Verdict.PASS),
        (Verdict.FAIL, Verdict.FAIL)]
    right, wrong, syntax, _again, refused = results
    assert [(run.index, run.public, run.status) for run in wrong.tests] == [
        (0, True, RunStatus.PASS), (1, False, RunStatus.WRONG_ANSWER)]  # stopped there
    assert syntax.first_failure is not None
    assert (syntax.first_failure.index, syntax.first_failure.status) == (
        0, RunStatus.RUNTIME_ERROR)
    assert right.first_failure is None and refused.refused == TOO_LARGE
    assert program_pass_at_k(results) == {"base": {1: pytest.approx(0.6)},
                                          "full": {1: pytest.approx(0.4)}}
    every = judge_programs({"cc/add": ADD_TASK}, _samples()[1:2], program_sandbox,
                           ProgramConfig(time_limit=LIMIT, details=True))
    assert [run.status for run in every[0].tests] == [
        RunStatus.PASS, RunStatus.WRONG_ANSWER, RunStatus.WRONG_ANSWER]
    base = judge_programs({"cc/add": ADD_TASK}, _samples()[1:2], program_sandbox,
                          ProgramConfig(time_limit=LIMIT, suite="base"))
    assert (base[0].base, base[0].full, len(base[0].tests)) == (Verdict.PASS, None, 1)


def test_an_option_turns_tokens_and_a_tolerance_on(program_sandbox: Sandbox) -> None:
    half = ProgramTask("cc/half", "", "print(1 / 2)\n", (ProgramTest("", "0.5\n", True),))
    loose = "print('%.6f' % 0.5000001)\n"
    exact = judge_programs({"cc/half": half}, [Sample("cc/half", loose, 1)], program_sandbox,
                           ProgramConfig(time_limit=LIMIT))
    tolerant = judge_programs({"cc/half": half}, [Sample("cc/half", loose, 1)], program_sandbox,
                              ProgramConfig(time_limit=LIMIT, atol=1e-6))
    assert (exact[0].full, tolerant[0].full) == (Verdict.FAIL, Verdict.PASS)
    with pytest.raises(ValueError, match="needs equality 'tokens'"):
        ProgramConfig(equality=LINES, atol=1e-6)


def test_evaluate_a_samples_file_of_programs(tmp_path: Path) -> None:
    tasks = write_jsonl(tmp_path / "tasks.jsonl.gz", [_task()])
    samples = write_jsonl(tmp_path / "s.jsonl", [{"task_id": "cc/add", "solution": ADD},
                                            {"task_id": "cc/add", "solution": "print(3)"}])
    result = CliRunner().invoke(main, ["evaluate", "--dataset-file", str(tasks), "--samples",
                                       str(samples), "-j", "1", "--min-time-limit", "0.5"])
    assert result.exit_code == 0, result.output
    assert "2 programs judged" in result.output and "full: pass@1 50.0" in result.output
    named = f"s.evalplus-ng.full-{hashlib.sha256(tasks.read_bytes()).hexdigest()[:12]}.json"
    document = json.loads((tmp_path / named).read_text())
    entries = document["eval"]["cc/add"]
    assert [(e["base_status"], e["full_status"], e["first_failure"]) for e in entries] == [
        ("pass", "pass", None),
        ("pass", "fail", {"index": 1, "status": "wrong_answer", "tier": "original"})]
    assert [t["status"] for t in entries[1]["tests"]] == ["pass", "wrong_answer"]
    assert document["evalplus_ng"]["kind"] == "programs"
    assert document["evalplus_ng"]["config"]["time_limit"] == 0.5
    result = CliRunner().invoke(main, ["evaluate", "--dataset", str(tasks), "--samples",
                                       str(samples), "--suite", "mini"])
    assert result.exit_code == 2 and "program tasks are judged" in result.output


def test_a_suite_of_some_tasks_skips_samples_of_the_others_with_a_warning(
        tmp_path: Path) -> None:
    # A function suite skips them (as EvalPlus does); a program suite refused the file.
    tests = [*_task()["tests"], {"input": "2 2\n", "output": "4\n", "public": False,
                                 "origin": "plus"}]
    suite = write_jsonl(tmp_path / "ProgramsPlus.jsonl.gz", [_task(tests=tests)])
    dataset = write_jsonl(tmp_path / "tasks.jsonl", [_task()])
    samples = write_jsonl(tmp_path / "s.jsonl", [
        {"task_id": "cc/add", "solution": ADD}, {"task_id": "cc/other", "solution": ADD},
        {"task_id": "cc/other", "solution": "print(1)"}])
    result = CliRunner().invoke(main, ["evaluate", "--dataset-file", str(suite), "--samples",
                                       str(samples), "-j", "1", "--min-time-limit", "0.5"])
    assert result.exit_code == 0, result.output
    assert ("warning: 2 sample(s) of 1 task(s) the suite lacks were skipped (cc/other)"
            in result.stderr)
    assert "1 programs judged" in result.stdout and "full: pass@1 100.0" in result.stdout
    # The dataset's own tasks file still names an unknown task as an error.
    result = CliRunner().invoke(main, ["evaluate", "--dataset-file", str(dataset), "--samples",
                                       str(samples), "-j", "1"])
    assert result.exit_code == 2 and ":2: unknown task_id 'cc/other'" in result.stderr
    only = write_jsonl(tmp_path / "o.jsonl", [{"task_id": "cc/other", "solution": ADD}])
    result = CliRunner().invoke(main, ["evaluate", "--dataset-file", str(suite), "--samples",
                                       str(only), "-j", "1"])
    assert result.exit_code == 2 and "no samples of the suite's tasks" in result.stderr


def test_evaluate_of_programs_judges_only_the_tasks_named(tmp_path: Path) -> None:
    tasks = write_jsonl(tmp_path / "tasks.jsonl", [_task(), _task("cc/add2")])
    samples = write_jsonl(tmp_path / "s.jsonl", [
        {"task_id": "cc/add", "solution": ADD}, {"task_id": "cc/add2", "solution": ADD}])
    result = CliRunner().invoke(main, ["evaluate", "--dataset-file", str(tasks), "--samples",
                                       str(samples), "-j", "1", "--tasks", "1"])
    assert result.exit_code == 0, result.output
    assert "--tasks: left out 1 sample(s) of other tasks" in result.stderr
    assert "1 programs judged" in result.stdout and "over 1 of 1 tasks" in result.stdout
    [results] = tmp_path.glob("s.evalplus-ng.full-*.json")
    document = json.loads(results.read_text())
    assert list(document["eval"]) == ["cc/add2"]
    # Which jail ran them, as for function tasks.
    assert f"\njail: {document['evalplus_ng']['jail']}\n" in result.stdout
    assert document["evalplus_ng"]["jail"] in ("bubblewrap", "namespaces")


def test_a_wrong_answer_is_shown_against_the_expected_output_in_results_and_report(
        tmp_path: Path) -> None:
    tasks = write_jsonl(tmp_path / "tasks.jsonl.gz", [_task()])
    samples = write_jsonl(tmp_path / "s.jsonl", [
        {"task_id": "cc/add", "solution": "print(3)"},
        {"task_id": "cc/add", "solution": "raise SystemExit(1)"}])
    result = CliRunner().invoke(main, ["evaluate", "--dataset-file", str(tasks), "--samples",
                                       str(samples), "-j", "1", "--min-time-limit", "0.5"])
    assert result.exit_code == 0, result.output
    [results] = tmp_path.glob("s.evalplus-ng.full-*.json")
    wrong, crashed = json.loads(results.read_text())["eval"]["cc/add"]
    assert wrong["diff"] == "assert stdout == expected\nFull diff:\n- 10\n+ 3"
    assert "diff" not in crashed  # a runtime error: no output to compare
    result = CliRunner().invoke(main, ["report", str(results), "--out", str(tmp_path / "r")])
    assert result.exit_code == 0, result.output
    assert ('<pre class="diff">assert stdout == expected\nFull diff:\n- 10\n+ 3</pre>'
            in (tmp_path / "r" / "report.html").read_text())


def test_an_interrupted_evaluate_of_programs_keeps_its_verdicts_and_resumes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Ctrl-C lost every verdict, and the --resume the message named was refused.
    tasks = write_jsonl(tmp_path / "tasks.jsonl.gz", [_task()])
    samples = write_jsonl(tmp_path / "s.jsonl", [
        {"task_id": "cc/add", "solution": ADD}, {"task_id": "cc/add", "solution": "print(3)"},
        {"task_id": "cc/add", "solution": ADD}])
    staged = programs_pipeline.judge_programs_staged
    asked: list[int] = []

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        done = kwargs.get("done") or (args[5] if len(args) > 5 else {})
        asked.append(len(done))
        for count, item in enumerate(staged(*args, **kwargs)):
            if count == 2:  # the first program's two samples are judged
                raise KeyboardInterrupt
            yield item

    monkeypatch.setattr(programs_pipeline, "judge_programs_staged", interrupted)
    args = ["evaluate", "--dataset-file", str(tasks), "--samples", str(samples), "-j", "1",
            "--min-time-limit", "0.5"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 130, result.output
    assert "the verdicts so far are in the results file" in result.output
    assert f"--samples {samples} -j 1 --min-time-limit 0.5 --resume` continues" in result.output
    named = f"s.evalplus-ng.full-{hashlib.sha256(tasks.read_bytes()).hexdigest()[:12]}.json"
    document = json.loads((tmp_path / named).read_text())
    assert document["evalplus_ng"]["complete"] is False
    assert [e["full_status"] for e in document["eval"]["cc/add"]] == ["pass", "pass"]
    monkeypatch.setattr(programs_pipeline, "judge_programs_staged", staged)
    result = CliRunner().invoke(main, [*args, "--resume"])
    assert result.exit_code == 0, result.output
    assert "3 programs judged (2 reused)" in result.output, result.output
    document = json.loads((tmp_path / named).read_text())
    assert document["evalplus_ng"]["complete"] is True
    assert [e["full_status"] for e in document["eval"]["cc/add"]] == ["pass", "fail", "pass"]
    assert asked == [0]
    # A results file edited by hand is judged again, as a function task's is.
    document["eval"]["cc/add"][1]["full_status"] = "pass"
    (tmp_path / named).write_text(json.dumps(document))
    result = CliRunner().invoke(main, [*args, "--resume"])
    assert result.exit_code == 0 and "(0 reused)" in result.output, result.output
    assert "not sealed by evalplus-ng" in result.output


AS_USER = """
import json, sys
from evalplus_ng.records import Job
from evalplus_ng.sandbox import Limits, Sandbox
from evalplus_ng.serialize import encode
job = Job(code=sys.argv[1], entry_point="", inputs=[encode("1 2\\n"), encode("40 2\\n")],
          time_limits=[5.0, 5.0], program=True)
with Sandbox(1, Limits(memory_bytes=1 << 30, load_seconds=5.0)) as box:
    result = box.run(job)
print(json.dumps([[o.status.value, o.error] for o in result.outcomes]))
"""


@pytest.mark.skipif(os.geteuid() != 0, reason="switching to another uid needs root")
def test_a_program_runs_for_an_ordinary_user(jail: str) -> None:
    # The child's Python-level guards (an ordinary user's) replaced os.unlink, which the
    # child itself uses to hand a program its stdin: every test was "input not given".
    from asuser import ordinary_user

    from evalplus_ng.sandbox.jail import MODE_VARIABLE

    with ordinary_user() as user:
        done = user.run(["-c", AS_USER, ADD], {MODE_VARIABLE: jail})
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout) == [["ok", None], ["ok", None]]
