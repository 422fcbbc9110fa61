"""Bounds inferred from the base inputs: what a plus input may look like."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from evalplus_ng.generate.bounds import (
    EXACT_FLOAT,
    INFERRED_MAGNITUDE_FLOOR,
    LENGTH_FACTOR,
    LENGTH_FLOOR,
    MAGNITUDE_FACTOR,
    MAGNITUDE_FLOOR,
    Beyond,
    beyond,
    infer_bounds,
    length,
    magnitude,
)
from evalplus_ng.oracle.tiers import Why, plain_reference
from evalplus_ng.pipeline.augment import MAX_UNLIKE_SHARE, AugmentConfig, augment_task
from evalplus_ng.records import Task
from evalplus_ng.tasks.registry import resolve


def test_length_and_magnitude_count_nested_values() -> None:
    assert length([[1, 2], "abc", {"k": [3]}]) == 3 + 2 + 3 + 1 + 1 + 1
    assert magnitude([[1, -7.5], {"a": (2, -40)}]) == 40
    assert magnitude([True, "999"]) == 0  # a bool is not a number, a string not either
    assert magnitude([float("nan"), 3]) == 3
    assert magnitude([float("-inf")]) == math.inf
    assert magnitude([2**1024 + 1]) == math.inf
    assert magnitude([3 - 4j]) == 5


def test_lengths_are_bounded_by_a_factor_of_the_longest_base_argument_with_a_floor() -> None:
    # Argument 0: base lists of 3 and 20 elements -> at most 200; argument 1: "ab" -> the floor.
    bounds = infer_bounds([[[1, 2, 3], "ab"], [list(range(20)), "a"]])
    assert bounds.length(0) == LENGTH_FACTOR * 20 and bounds.length(1) == LENGTH_FLOOR
    assert beyond(bounds, [[0] * 200, "x" * LENGTH_FLOOR]) is None
    assert beyond(bounds, [[0] * 201, "x"]) is Beyond.LENGTH
    assert beyond(bounds, [[0], "x" * (LENGTH_FLOOR + 1)]) is Beyond.LENGTH
    # Nested: a list of strings counts its strings' characters too.
    assert beyond(bounds, [["abcdefghij"] * 18, "x"]) is None  # 18 + 180 characters
    assert beyond(bounds, [["abcdefghij"] * 19, "x"]) is Beyond.LENGTH  # 19 + 190


def test_magnitudes_are_bounded_per_argument_with_a_floor() -> None:
    bounds = infer_bounds([[5, [2000, -3000]], [7, [1]]])
    assert bounds.magnitude(0) == MAGNITUDE_FLOOR
    assert bounds.magnitude(1) == MAGNITUDE_FACTOR * 3000
    assert beyond(bounds, [MAGNITUDE_FLOOR, [-MAGNITUDE_FACTOR * 3000]]) is None
    assert beyond(bounds, [-MAGNITUDE_FLOOR - 1, [1]]) is Beyond.MAGNITUDE
    assert beyond(bounds, [1, [1, [MAGNITUDE_FACTOR * 3000 + 1]]]) is Beyond.MAGNITUDE
    assert beyond(bounds, [1.5e5, []]) is Beyond.MAGNITUDE  # floats too
    assert beyond(bounds, [float("inf"), []]) is Beyond.MAGNITUDE
    assert beyond(bounds, [float("nan"), []]) is None
    # An argument past the base inputs' arity gets the floors.
    assert beyond(bounds, [1, [], MAGNITUDE_FLOOR + 1]) is Beyond.MAGNITUDE


def test_integers_past_2_53_and_past_the_float_range_need_a_base_input_that_has_them() -> None:
    small = infer_bounds([[10**14]])  # magnitudes up to 10**16: past 2**53 all the same
    assert beyond(small, [EXACT_FLOAT]) is None
    assert beyond(small, [EXACT_FLOAT + 1]) is Beyond.EXACT_FLOAT
    assert beyond(small, [[-(EXACT_FLOAT + 1)]]) is Beyond.EXACT_FLOAT  # nested, negative
    assert beyond(small, [2**1024 + 1]) is Beyond.FLOAT_RANGE
    # A base input past 2**53 (in any argument) allows them; its magnitude bounds the rest.
    exact = infer_bounds([[2**60, 1]])
    assert beyond(exact, [2**61, 1]) is None
    assert beyond(exact, [2**1024 + 1, 1]) is Beyond.FLOAT_RANGE
    assert beyond(exact, [2**60, 2**54]) is Beyond.MAGNITUDE  # the second argument's floor
    huge = infer_bounds([[2**1030]])
    assert beyond(huge, [-(2**1100)]) is None


def test_a_prompt_that_speaks_of_large_numbers_lifts_the_magnitude_bounds() -> None:
    large = infer_bounds([[3]], 'def f(n):\n    """Works for very large numbers too."""\n')
    assert large.large and beyond(large, [2**1024 + 1]) is None
    for prompt in ('"""the largest number in the list"""', '"""a larger integer"""', ""):
        bounds = infer_bounds([[3]], prompt)
        assert not bounds.large and beyond(bounds, [2**60]) is Beyond.EXACT_FLOAT


def test_no_base_inputs_gives_the_floors() -> None:
    bounds = infer_bounds([])
    assert beyond(bounds, [[0] * LENGTH_FLOOR, MAGNITUDE_FLOOR]) is None
    assert beyond(bounds, [[0] * (LENGTH_FLOOR + 1)]) is Beyond.LENGTH


def test_an_inferred_contract_bounds_magnitudes_with_a_lower_floor() -> None:
    written = infer_bounds([[5, [2000]]])
    inferred = infer_bounds([[5, [2000]]], floor=INFERRED_MAGNITUDE_FLOOR)
    assert written.magnitude(0) == MAGNITUDE_FLOOR
    assert inferred.magnitude(0) == INFERRED_MAGNITUDE_FLOOR
    assert inferred.magnitude(1) == written.magnitude(1) == MAGNITUDE_FACTOR * 2000
    assert inferred.magnitude(2) == INFERRED_MAGNITUDE_FLOOR  # past the base arity
    assert beyond(inferred, [INFERRED_MAGNITUDE_FLOOR, [1]]) is None
    assert beyond(inferred, [INFERRED_MAGNITUDE_FLOOR + 1, [1]]) is Beyond.MAGNITUDE
    assert beyond(written, [INFERRED_MAGNITUDE_FLOOR + 1, [1]]) is None


@pytest.mark.parametrize("written", [False, True])
def test_augment_uses_the_lower_floor_only_where_no_contract_is_written(
        tmp_path: Path, written: bool) -> None:
    # count_to(n): a loop to n. Base n are tiny, so the floor decides how far plus goes.
    prompt = 'def count_to(n: int):\n    """How many numbers from 1 to n are odd."""\n'
    task = Task("T/3", prompt, "count_to",
                prompt + "    return sum(1 for k in range(1, n + 1) if k % 2)\n",
                ([3], [7], [10]))
    if written:
        (tmp_path / "contracts").mkdir()
        (tmp_path / "contracts" / "T_3.py").write_text(
            "def pre(n: int) -> bool:\n    return True\n")
    dataset = resolve("humaneval", tmp_path)
    config = AugmentConfig(per_task=80, hypothesis_examples=20)
    suites = augment_task(task, config, plain_reference(task, {}, set()), dataset)
    largest = max(abs(n) for [n] in suites.plus)
    assert largest <= (MAGNITUDE_FLOOR if written else INFERRED_MAGNITUDE_FLOOR)
    if written:  # the fuzzer's thousands and ten-thousands stay in plus
        assert largest > INFERRED_MAGNITUDE_FLOOR
    else:
        assert suites.report.tiers[Why.MAGNITUDE.value] > 0


def test_a_real_task_keeps_big_integers_out_of_plus(tmp_path: Path) -> None:
    # HumanEval/53 add(x, y): the base inputs are integers below 1000, so the fuzzer's
    # 2**53 + 1, 2**63 (and its millions) leave plus, each counted with its reason, and
    # every plus input is like the base inputs.
    dataset = resolve("humaneval", tmp_path)
    task = next(t for t in dataset.load() if t.task_id == "HumanEval/53")
    config = AugmentConfig(per_task=60, hypothesis_examples=20)
    suites = augment_task(task, config, plain_reference(task, {}, set()), dataset)
    plus, stress, report = suites.plus, suites.stress, suites.report
    bounds = infer_bounds(task.base_inputs, task.prompt)
    assert len(plus) == 60 and all(beyond(bounds, args) is None for args in plus)
    assert all(abs(n) <= MAGNITUDE_FLOOR for args in plus for n in args)
    moved = {Why.EXACT_FLOAT.value, Why.MAGNITUDE.value}
    assert moved <= set(report.tiers)
    moved |= {Why.FLOAT_RANGE.value} & set(report.tiers)
    # Only a tenth of per_task unlike inputs are judged (the rest are counted, unjudged):
    # the stress tier keeps those and the scaled-up inputs.
    cap = int(config.per_task * MAX_UNLIKE_SHARE)
    assert sum(report.tiers[reason] for reason in moved) > cap
    assert len(stress) == report.tiers[Why.SCALED_UP.value] + cap
    assert any(abs(n) > EXACT_FLOAT for args in stress for n in args)
