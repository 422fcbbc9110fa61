"""Datasets beyond HumanEval: the registry, MBPP+ (small fixtures of our own, in the
release's format) and a user's own tasks file, through loading, oracles and the CLI."""

from __future__ import annotations

import gzip
import http.server
import json
import pickle
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from evalplus_ng.cli import main
from evalplus_ng.errors import EvalplusError, InputError
from evalplus_ng.generate.contract import load_contract
from evalplus_ng.records import Job
from evalplus_ng.sandbox import Sandbox
from evalplus_ng.serialize import encode
from evalplus_ng.tasks import mbpp
from evalplus_ng.tasks.plusfile import load_plus_file
from evalplus_ng.tasks.registry import resolve
from evalplus_ng.tasks.sources import own_asserts
from evalplus_ng.tasks.spec import file_stem

CONTRACT = "\n  assert isinstance(a, tuple), \"invalid inputs\" # $_CONTRACT_$\n"
MBPP_TASKS = [
    {"task_id": "Mbpp/2", "prompt": '"""\nShared elements of two tuples.\n"""\n',
     "entry_point": "similar_elements",
     "canonical_solution": "\ndef similar_elements(a, b):\n  return tuple(set(a) & set(b))\n",
     "base_input": [[[3, 4, 5, 6], [5, 7, 4, 10]], [[1, 2, 3, 4], [5, 4, 3, 7]]],
     "atol": 0, "contract": CONTRACT,
     "assertion": "\nassert similar_elements((3, 4, 5, 6),(5, 7, 4, 10)) == (4, 5)\n"
                  "assert similar_elements((1, 2, 3, 4),(5, 4, 3, 7)) == (3, 4)\n",
     "plus_input": [[[99], [99]]]},
    {"task_id": "Mbpp/737", "prompt": '"""\nStarts with a vowel.\n"""\n',
     "entry_point": "check_str",
     "canonical_solution": "\nimport re\ndef check_str(string):\n"
                           "    return re.search('^[aeiouAEIOU][A-Za-z0-9_]*', string)\n",
     "base_input": [["annie"], ["dawood"]], "atol": 0,
     "contract": '\n    assert isinstance(string, str), "invalid inputs" # $_CONTRACT_$\n',
     "assertion": '\nassert check_str("annie")\nassert not check_str("dawood")\n'},
    {"task_id": "Mbpp/124", "prompt": '"""\nAngle of a complex number.\n"""\n',
     "entry_point": "angle_complex",
     "canonical_solution": "\nimport cmath\ndef angle_complex(a,b):\n  return cmath.phase(a+b)\n",
     "base_input": [["0", "1j"], ["2", "1j"]], "atol": 0.0001, "contract": "",
     "assertion": "import math\n\nassert math.isclose(angle_complex(0,1j), 1.57, rel_tol=0.001)\n"
                  "assert math.isclose(angle_complex(2,1j), 0.46, rel_tol=0.001)\n"},
]


def _gz(path: Path, records: list[dict[str, object]]) -> Path:
    path.write_bytes(gzip.compress("".join(json.dumps(r) + "\n" for r in records).encode()))
    return path


@pytest.fixture()
def mbpp_file(tmp_path: Path) -> Path:
    return _gz(tmp_path / "MbppPlus.jsonl.gz", MBPP_TASKS)


def test_the_registry_knows_the_built_in_datasets_and_tasks_files(tmp_path: Path) -> None:
    humaneval = resolve("humaneval", tmp_path / "data")
    assert humaneval.suite_file("plus") == "HumanEvalPlus.jsonl.gz"
    assert resolve("mbpp").suite_file("stress-mini") == "MbppPlus-Stress-Mini.jsonl.gz"
    # The user's folder comes first: a contract there wins over the shipped one.
    assert humaneval.user_folder.definition == tmp_path / "data"
    assert humaneval.contract_path("HumanEval/0") is not None
    (tmp_path / "data" / "contracts").mkdir(parents=True)
    (tmp_path / "data" / "contracts" / "HumanEval_0.py").write_text("def pre(*a):\n  return True\n")
    assert humaneval.contract_path("HumanEval/0") == tmp_path / "data/contracts/HumanEval_0.py"
    own = tmp_path / "my_tasks.jsonl"
    own.write_text("")
    assert resolve(str(own)).stem == "My_tasksPlus"
    with pytest.raises(InputError, match="unknown dataset 'nope'"):
        resolve("nope")
    with pytest.raises(InputError, match="no such tasks file"):
        resolve(str(tmp_path / "missing.jsonl"))


def test_task_ids_of_any_spelling_get_distinct_safe_file_names() -> None:
    assert file_stem("HumanEval/7") == "HumanEval_7"
    odd = file_stem("../etc/passwd?")
    assert "/" not in odd and not odd.startswith(".") and odd != file_stem("__etc_passwd_")


def test_mbpp_base_inputs_keep_the_asserts_types_and_contracts_come_from_the_release(
        mbpp_file: Path, tmp_path: Path) -> None:
    dataset = resolve("mbpp", tmp_path / "data", mbpp_file)
    tasks = {task.task_id: task for task in dataset.load()}
    shared = tasks["Mbpp/2"]
    assert shared.base_inputs == ([(3, 4, 5, 6), (5, 7, 4, 10)], [(1, 2, 3, 4), (5, 4, 3, 7)])
    assert shared.oracle == "set" and tasks["Mbpp/737"].oracle == "not_none"
    assert shared.plus_inputs == ()  # the release's plus inputs are never read
    # complex numbers written as strings in the JSON are numbers again
    assert tasks["Mbpp/124"].base_inputs == ([0.0, 1j], [2.0, 1j])
    assert tasks["Mbpp/124"].atol == 0.0001
    contract = load_contract(shared, dataset.contract_path(shared.task_id))
    assert [str(spec) for spec in contract.specs] == ["tuple[int, ...]", "tuple[int, ...]"]
    assert contract.valid([(1, 2), (2, 3, 4, 5)])
    assert not contract.valid([[1, 2], (2,)])  # EvalPlus's contract: a tuple
    assert contract.pre_violation([[1, 2], (2,)]) == "precondition is false"


def test_mbpp_is_found_through_evalplus_variable(mbpp_file: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MBPP_OVERRIDE_PATH", str(mbpp_file))
    assert resolve("mbpp").source == mbpp_file  # a source: hidden from samples like the cache
    assert [t.task_id for t in resolve("mbpp").load()] == ["Mbpp/2", "Mbpp/737", "Mbpp/124"]


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[str]:
    folder = tmp_path / "www"
    folder.mkdir()
    _gz(folder / "MbppPlus.jsonl.gz", MBPP_TASKS)

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, directory=str(folder), **kwargs)  # type: ignore[arg-type]

        def log_message(self, *args: object) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def test_the_download_is_checked_and_shows_progress(server: str, tmp_path: Path) -> None:
    seen: list[tuple[int, int]] = []
    target = tmp_path / "cache" / "MbppPlus.jsonl.gz"
    digest = mbpp.tasks_digest(MBPP_TASKS)
    mbpp.download(f"{server}/MbppPlus.jsonl.gz", target, digest,
                  lambda done, total: seen.append((done, total)))
    assert target.is_file() and seen and seen[-1][0] == seen[-1][1] == target.stat().st_size
    other = tmp_path / "other.jsonl.gz"
    with pytest.raises(EvalplusError, match="digest"):
        mbpp.download(f"{server}/MbppPlus.jsonl.gz", other, "0" * 64, None)
    assert not other.exists()
    with pytest.raises(EvalplusError, match="cannot download"):
        mbpp.download(f"{server}/missing.gz", other, digest, None)


def test_the_pinned_digest_leaves_plus_inputs_out() -> None:
    without = [{k: v for k, v in r.items() if k != "plus_input"} for r in MBPP_TASKS]
    assert mbpp.tasks_digest(MBPP_TASKS) == mbpp.tasks_digest(without)


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    from evalplus_ng.judge import JUDGE

    with Sandbox(1, judge=JUDGE) as box:
        yield box


def test_a_not_none_task_judges_the_truth_of_the_output(sandbox: Sandbox) -> None:
    reference = "import re\ndef f(s):\n    return re.search('^a', s)\n"
    truth = sandbox.run(Job(reference, "f", [encode(["abc"]), encode(["xyz"])], [5.0, 5.0],
                            oracle="not_none"))
    assert [o.value for o in truth.outcomes] == [True, False]  # a re.Match is not data
    expected = [o.value for o in truth.outcomes]
    for code, passed in [(reference, (True, True)),
                         ("def f(s):\n    return s.startswith('a')\n", (True, True)),
                         ("def f(s):\n    return s\n", (True, False)),
                         ("def f(s):\n    return None\n", (False, True))]:
        job = Job(code, "f", [encode(["abc"]), encode(["xyz"])], [5.0, 5.0], expected=expected,
                  oracle="not_none", fail_fast=False)
        assert sandbox.run(job).passed == passed, code


def test_a_set_task_accepts_any_order_but_not_other_members(sandbox: Sandbox) -> None:
    expected = [encode((4, 5))]
    for code, passed in [("def f():\n    return [5, 4]\n", (True,)),
                         ("def f():\n    return (4, 5, 5)\n", (True,)),
                         ("def f():\n    return (4,)\n", (False,)),
                         ("def f():\n    return '45'\n", (False,))]:
        job = Job(code, "f", [encode([])], [5.0], expected=expected, oracle="set")
        assert sandbox.run(job).passed == passed, code


TASKS_FILE: list[dict[str, Any]] = [
    {"task_id": "toy/add", "prompt": "def add(a: int, b: int) -> int:\n    \"\"\"Sum.\"\"\"\n",
     "entry_point": "add", "canonical_solution": "    return a + b\n",
     "tests": ["assert add(1, 2) == 3", "assert add(-1, 1) == 0"]},
    {"task_id": "toy/rev", "prompt": '"""Reverse a tuple."""\n', "entry_point": "rev",
     "canonical_solution": "def rev(t):\n    return t[::-1]\n",
     "tests": "assert rev((1, 2, 3)) == (3, 2, 1)\nassert rev((4, 5, 6, 7)) == (7, 6, 5, 4)"},
]


def test_a_tasks_file_gives_tasks_with_inputs_from_its_asserts(tmp_path: Path) -> None:
    path = tmp_path / "toy.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in TASKS_FILE))
    tasks = resolve(str(path)).load()
    assert [t.task_id for t in tasks] == ["toy/add", "toy/rev"]
    assert tasks[0].base_inputs == ([1, 2], [-1, 1])
    assert tasks[1].base_inputs == ([(1, 2, 3)], [(4, 5, 6, 7)])


@pytest.mark.parametrize(("record", "problem"), [
    ({"task_id": "x", "prompt": "p", "entry_point": "f"}, "missing field(s): canonical_solution"),
    ({**TASKS_FILE[0], "tests": []}, "no assert calling add"),
    ({**TASKS_FILE[0], "tests": ["assert add(1,"]}, "'tests' is not Python"),
    ({**TASKS_FILE[0], "oracle": "fuzzy"}, "unknown oracle 'fuzzy'"),
    ({**TASKS_FILE[0], "equality": "loose"}, "unknown equality 'loose'; known: typed, value"),
    ({k: v for k, v in TASKS_FILE[0].items() if k != "tests"}, "needs 'base_input' or 'tests'"),
    ({**TASKS_FILE[0], "entry_point": "plus", "tests": ["assert plus(1, 2) == 3"]},
     "neither the prompt nor the reference defines plus"),
])
def test_a_bad_tasks_file_line_is_named(tmp_path: Path, record: dict[str, object],
                                        problem: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(TASKS_FILE[1]) + "\n" + json.dumps(record) + "\n")
    with pytest.raises(InputError, match=re.escape(f"{path}:2: ") + ".*" + re.escape(problem)):
        resolve(str(path)).load()


def test_an_input_error_raised_in_a_worker_process_reaches_the_parent_whole() -> None:
    # Pickled back from a pool's worker, an InputError rebuilt from its message alone
    # failed in the pool's result thread and left augment waiting forever.
    error = InputError("tasks.jsonl", 3, "neither the prompt nor the reference defines f")
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.path, copy.line, copy.problem, str(copy)) == (
        error.path, error.line, error.problem, str(error))


def test_augment_of_a_task_whose_reference_lacks_its_entry_point_stops_with_one_line(
        tmp_path: Path) -> None:
    path = tmp_path / "toy.jsonl"
    record = {**TASKS_FILE[0], "entry_point": "plus", "tests": ["assert plus(1, 2) == 3"]}
    path.write_text(json.dumps(TASKS_FILE[1]) + "\n" + json.dumps(record) + "\n")
    done = subprocess.run([sys.executable, "-m", "evalplus_ng.cli", "augment", "--dataset",
                           str(path), "--out", str(tmp_path / "out"), "--per-task", "10",
                           "-j", "1"], capture_output=True, text=True, timeout=300,
                          cwd=tmp_path)
    assert done.returncode != 0
    assert done.stderr.strip().splitlines()[-1] == (
        f"error: {path}:2: neither the prompt nor the reference defines plus")
    assert "Traceback" not in done.stderr


def test_an_own_assert_is_read_as_a_test_of_the_call_it_makes() -> None:
    asserts = own_asserts("import math\nassert add(1, 2) == 3\nassert not add(0, 0)\n"
                          "assert math.isclose(add(1.0, 2), 3.0)\n"
                          "assert add(2, 2) == helper(4)\nassert rev([1]) == [1]\n", "add")
    assert [a.text for a in asserts] == ["assert add(1, 2) == 3", "assert not add(0, 0)",
                                         "assert math.isclose(add(1.0, 2), 3.0)",
                                         "assert add(2, 2) == helper(4)"]
    assert [a.fails_on(3) for a in asserts] == [False, True, False, False]
    assert [a.fails_on(0) for a in asserts] == [True, False, True, False]  # helper: unknown


@pytest.mark.parametrize(("test", "answer"), [
    ("assert add(2, 2) == 5", "which returns 4"),
    ("assert add(2, 0) == 2", "which raises ZeroDivisionError"),
])
def test_augment_of_a_task_whose_asserts_contradict_its_reference_stops_with_one_line(
        tmp_path: Path, test: str, answer: str) -> None:
    # The reference's answers became the suite's and the asserts were quietly ignored.
    path = tmp_path / "toy.jsonl"
    record = {**TASKS_FILE[0], "canonical_solution": "    return a + b + 0 // b\n",
              "tests": ["assert add(1, 2) == 3", test]}
    path.write_text(json.dumps(TASKS_FILE[1]) + "\n" + json.dumps(record) + "\n")
    done = CliRunner().invoke(main, ["augment", "--dataset", str(path), "--out",
                                     str(tmp_path / "out"), "--per-task", "10", "-j", "1",
                                     "--no-audit", "--no-reduce", "--no-calibrate"])
    assert done.exit_code == 2, done.output
    line = done.output.strip().splitlines()[-1]
    assert line.startswith(f"error: {path}:2: task toy/add: its test `{test}` fails on the "
                           f"reference, {answer}"), line
    assert not (tmp_path / "out" / "ToyPlus.jsonl.gz").exists()


def test_evaluate_on_a_task_whose_asserts_contradict_its_reference_says_so(
        tmp_path: Path) -> None:
    # The samples are judged by the reference's answers: a line says an assert disagrees.
    path = tmp_path / "toy.jsonl"
    record = {**TASKS_FILE[0], "tests": ["assert add(1, 2) == 3", "assert add(2, 2) == 5"]}
    path.write_text(json.dumps(TASKS_FILE[1]) + "\n" + json.dumps(record) + "\n")
    samples = tmp_path / "samples.jsonl"
    samples.write_text(json.dumps({"task_id": "toy/add", "completion": "    return a + b\n"})
                       + "\n")
    done = CliRunner().invoke(main, ["evaluate", "--dataset", str(path), "--samples",
                                     str(samples), "-j", "1"])
    assert done.exit_code == 0, done.output
    assert (f"warning: {path}:2: task toy/add: its test `assert add(2, 2) == 5` fails on the "
            "reference, which returns 4") in done.stderr
    assert "base: pass@1 100.0" in done.stdout  # judged by the reference, as before
    path.write_text("".join(json.dumps(r) + "\n" for r in TASKS_FILE))
    done = CliRunner().invoke(main, ["evaluate", "--dataset", str(path), "--samples",
                                     str(samples), "-j", "1"])
    assert done.exit_code == 0 and "fails on the reference" not in done.stderr


def test_augment_then_evaluate_an_own_tasks_file_offline(tmp_path: Path) -> None:
    path = tmp_path / "toy.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in TASKS_FILE))
    out = tmp_path / "out"
    runner = CliRunner()
    result = runner.invoke(main, ["augment", "--dataset", str(path), "--out", str(out),
                                  "--per-task", "30", "-j", "2", "--tasks", "toy/rev",
                                  "--no-calibrate"])
    assert result.exit_code == 0, result.output
    suite = load_plus_file(out / "ToyPlus.jsonl.gz")
    assert [t.task_id for t in suite] == ["toy/rev"] and len(suite[0].plus_inputs) >= 20
    assert all(type(args[0]) is tuple for args in suite[0].plus_inputs)
    assert (out / "ToyPlus-Mini.jsonl.gz").is_file()
    samples = tmp_path / "samples.jsonl"
    right = "def rev(t):\n    return tuple(reversed(t))\n"
    short = "def rev(t):\n    return t[::-1] if len(t) < 5 else t\n"  # passes base only
    samples.write_text("".join(json.dumps({"task_id": "toy/rev", "solution": code}) + "\n"
                               for code in (right, short)))
    result = runner.invoke(main, ["evaluate", "--dataset", str(path), "--samples", str(samples),
                                  "--suite", "plus", "--artifacts", str(out), "-j", "2"])
    assert result.exit_code == 0, result.output
    verdicts = json.loads((tmp_path / "samples.evalplus-ng.plus.json").read_text())["eval"][
        "toy/rev"]
    assert [(v["base_status"], v["plus_status"]) for v in verdicts] == [("pass", "pass"),
                                                                        ("pass", "fail")]


def test_augment_mbpp_writes_mbpp_plus_in_its_schema(mbpp_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["augment", "--dataset", "mbpp", "--dataset-file",
                                       str(mbpp_file), "--out", str(out), "--per-task", "20",
                                       "-j", "2", "--no-calibrate", "--no-reduce"])
    assert result.exit_code == 0, result.output
    with gzip.open(out / "MbppPlus.jsonl.gz", "rt") as handle:
        records = [json.loads(line) for line in handle]
    assert [r["task_id"] for r in records] == ["Mbpp/2", "Mbpp/737", "Mbpp/124"]
    assert all("assertion" in r and "test" not in r for r in records)
    assert [99] not in [args[0] for args in records[0]["plus_input"]]
    suite = {t.task_id: t for t in load_plus_file(out / "MbppPlus.jsonl.gz")}
    assert suite["Mbpp/2"].oracle == "set" and len(suite["Mbpp/2"].plus_inputs) >= 10
    assert all(type(a) is tuple and type(b) is tuple for a, b in suite["Mbpp/2"].plus_inputs)


def test_failing_inputs_that_are_not_json_are_written_as_evalplus_writes_them(
        tmp_path: Path) -> None:
    # Mbpp/124-like: a complex argument, and a set one. A sample failing there must still
    # get its results file (the failing inputs in plain JSON: a complex as its text).
    tasks = tmp_path / "cx.jsonl"
    tasks.write_text(json.dumps({
        "task_id": "cx/0", "entry_point": "size", "prompt": "def size(z, s):\n",
        "canonical_solution": "    return abs(z) + len(s)\n",
        "tests": ["assert size(3+4j, {1, 2}) == 7.0", "assert size(1j, set()) == 1.0"]}) + "\n")
    samples = tmp_path / "samples.jsonl"
    samples.write_text(json.dumps({"task_id": "cx/0",
                                   "completion": "    return z.real + len(s)\n"}) + "\n")
    result = CliRunner().invoke(main, ["evaluate", "--dataset", str(tasks), "--samples",
                                       str(samples), "--details", "-j", "1"])
    assert result.exit_code == 0, result.output
    [entry] = json.loads((tmp_path / "samples.evalplus-ng.base.json").read_text())["eval"][
        "cx/0"]
    assert entry["base_status"] == "fail"
    assert entry["base_fail_tests"] == [["(3+4j)", [1, 2]], ["1j", []]]


# ----------------------------------------------------- equality: MBPP's is Python's ==


def test_mbpp_compares_by_value_and_humaneval_and_tasks_files_by_type(
        mbpp_file: Path, tmp_path: Path) -> None:
    assert resolve("mbpp").equality() == "value"
    assert resolve("humaneval").equality() == "typed"
    tasks = resolve("mbpp", tmp_path / "data", mbpp_file).load()
    assert {task.equality for task in tasks} == {"value"}
    assert tasks[0].oracle == "set"  # the special oracles stay
    path = tmp_path / "toy.jsonl"
    path.write_text(json.dumps(TASKS_FILE[0]) + "\n"
                    + json.dumps({**TASKS_FILE[1], "equality": "value"}) + "\n")
    assert [t.equality for t in resolve(str(path)).load()] == ["typed", "value"]
    # a user's dataset.json may change a dataset's equality; a wrong one is named
    (tmp_path / "data").mkdir(exist_ok=True)
    (tmp_path / "data" / "dataset.json").write_text(json.dumps({"equality": "loose"}))
    with pytest.raises(InputError, match=r"mbpp: dataset\.json: unknown equality 'loose'"):
        resolve("mbpp", tmp_path / "data", mbpp_file).load()


def test_a_value_task_passes_what_python_equality_passes_in_the_sandbox(
        sandbox: Sandbox) -> None:
    expected = [encode(6), encode((1, 2)), encode(0.1 + 0.2)]
    inputs = [encode([0]), encode([1]), encode([2])]
    for code, typed, by_value in [
        ("def f(i):\n    return [6, (1, 2), 0.1 + 0.2][i]\n", (True,) * 3, (True,) * 3),
        ("def f(i):\n    return [6.0, (True, 2.0), 0.3][i]\n",
         (False, False, True), (True, True, True)),
        ("def f(i):\n    return [True, [1, 2], 0.31][i]\n", (False,) * 3, (False,) * 3),
        ("def f(i):\n    return [6.5, (1, 2, 3), 0][i]\n", (False,) * 3, (False,) * 3),
    ]:
        for equality, passed in (("typed", typed), ("value", by_value)):
            job = Job(code, "f", inputs, [5.0] * 3, expected=expected, fail_fast=False,
                      equality=equality)
            assert sandbox.run(job).passed == passed, (code, equality)
    # 1 == True, so True passes where 1 is expected; a list never passes for a tuple
    job = Job("def f(i):\n    return [True, [1, 2]][i]\n", "f", inputs[:2], [5.0] * 2,
              expected=[encode(1), encode((1, 2))], fail_fast=False, equality="value")
    assert sandbox.run(job).passed == (True, False)


#: Mbpp/555 as in MBPP+, and a task returning a tuple.
MBPP_NUMBERS = [
    {"task_id": "Mbpp/555", "prompt": '"""\nCubes minus naturals.\n"""\n',
     "entry_point": "difference",
     "canonical_solution": "\ndef difference(n) :  \n    S = (n*(n + 1))//2;  \n"
                           "    res = S*(S-1);  \n    return res;  \n",
     "base_input": [[3], [5], [2]], "atol": 0, "contract": "",
     "assertion": "\nassert difference(3) == 30\nassert difference(5) == 210\n"
                  "assert difference(2) == 6\n",
     "plus_input": [[10], [100], [1000000]]},
    {"task_id": "Mbpp/9000", "prompt": '"""\nA number and the next.\n"""\n',
     "entry_point": "pair", "canonical_solution": "\ndef pair(n):\n    return (n, n + 1)\n",
     "base_input": [[1], [2]], "atol": 0, "contract": "",
     "assertion": "\nassert pair(1) == (1, 2)\nassert pair(2) == (2, 3)\n",
     "plus_input": [[3]]},
]
MBPP_SAMPLES = [
    ("Mbpp/555", "def difference(n):\n    S = n * (n + 1) // 2\n    return S * (S - 1)\n"),
    # float where an int is expected: passes while the float is exact (EvalPlus: ==)
    ("Mbpp/555", "def difference(n):\n    S = (n * (n + 1)) / 2\n    return S * (S - 1)\n"),
    ("Mbpp/555", "def difference(n):\n    return n\n"),
    ("Mbpp/9000", "def pair(n):\n    return (n, n + True)\n"),
    ("Mbpp/9000", "def pair(n):\n    return (float(n), n + 1.0)\n"),
    ("Mbpp/9000", "def pair(n):\n    return [n, n + 1]\n"),  # [1, 2] != (1, 2)
]


def test_the_hint_after_a_base_only_run_names_where_the_tasks_were_read(
        tmp_path: Path, mbpp_file: Path) -> None:
    # It named `augment --dataset mbpp`, which downloads MBPP+ (and fails offline), and
    # `--dataset toy` for a tasks file toy.jsonl (no such dataset).
    samples = tmp_path / "samples.jsonl"
    samples.write_text(json.dumps({"task_id": "Mbpp/2", "solution": MBPP_TASKS[0][
        "canonical_solution"]}) + "\n")
    tasks = tmp_path / "toy.jsonl"
    tasks.write_text("".join(json.dumps(r) + "\n" for r in TASKS_FILE))
    toy = tmp_path / "toy-samples.jsonl"
    toy.write_text(json.dumps({"task_id": "toy/add", "completion": "    return a + b\n"}) + "\n")
    for dataset, answers, hint in [
            (["--dataset", "mbpp", "--dataset-file", str(mbpp_file)], samples,
             f"--dataset mbpp --dataset-file {mbpp_file} --out evalplus-ng-out"),
            (["--dataset", str(tasks)], toy, f"--dataset {tasks} --out evalplus-ng-out")]:
        done = CliRunner().invoke(main, ["evaluate", *dataset, "--samples", str(answers),
                                         "-j", "1"])
        assert done.exit_code == 0, done.output
        assert f"(`evalplus-ng augment {hint}` makes one)" in done.stderr, done.stderr


def test_evaluate_mbpp_judges_by_value_on_base_and_on_a_suite_without_equality(
        tmp_path: Path) -> None:
    source = _gz(tmp_path / "MbppPlus.jsonl.gz", MBPP_NUMBERS)
    # A suite as EvalPlus (or evalplus-ng before equalities) writes it: no field says how
    # outputs compare, so the dataset's equality applies.
    (tmp_path / "suite").mkdir()
    suite = _gz(tmp_path / "suite" / "MbppPlus.jsonl.gz", MBPP_NUMBERS)
    samples = tmp_path / "samples.jsonl"
    samples.write_text("".join(json.dumps({"task_id": t, "solution": code}) + "\n"
                               for t, code in MBPP_SAMPLES))
    verdicts = {}
    for name in ("base", str(suite)):
        result = CliRunner().invoke(main, ["evaluate", "--dataset", "mbpp", "--dataset-file",
                                           str(source), "--samples", str(samples), "--suite",
                                           name, "-j", "2", "--results",
                                           str(tmp_path / "results.json")])
        assert result.exit_code == 0, result.output
        document = json.loads((tmp_path / "results.json").read_text())
        assert document["evalplus_ng"]["equality"] == ["value"]
        verdicts[name] = [(v["base_status"], v["plus_status"]) for task in document["eval"]
                          for v in document["eval"][task]]
    passed, failed = ("pass", "pass"), ("fail", "fail")
    # The base suite has no plus column (None, as `evalplus.evaluate --base_only` writes).
    assert verdicts["base"] == [(base, None) for base in
                                ("pass", "pass", "fail", "pass", "pass", "fail")]
    # 1000000: S * (S - 1) is over 2**53, and the float is no longer the int
    assert verdicts[str(suite)] == [passed, ("pass", "fail"), failed, passed, passed, failed]
