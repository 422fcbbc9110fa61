"""The MINI's requirements beyond coverage and mutmut: slips (LLM-style mutants), cost and
input classes, each on real HumanEval tasks."""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from evalplus_ng.generate.classes import classes_of_test, value_classes
from evalplus_ng.oracle.groundtruth import Expected, GroundTruth
from evalplus_ng.records import Task
from evalplus_ng.reduce.cost import LINE_BUDGET, cost_goals, executed_lines
from evalplus_ng.reduce.habits import goals, rewrites
from evalplus_ng.reduce.profiles import Profile, select
from evalplus_ng.reduce.requirements import class_requirement
from evalplus_ng.reduce.slips import FUNCTION_KINDS, KINDS, slip_sources
from evalplus_ng.serialize import encode
from evalplus_ng.tasks.registry import load_humaneval

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
    assert set(FUNCTION_KINDS) == {"bound", "skip", "guard", "forget", "strict"}
    assert set(KINDS) == {*FUNCTION_KINDS, "operator", "constant"}
    forgets = slip_sources(TASKS["HumanEval/27"].solution, ("forget",))  # flip_case
    assert all(m.code != TASKS["HumanEval/27"].solution for m in forgets)


_PROGRAM = """import sys
sys.setrecursionlimit(10 ** 6)
n, k = map(int, input().split())
def solve(a, b):
    return a * b + 1
print(solve(n, k) % 7 if n > k and k != 0 else 0)
"""


def test_a_programs_slips_mutate_its_module_level_code_but_not_its_stack_size() -> None:
    # A function's slips stay in its functions: the last line is setup to them.
    assert all("print(solve(n, k) % 7 if n > k" in m.code for m in slip_sources(_PROGRAM))
    operators = [ast.unparse(ast.parse(m.code))
                 for m in slip_sources(_PROGRAM, ("operator",), module=True)]
    for changed in ("a // b + 1", "a * b - 1", "if n < k", "k == 0", "n > k or k != 0"):
        assert any(changed in code for code in operators), changed
    constants = [ast.unparse(ast.parse(m.code))
                 for m in slip_sources(_PROGRAM, ("constant",), module=True)]
    assert any("% 8" in code for code in constants) and any("% 6" in code for code in constants)
    assert any("else 1" in code for code in constants)
    assert all("setrecursionlimit(10 ** 6)" in code for code in constants + operators)
    every = slip_sources(_PROGRAM, tuple(KINDS), module=True)
    assert len({m.code for m in every}) == len(every)
    assert [m.line for m in every] == sorted(m.line for m in every)


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
    assert {"nonascii", "palindrome.odd", "short"} <= value_classes("ñañ")
    assert "palindrome.even" in value_classes("abba") and not any(
        c.startswith("palindrome") for c in value_classes("ab") | value_classes("a"))
    assert {"short", "repeats", "unordered"} <= value_classes([3, 1, 3])
    assert "ascending" in value_classes([1, 2, 2]) and "descending" in value_classes([2, 1])
    assert {"len1", "item.neg"} <= value_classes([-1])
    assert classes_of_test((0.5,), 0.5) == {"a0:pos", "a0:fraction", "a0:unit",
                                            "out:pos", "out:fraction", "out:unit"}


def _classes(task: Task, plus: tuple[tuple[Any, ...], ...], answer: Callable[[Any], Any],
             ) -> tuple[Task, tuple[tuple[Any, ...], ...], dict[int, frozenset[str]]]:
    """``task`` with ``plus`` as its plus inputs, its tests, and the classes of each
    (expected outputs from ``answer`` on the one argument)."""
    task = replace(task, plus_inputs=plus)
    everything = (*task.base_inputs, *plus)
    outputs = tuple(encode(answer(args[0])) for args in everything)
    n_base, n_plus = len(task.base_inputs), len(plus)
    truth = GroundTruth(task.task_id,
                        Expected(outputs[:n_base], (0.0,) * n_base, ("",) * n_base),
                        Expected(outputs[n_base:], (0.0,) * n_plus, ("",) * n_plus))
    return task, everything, class_requirement(task, truth, range(len(everything)))


def test_the_classes_requirement_keeps_the_input_between_zero_and_one() -> None:
    # truncate_number: a sample that returns 0 for numbers below 1 passes every base test
    # (3.5, 1.33, 123.456) and fails on 0.5; only the classes requirement asks for it.
    task, everything, classes = _classes(TASKS["HumanEval/2"],
                                         ((7.25,), (2.5,), (0.5,), (11.0,)),
                                         lambda x: x % 1.0)
    n_base = len(task.base_inputs)
    tests = list(range(len(everything)))
    half = n_base + 2
    assert "a0:unit" in classes[half]
    assert not any("a0:unit" in classes[t] for t in tests if t != half)
    chosen = select(Profile("classes", ("classes",), keep_base=True),
                    {"classes": {t: set(c) for t, c in classes.items()}}, tests,
                    base=list(range(n_base)))
    assert half in chosen


def test_the_classes_requirement_keeps_an_even_length_palindrome() -> None:
    # is_palindrome: a two-pointer sample that ends with `left == right` (true only when
    # the pointers meet on a middle letter) passes every base test, whose palindromes
    # all have odd length ('aba', 'aaaaa', 'xywyx'), and fails on 'abba'.
    task, everything, classes = _classes(TASKS["HumanEval/48"],
                                         (("abcd",), ("abba",), ("ab",), ("abcba",)),
                                         lambda text: text == text[::-1])
    n_base = len(task.base_inputs)
    tests = list(range(len(everything)))
    chosen = select(Profile("classes", ("classes",), keep_base=True),
                    {"classes": {t: set(c) for t, c in classes.items()}}, tests,
                    base=list(range(n_base)))
    sample = ("def is_palindrome(text):\n"
              "    if not text:\n"
              "        return True\n"
              "    left, right = 0, len(text) - 1\n"
              "    while left < right:\n"
              "        if text[left] != text[right]:\n"
              "            break\n"
              "        left += 1\n"
              "        right -= 1\n"
              "    return left == right\n")
    assert all(_run(sample, "is_palindrome", *everything[t]) == (everything[t][0]
               == everything[t][0][::-1]) for t in range(n_base))
    assert everything.index(("abba",)) in chosen
    assert any(_run(sample, "is_palindrome", *everything[t]) != (everything[t][0]
               == everything[t][0][::-1]) for t in chosen)


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
    from evalplus_ng.judge import JUDGE
    from evalplus_ng.oracle.groundtruth import run_ground_truth
    from evalplus_ng.reduce.requirements import compute_requirement
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


def test_value_classes_of_intermediate_values() -> None:
    from evalplus_ng.reduce.values import value_class

    assert [value_class(v) for v in (True, False, -2, 0, 0.5, None, "", [1], (1, 2), {})] == [
        "true", "false", "neg", "zero", "pos", "none", "empty", "one", "many", "empty"]
    assert value_class(object()) is None and value_class(float("nan")) == "nan"
    assert value_class(float("-inf")) == "neg" and value_class(range(0)) == "empty"


def test_recording_values_leaves_the_ground_truth_s_answers_unchanged() -> None:
    # Every HumanEval ground truth, instrumented, answers its base inputs as written.
    from evalplus_ng.reduce.values import RECORD, instrument

    for task in TASKS.values():
        plain: dict[str, object] = {}
        exec(task.solution, plain)
        recorded: dict[str, object] = {RECORD: lambda _site, value: value}
        exec(compile(instrument(task.solution), "<t>", "exec"), recorded)
        for args in task.base_inputs:
            want = _run_or_error(plain[task.entry_point], args)
            assert _run_or_error(recorded[task.entry_point], args) == want, task.task_id


def _run_or_error(function: object, args: tuple[object, ...]) -> object:
    import copy

    assert callable(function)
    try:
        return function(*copy.deepcopy(list(args)))
    except Exception as exc:  # the same error either way
        return type(exc).__name__


def test_the_values_requirement_keeps_a_zero_sum_that_shows_the_bug() -> None:
    # sort_array: descending when array[0] + array[-1] is even. A sample that returns
    # the array untouched when that sum is zero passes every base test; branch coverage
    # sees one arc (the whole answer is one expression). The values requirement asks
    # for a test where the sum is zero; [0] and [0, 31, 0] both meet it, and the cover
    # (values with the input classes, as offline's) keeps the one meeting the most
    # goals in all: [0, 31, 0] (unordered, repeated items), not the smaller [0].
    from evalplus_ng.reduce.requirements import compute_requirement

    task = replace(TASKS["HumanEval/88"],
                   plus_inputs=(([0],), ([0, 31, 0],), ([1, 1, 0, 2**60],), ([4, 1, 9],),
                                ([7, 2],)))
    everything = (*task.base_inputs, *task.plus_inputs)
    tests = list(range(len(everything)))
    document = compute_requirement("values", task, None, tests)
    values = {int(t): set(g) for t, g in document["goals"].items()}
    zero_sum = [everything[t] for t, g in values.items() if "17:62:zero" in g]
    assert zero_sum == [([0],), ([0, 31, 0],)]  # (array[0] + array[-1]) at line 17, col 62
    classes = {t: set(classes_of_test(everything[t], _run(task.solution, "sort_array",
                                                            *everything[t])))
               for t in tests}
    sample = ("def sort_array(array):\n"
              "    if not array:\n"
              "        return []\n"
              "    if array[0] + array[-1] == 0:\n"
              "        return array\n"
              "    return sorted(array, reverse=(array[0] + array[-1]) % 2 == 0)\n")
    n_base = len(task.base_inputs)
    assert all(_run(sample, "sort_array", *everything[t])
               == _run(task.solution, "sort_array", *everything[t]) for t in range(n_base))
    order = sorted(tests, key=lambda t: (len(repr(everything[t])), t))  # smaller first
    # The classes alone ask for repeated items and an item past 2**53, and one test
    # shows both: no zero sum.
    by_classes = select(Profile("classes", ("classes",), keep_base=True),
                        {"classes": classes}, order, base=list(range(n_base)))
    assert [everything[t] for t in by_classes[n_base:]] == [([1, 1, 0, 2**60],)]
    chosen = select(Profile("values", ("values", "classes"), keep_base=True),
                    {"values": values, "classes": classes}, order, base=list(range(n_base)))
    assert ([0, 31, 0],) in [everything[t] for t in chosen]
    assert ([0],) not in [everything[t] for t in chosen]
    assert any(_run(sample, "sort_array", *everything[t])
               != _run(task.solution, "sort_array", *everything[t]) for t in chosen)


def test_the_values_budget_stops_a_long_run_with_what_it_recorded() -> None:
    from evalplus_ng.reduce import values

    source = ("def f(n):\n"
              "    total = 0\n"
              "    for i in range(n):\n"
              "        total = total + i\n"
              "    return total > 10\n")
    small, = values.value_goals(source, "f", [(6,)])
    assert {g.split(":")[-1] for g in small} == {"true", "pos", "zero", "many"}
    original = values.RECORD_BUDGET
    values.RECORD_BUDGET = 100
    try:
        long_run, = values.value_goals(source, "f", [(10**9,)])
    finally:
        values.RECORD_BUDGET = original
    # Stopped inside the loop: the sums were recorded, the final comparison never ran.
    assert "4:16:pos" in long_run
    assert not any(g.startswith("5:11:") for g in long_run)


#: A small task whose ground truth has slips, and two samples' codes.
_KEYED = Task("Fix/1", "", "clip",
              "def clip(xs, n):\n    out = []\n    for x in xs[:n]:\n        if x < 0:\n"
              "            return None\n        out.append(abs(x))\n    return sorted(out)\n",
              base_inputs=(([1, -2, 3], 2), ([], 0)), plus_inputs=(([5, 4], 1), ([0.5, "é"], 3)))
_KEYED_CODES = ("def clip(xs, n):\n    return xs\n", "def clip(xs, n):\n    return []\n")


def test_the_cache_keys_are_those_an_older_cache_was_written_with() -> None:
    # Computed once by the if-chain the registry replaced (commit 272008e): a cache it
    # wrote must still be read. A change here redoes every cached requirement of the kind.
    from evalplus_ng.reduce.requirements import KINDS, requirement_key

    pinned = {
        "coverage": "8066cd18d01800a2a111a2b1a7b9e448e06fa3f059f8e6d1b2ed760e86cd708a",
        "cost": "b7fb56306eb9069c337dbaa3a26e59e295ddc6de592f4a51e29977e534453cef",
        "values": "239d179034b18a9c87dd95ffa8683b67ae13c8227aa291d6c0df899abfe4e9b8",
        "mutants": "cbbf7cb808904e88bc8fede3560e581014cf6dd5f852e94b28073582888d9d90",
        "slips": "ebd6e0feb1d0e3d8d94b6cdcea550c0bed395898afadd19534ac8c6ac3472815",
        "habits": "98d0aca64b5bc26c35db25a0dfd4cfc82ff85b779ca0185aad5d5a25c41b55f2",
        "samples": "292cd501db4962293a7403297b50a38f251bfc9765b2704a1b5c98ab8ea9624d",
    }
    assert slip_sources(_KEYED.solution)  # the slips' code is in their key
    cached = {name for name, kind in KINDS.items() if kind.cached}
    assert cached == set(pinned)
    assert {kind: requirement_key(kind, _KEYED, [3, 0, 1], _KEYED_CODES)
            for kind in pinned} == pinned


def test_every_kind_reads_a_document_some_kind_computes() -> None:
    from evalplus_ng.reduce.profiles import REQUIREMENTS, SAMPLE_KINDS
    from evalplus_ng.reduce.requirements import KINDS, documents_for

    # The order profiles' errors list them in; the kinds made from samples.
    assert REQUIREMENTS == ("coverage", "mutants", "samples", "cost", "slips", "classes",
                            "faults", "habits", "values")
    assert {"samples", "faults"} == SAMPLE_KINDS
    for name, kind in KINDS.items():
        assert kind.name == name and KINDS[kind.document].compute is not None
        assert not kind.sandboxed or kind.cached  # code runs once per suite, then is read
    # The faults read the samples' document; without samples neither is computed.
    assert documents_for({"faults", "cost"}, samples=True) == ["samples", "cost"]
    assert documents_for({"faults", "cost"}, samples=False) == ["cost"]


def test_an_in_process_document_reads_the_same_after_the_cache_s_json() -> None:
    import json

    from evalplus_ng.reduce.requirements import KINDS, compute_requirement

    task = replace(_KEYED, plus_inputs=(([5, 4], 1), (list(range(40)), 40)))
    tests = [0, 1, 2, 3]
    everything = (*task.base_inputs, *task.plus_inputs)
    outputs = [encode(_run(task.solution, "clip", *args)) for args in everything]
    truth = GroundTruth(task.task_id, Expected(outputs[:2], (0.0,) * 2, ("",) * 2),
                        Expected(outputs[2:], (0.0,) * 2, ("",) * 2))
    for name, kind in KINDS.items():
        if kind.sandboxed or kind.compute is None:
            continue
        document = compute_requirement(name, task, truth, tests)
        fresh = kind.read(document, frozenset({0, 1}))
        assert fresh == kind.read(json.loads(json.dumps(document)), frozenset({0, 1})), name
        assert fresh.masks()[1] > 0, name  # each finds some goal on these tests


def test_the_seconds_each_kind_took_are_named_for_a_reader_in_registry_order() -> None:
    from pathlib import Path

    from evalplus_ng.pipeline.minimize import ReduceSummary

    summary = ReduceSummary(Path("m"), Path("r"), {}, {}, seconds={
        "slips": 2.5, "coverage": 1.0, "mutants": 0.0, "values": 0.3, "this_run": 9.0})
    # Every kind that took time, the registry's order, "this_run" apart, none by hand.
    assert summary.spent_per_kind == [("coverage", 1.0), ("slip kills", 2.5), ("values", 0.3)]
