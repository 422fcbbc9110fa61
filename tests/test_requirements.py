"""Reduction requirements: branch arcs, mutants (mutmut pinned), kill rows through the sandbox."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from importlib.metadata import version

import pytest

from evalplus_ng.judge import JUDGE
from evalplus_ng.oracle.groundtruth import run_ground_truth
from evalplus_ng.records import Sample, Task
from evalplus_ng.reduce.cover import branch_arcs, branch_lines
from evalplus_ng.reduce.kills import KillConfig, KillRow, fails_any, kill_rows, suite_tests
from evalplus_ng.reduce.mutants import mutant_sources
from evalplus_ng.reduce.sample_kills import candidates, invert, kill_matrix
from evalplus_ng.sandbox import Limits, Sandbox
from evalplus_ng.tasks.samples import model_of

LOOP = '''def f(x):
    total = 0
    for i in range(x):
        if i % 2:
            total += i
        elif i > 5:
            total -= 1
    return total
'''


def test_branch_arcs_per_input() -> None:
    assert branch_lines(LOOP) == {3, 4, 6}
    arcs = branch_arcs(LOOP, "f", [[0], [1], [3], [8], [3]])
    assert arcs[0] == {(3, 8)}
    assert arcs[1] == {(3, 4), (3, 8), (4, 6), (6, 3)}
    assert arcs[2] == {(3, 4), (3, 8), (4, 5), (4, 6), (6, 3)}
    assert (6, 7) in arcs[3] and (6, 7) not in arcs[2]
    assert arcs[4] == arcs[2]  # contexts do not leak between inputs


def test_branch_arcs_count_what_ran_before_a_raise_and_copy_arguments() -> None:
    code = "def f(xs):\n    if xs:\n        xs.append(1)\n        raise ValueError\n    return 0\n"
    args = [[5]]
    arcs = branch_arcs(code, "f", [args, [[]]])
    assert arcs == [frozenset({(2, 3)}), frozenset({(2, 5)})]
    assert args == [[5]]  # the caller's input was not mutated


def test_mutmut_is_the_pinned_version() -> None:
    # mutant_sources drives mutmut internals whose layout moves between 3.x releases.
    assert version("mutmut") == "3.8.1"


def test_mutants_of_a_small_function() -> None:
    source = "def f(x, y):\n    if x < y:\n        return x + 1\n    return 'a'\n"
    mutants = mutant_sources(source)
    bodies = {m.code.split("\n", 1)[1] for m in mutants}
    assert "    if x <= y:\n        return x + 1\n    return 'a'\n" in bodies
    assert "    if x < y:\n        return x - 1\n    return 'a'\n" in bodies
    assert "    if x < y:\n        return x + 2\n    return 'a'\n" in bodies
    assert "    if x < y:\n        return x + 1\n    return 'XXaXX'\n" in bodies
    assert all(m.code != source for m in mutants)
    assert len({m.code for m in mutants}) == len(mutants)
    assert [m.number for m in mutants] == list(range(len(mutants)))
    assert {m.line for m in mutants} == {2, 3, 4}
    assert mutant_sources(source) == mutants  # deterministic


def test_no_mutants_outside_functions_or_under_pragma() -> None:
    source = "LIMIT = 3\n\n\ndef f(x):\n    return x + LIMIT  # pragma: no mutate\n"
    assert mutant_sources(source) == []


# --------------------------------------------------------------------------- kill rows

TASK = Task(
    task_id="Toy/0",
    prompt="def inc(x):\n",
    entry_point="inc",
    solution="def inc(x):\n    return x + 1\n",
    base_inputs=([1], [2]),
    plus_inputs=([3], [-4], [5]),
)


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    with Sandbox(2, Limits(load_seconds=5.0), judge=JUDGE) as box:
        yield box


FAST = KillConfig(floor_seconds=0.2, factor=4.0, max_timeouts=1)


def test_kill_rows_mark_killing_tests(sandbox: Sandbox) -> None:
    truth = run_ground_truth([TASK], sandbox)[TASK.task_id]
    assert suite_tests(TASK, truth) == [0, 1, 2, 3, 4]
    codes = [
        TASK.solution,  # survives
        "def inc(x):\n    return x + 1 if x > 0 else x\n",  # wrong on -4 only (test 3)
        "def inc(x):\n    return abs(x) + 1\n",  # the same, differently
        "def inc(x):\n    raise ValueError\n",  # fails everything
        "syntax error(\n",  # does not load: every test kills it
        "def inc(x):\n    while x == 3:\n        pass\n    return x + (x != 5)\n",  # loops on 3
    ]
    rows = kill_rows(TASK, truth, codes, sandbox, FAST)
    assert rows[0] == KillRow(frozenset())
    assert rows[1] == rows[2] == KillRow(frozenset({3}))
    assert rows[3] == rows[4] == KillRow(frozenset({0, 1, 2, 3, 4}))
    # Times out on test 2 (confirmed by a second run), then stops: 3 and 4 never ran.
    assert rows[5] == KillRow(frozenset({2}), frozenset({3, 4}))
    assert not rows[0].killed and rows[5].killed
    assert invert(rows) == {0: {3, 4}, 1: {3, 4}, 2: {3, 4, 5}, 3: {1, 2, 3, 4}, 4: {3, 4}}
    capped = kill_rows(TASK, truth, codes[3:4], sandbox, replace(FAST, max_failures=2))
    assert capped == [KillRow(frozenset({0, 1, 2, 3}), frozenset({4}))]  # 2 per job (base, plus)
    # A row's unknown tests are judged by running them.
    assert fails_any(TASK, truth, codes[5], [4], sandbox, FAST)
    assert not fails_any(TASK, truth, codes[1], [0, 4], sandbox, FAST)


def test_sample_kills_leave_one_model_out() -> None:
    assert model_of("TheBloke_guanaco-7B-GPTQ_ALPACA_MEDIUM.jsonl") == "TheBloke_guanaco-7B-GPTQ"
    assert model_of("h2oai_h2ogpt-falcon-7b-v2_H2O_h2o.jsonl") == "h2oai_h2ogpt-falcon-7b-v2"
    found = [
        ("u_a_T1.jsonl", Sample("Toy/0", "bad", 1)),
        ("u_a_T2.jsonl", Sample("Toy/0", "bad", 1)),
        ("u_b_T1.jsonl", Sample("Toy/0", "bad", 1)),
        ("u_b_T1.jsonl", Sample("Toy/1", "other", 2)),
        ("u_a_T1.jsonl", Sample("Toy/0", "worse", 2)),
    ]
    table, answers = candidates(found)
    assert [c.code for c in table["Toy/0"]] == ["bad", "worse"]
    assert table["Toy/0"][0].models == {"u_a", "u_b"}
    assert [a.candidate for a in answers] == [0, 0, 0, 0, 1]
    rows = [KillRow(frozenset({1, 2})), KillRow(frozenset({3}))]
    authors = [c.models for c in table["Toy/0"]]
    assert kill_matrix(rows, authors) == {1: {0}, 2: {0}, 3: {1}}
    # "bad" was written by b too, so it still counts when a is judged; "worse" does not.
    assert kill_matrix(rows, authors, held_out="u_a") == {1: {0}, 2: {0}}
    assert kill_matrix(rows, authors, held_out="u_b") == {1: {0}, 2: {0}, 3: {1}}
