"""The MINI's requirements beyond coverage and mutmut: slips (LLM-style mutants), cost and
input classes, each on real HumanEval tasks."""

from __future__ import annotations

import ast
from dataclasses import replace

from evalplus_ng.classes import classes_of_test, value_classes
from evalplus_ng.cost import LINE_BUDGET, cost_goals, executed_lines
from evalplus_ng.dataset import load_humaneval
from evalplus_ng.groundtruth import Expected, GroundTruth
from evalplus_ng.habits import goals, rewrites
from evalplus_ng.profiles import Profile, select
from evalplus_ng.reduce import class_requirement
from evalplus_ng.serialize import encode
from evalplus_ng.slips import KINDS, slip_sources

TASKS = {task.task_id: task for task in load_humaneval()}


def _run(code: str, entry_point: str, *args: object) -> object:
    namespace: dict[str, object] = {}
    exec(code, namespace)
    function = namespace[entry_point]
    assert callable(function)
    return function(*args)


def test_a_dropped_guard_is_killed_only_by_its_edge_case() -> None:
    task = TASKS["HumanEval/12"]  # longest: `if not strings: return None`
    guards = [m for m in slip_sources(task.solution, ("guard",))]
    assert len(guards) == 1
    mutant = guards[0].code
    assert "if not strings" not in mutant
    # The base input [] is the only one that tells it apart; it then raises.
    assert _run(mutant, "longest", ["x", "yyy", "zzzz"]) == "zzzz"
    try:
        _run(mutant, "longest", [])
    except ValueError:
        pass
    else:
        raise AssertionError("the guard's edge case should break the slip")


def test_bound_and_skip_slips_are_one_off() -> None:
    task = TASKS["HumanEval/55"]  # fib: `for _ in range(n)`
    bounds = slip_sources(task.solution, ("bound",))
    texts = {ast.unparse(ast.parse(m.code).body[-1]) for m in bounds}
    assert any("range(1, n)" in t for t in texts)
    assert any("range(n - 1)" in t for t in texts) and any("range(n + 1)" in t for t in texts)
    outputs = {_run(m.code, "fib", 10) for m in bounds}
    assert 55 not in outputs  # every bound slip is wrong on fib(10)
    # A loop over a sequence skips its first or last element.
    skips = slip_sources(TASKS["HumanEval/0"].solution, ("skip",))
    assert skips and all("[1:]" in m.code or "[:-1]" in m.code for m in skips)


def test_slips_compile_differ_and_are_deterministic() -> None:
    for task_id in ("HumanEval/0", "HumanEval/12", "HumanEval/27", "HumanEval/120"):
        source = TASKS[task_id].solution
        slips = slip_sources(source)
        normal = {ast.dump(ast.parse(m.code)) for m in slips}
        assert len(normal) == len(slips)
        assert ast.dump(ast.parse(source)) not in normal
        assert [m.code for m in slip_sources(source)] == [m.code for m in slips]
        assert [m.number for m in slips] == list(range(len(slips)))
    assert set(KINDS) == {"bound", "skip", "guard", "forget", "strict"}
    forgets = slip_sources(TASKS["HumanEval/27"].solution, ("forget",))  # flip_case
    assert all(m.code != TASKS["HumanEval/27"].solution for m in forgets)


def test_executed_lines_grow_with_the_work_and_are_exact() -> None:
    task = TASKS["HumanEval/55"]
    counts = executed_lines(task.solution, task.entry_point, [(1,), (10,), (60,)])
    # Two statements before and after the loop, two per iteration (header and body);
    # fib(60) is below 2**64, so no big-integer addition is priced on top.
    assert counts[1] - counts[0] == 2 * 9 and counts[2] - counts[1] == 2 * 50
    assert executed_lines(task.solution, task.entry_point, [(10,)]) == [counts[1]]
    # Code that never stops is cut at the budget.
    spin = "def f(x):\n    while True:\n        x += 1\n"
    assert executed_lines(spin, "f", [(0,)]) == [LINE_BUDGET]


def test_the_costliest_test_is_a_goal_only_when_it_outweighs_the_base_tests() -> None:
    lines = {0: 10, 1: 12, 2: 300, 3: 300, 4: 40}
    assert cost_goals(lines, base=[0, 1], factor=4.0) == {2: {"costliest"}, 3: {"costliest"}}
    assert cost_goals(lines, base=[0, 1, 4], factor=8.0) == {}
    assert cost_goals({}, base=[], factor=4.0) == {}


def test_value_classes_name_the_boundaries() -> None:
    assert value_classes(0.5) == {"pos", "fraction", "unit"}
    assert value_classes(-3) == {"neg"} and value_classes(0) == {"zero"}
    assert "big" in value_classes(2**53 + 1) and value_classes(True) == {"true"}
    assert value_classes("Ab") == {"len2", "mixedcase"}
    assert {"nonascii", "palindrome", "short"} <= value_classes("ñañ")
    assert {"short", "repeats", "unordered"} <= value_classes([3, 1, 3])
    assert "ascending" in value_classes([1, 2, 2]) and "descending" in value_classes([2, 1])
    assert {"len1", "item.neg"} <= value_classes([-1])
    assert classes_of_test((0.5,), 0.5) == {"a0:pos", "a0:fraction", "a0:unit",
                                            "out:pos", "out:fraction", "out:unit"}


def test_the_classes_requirement_keeps_the_input_between_zero_and_one() -> None:
    # truncate_number: a sample that returns 0 for numbers below 1 passes every base test
    # (3.5, 1.33, 123.456) and fails on 0.5; only the classes requirement asks for it.
    task = TASKS["HumanEval/2"]
    plus = ((7.25,), (2.5,), (0.5,), (11.0,))
    task = replace(task, plus_inputs=plus)
    everything = (*task.base_inputs, *plus)
    outputs = tuple(encode(args[0] % 1.0) for args in everything)
    n_base = len(task.base_inputs)
    truth = GroundTruth(task.task_id,
                        Expected(outputs[:n_base], (0.0,) * n_base, ("",) * n_base),
                        Expected(outputs[n_base:], (0.0,) * 4, ("",) * 4))
    tests = list(range(len(everything)))
    classes = class_requirement(task, truth, tests)
    half = n_base + 2
    assert "a0:unit" in classes[half]
    assert not any("a0:unit" in classes[t] for t in tests if t != half)
    chosen = select(Profile("classes", ("classes",), keep_base=True),
                    {"classes": {t: set(c) for t, c in classes.items()}}, tests,
                    base=list(range(n_base)))
    assert half in chosen


def test_habit_rewrites_change_one_argument_each() -> None:
    assert rewrites(["Ab c!"]) == [
        ("a0:lower", ["ab c!"]), ("a0:nospace", ["Abc!"]), ("a0:alnum", ["Abc"]),
        ("a0:ascii_alnum", ["Abc"])]
    assert rewrites([[3, -1, 3], 2]) == [("a0:sorted", [[-1, 3, 3], 2]),
                                         ("a0:unique", [[3, -1], 2]),
                                         ("a0:abs", [[3, 1, 3], 2])]
    assert rewrites([-2.5, "x"]) == [("a0:abs", [2.5, "x"])]
    # Nothing where a rewrite changes nothing or does not apply.
    assert rewrites(["abc", [1, 2], True, 3, [[1], [0]]]) == [("a4:sorted", ["abc", [1, 2], True,
                                                                         3, [[0], [1]]])]
    assert goals(["a0:lower", "a0:strip", "a1:abs"], [True, False, None]) == {
        "a0:lower:keeps", "a0:strip:changes"}


def test_the_habits_requirement_keeps_an_input_that_dropping_letters_changes() -> None:
    # is_palindrome: a sample that first drops every character outside [A-Za-z0-9] (a
    # common habit) passes every base test and the ASCII plus inputs, and fails on 'cñ'
    # ('c' is a palindrome, 'cñ' is not); only the habits requirement asks for such a test.
    from evalplus_ng.groundtruth import run_ground_truth
    from evalplus_ng.oracle import JUDGE
    from evalplus_ng.reduce import compute_requirement
    from evalplus_ng.sandbox import Limits, Sandbox

    task = replace(TASKS["HumanEval/48"],
                   plus_inputs=(("abba",), ("ab a",), ("a b a",), ("cñ",), ("Xy",), ("ñaña",)))
    everything = (*task.base_inputs, *task.plus_inputs)
    tests = list(range(len(everything)))
    with Sandbox(1, Limits(), judge=JUDGE) as sandbox:
        truth = run_ground_truth([task], sandbox)[task.task_id]
        document = compute_requirement("habits", task, truth, tests, (), sandbox)
    habits = {int(t): set(g) for t, g in document["goals"].items()}
    changed = {t for t, g in habits.items() if "a0:ascii_alnum:changes" in g}
    assert {everything[t][0] for t in changed} == {"ab a", "cñ", "ñaña"}
    assert "a0:nospace:changes" in habits[everything.index(("ab a",))]
    assert "a0:nospace:keeps" in habits[everything.index(("a b a",))]
    habit = ("import re\n"
             "def is_palindrome(text):\n"
             "    text = re.sub('[^a-zA-Z0-9]', '', text)\n"
             "    return text == text[::-1]\n")
    n_base = len(task.base_inputs)
    chosen = select(Profile("habits", ("habits",), keep_base=True), {"habits": habits}, tests,
                    base=list(range(n_base)))
    reference = task.solution
    assert any(_run(habit, "is_palindrome", *everything[t])
               != _run(reference, "is_palindrome", *everything[t]) for t in chosen)
    assert all(_run(habit, "is_palindrome", *everything[t])
               == _run(reference, "is_palindrome", *everything[t]) for t in range(n_base))
