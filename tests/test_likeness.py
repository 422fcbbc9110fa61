"""Inputs like the base tests, and edges: inference from base tests and prompts, and
the tier each input then goes to."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from evalplus_ng.generate.likeness import (
    Likeness,
    Unlike,
    alphabet,
    answer_classes,
    infer_likeness,
    shape,
    unlike,
)


def test_answer_classes() -> None:
    assert answer_classes(None) == {"none"}
    assert answer_classes(True) == {"type:bool"}  # False is no edge of True
    assert answer_classes(0) == {"type:int", "zero"}
    assert answer_classes(-2.5) == {"type:float", "negative"}
    assert answer_classes(float("nan")) == {"type:float", "nonfinite"}
    assert answer_classes("") == {"type:str", "empty"}
    assert answer_classes(()) == {"type:tuple", "empty"}
    assert answer_classes([0]) == {"type:list"}


def test_shape_and_alphabet() -> None:
    assert shape("2026-01-02") == "9-9-9"
    assert shape("192.168.0.1") == "9.9.9.9"
    assert shape("(1, 22)") == "(9, 9)"
    assert shape("ab  cd") == "a a"
    assert shape("Éa9") == "a9"
    assert shape("2026-01-02", lengths=True) == "9{4}-9{2}-9{2}"
    assert shape("(1, 22)", lengths=True) == "(9, 9{2})"
    assert alphabet("a1 -") == {"letter", "digit", "space", "symbol"}
    assert alphabet("") == frozenset()


def _likeness(prompt: str, inputs: list[tuple[object, ...]], outputs: list[object]) -> Likeness:
    return infer_likeness(prompt, inputs, outputs)


def test_an_answer_of_a_class_no_base_answer_has_is_an_edge() -> None:
    # "Find the first adverb": every base sentence has one; None where none is an edge.
    adverbs = _likeness("Find the first adverb and its position.",
                        [("clearly we can see",), ("seriously!! there",)],
                        [(0, 7, "clearly"), (0, 9, "seriously")])
    assert unlike(adverbs, ("we can see",), None) is Unlike.OUTPUT
    assert unlike(adverbs, ("we see clearly",), (7, 14, "clearly")) is None
    # The other type of number, an empty list, zero and a negative number likewise.
    counts = _likeness("Count the pairs.", [([1, 2],), ([3, 4, 5],)], [1, 3])
    assert unlike(counts, ([1],), 0) is Unlike.OUTPUT
    assert unlike(counts, ([1],), -1) is Unlike.OUTPUT
    assert unlike(counts, ([1],), 1.5) is Unlike.OUTPUT
    assert unlike(counts, ([1, 1],), 2) is None
    # A prompt that mentions the class makes it no edge.
    mentioned = _likeness("Return None if there is no adverb.", [("clearly",)], [(0, 7)])
    assert unlike(mentioned, ("we",), None) is None
    # Booleans: every base answer True does not make False an edge.
    checks = _likeness("Check the list.", [([1],), ([2],)], [True, True])
    assert unlike(checks, ([3],), False) is None


def test_an_empty_item_and_a_reversed_range_are_edges() -> None:
    nested = _likeness("Remove the uneven elements in the nested mixed tuple.",
                       [((4, 5, (7, 6, (2, 4)), 6, 8),), ((5, 6, (8, 7)),)],
                       [(4, (6, (2, 4)), 6, 8), (6, (8,))])
    assert answer_classes(((), 1)) == {"type:tuple", "empty-item"}
    assert unlike(nested, (((3,), 1),), ((),)) is Unlike.OUTPUT
    assert unlike(nested, (((4,), 1),), ((4,),)) is None
    squares = _likeness("Find perfect squares between two given numbers.",
                        [(1, 30), (50, 100), (100, 200)], [[1, 4], [64, 81], [100, 121]])
    assert squares.ordered == ((0, 1),)
    assert unlike(squares, (2, 1), [1]) is Unlike.ORDER
    assert unlike(squares, (1, 2), [1]) is None
    # Without a range in the prompt, numbers in one order are data, not bounds.
    assert _likeness("Find the minimum of two numbers.", [(1, 2), (5, 7)], [1, 5]).ordered == ()


def test_spacing_case_alphabet_and_shape_no_base_string_shows_are_edges() -> None:
    words = _likeness("Remove the first and last occurrence of a given character.",
                      [("hello", "l"), ("abcda", "a"), ("PHP", "P")],
                      ["heo", "bcd", "H"])
    assert unlike(words, ("ab", "a"), "b") is None
    assert unlike(words, ("aB c", "a"), "B c") is None  # one space between words is ordinary
    assert unlike(words, (" ab", "a"), " b") is Unlike.SPACING
    assert unlike(words, ("a\tb", "a"), "\tb") is Unlike.SPACING
    assert unlike(words, ("a1", "a"), "1") is Unlike.ALPHABET
    lower = _likeness("Count the vowels.", [("hello",), ("world",)], [2, 1])
    assert unlike(lower, ("HeLLo",), 2) is Unlike.CASE
    assert unlike(_likeness("Count vowels, in either case.", [("hello",), ("world",)], [2, 1]),
                  ("HeLLo",), 2) is None
    dates = _likeness("Convert a date of yyyy-mm-dd format to dd-mm-yyyy format.",
                      [("2026-01-02",), ("2021-11-13",), ("2021-04-26",)],
                      ["02-01-2026", "13-11-2021", "26-04-2021"])
    assert unlike(dates, ("1999-12-31",), "31-12-1999") is None
    assert unlike(dates, ("0000-0-0a",), "0-0-0000a") is Unlike.ALPHABET
    assert unlike(dates, ("2020-01",), "01-2020") is Unlike.SHAPE
    assert unlike(dates, ("2021-04-2626",), "2626-04-2021") is Unlike.SHAPE  # run lengths
    # Base addresses of two shapes: either shape, any run lengths; no other shape.
    addresses = _likeness("Remove leading zeroes from an ip address.",
                          [("216.08.094.196",), ("12.01.024",), ("216.08.094.0196",)],
                          ["216.8.94.196", "12.1.24", "216.8.94.196"])
    assert unlike(addresses, ("1.002.3",), "1.2.3") is None
    assert unlike(addresses, ("1.2.3.4",), "1.2.3.4") is None
    assert unlike(addresses, (".4",), ".4") is Unlike.SHAPE
    # Symbols alone (brackets) and prose promise no shape.
    brackets = _likeness("Check if the given expression is balanced.",
                         [("{()}[{}]",), ("{()}[{]",), ("{()}[{}][]({})",)], [True, False, True])
    assert brackets.shapes == (None,) and unlike(brackets, ("(())",), True) is None
    prose = _likeness("Find the last word.", [("it is here.",), ("go now.",)], ["here", "now"])
    assert prose.shapes == (None,)
    # Base strings of several shapes promise no shape; a prompt about spaces allows them.
    free = _likeness("Split the string on spaces.", [("a b",), ("a-b-c",)], [["a", "b"], ["a-b-c"]])
    assert unlike(free, ("a-b  c-d",), ["a-b", "c-d"]) is None


def test_tasks_without_strings_or_letters_have_no_text_edges() -> None:
    numbers = _likeness("Add two numbers.", [(1, 2), (3, 4)], [3, 7])
    assert numbers.text >= {"spacing", "upper", "lower"}
    assert unlike(numbers, (5, 6), 11) is None
    digits = _likeness("Sum the digits of a numeric string.", [("123",), ("45",)], [6, 9])
    assert unlike(digits, ("9",), 9) is None
    assert unlike(digits, ("9a",), 9) is Unlike.ALPHABET


@pytest.mark.parametrize("written", [False, True])
def test_augment_puts_edges_in_the_edge_tier_only_where_no_contract_is_written(
        tmp_path: Path, written: bool) -> None:
    from evalplus_ng.oracle.tiers import plain_reference
    from evalplus_ng.pipeline.augment import AugmentConfig, augment_task
    from evalplus_ng.records import Task
    from evalplus_ng.tasks.registry import resolve

    prompt = ('def first_even(xs: list[int]):\n'
              '    """The first even number of xs."""\n')
    body = ("    for x in xs:\n        if x % 2 == 0:\n            return x\n"
            "    return None\n")
    task = Task("T/7", prompt, "first_even", prompt + body,
                ([[1, 4, 5]], [[8]], [[3, 5, 6, 7]]))
    if written:
        (tmp_path / "contracts").mkdir()
        (tmp_path / "contracts" / "T_7.py").write_text(
            "def pre(xs: list[int]) -> bool:\n    return True\n")
    dataset = resolve("humaneval", tmp_path)
    assert (dataset.contract_path("T/7") is not None) is written
    config = AugmentConfig(per_task=80, hypothesis_examples=20)
    suites = augment_task(task, config, plain_reference(task, {}, set()), dataset)
    ground_truth: dict[str, Any] = {}
    exec(task.solution, ground_truth)
    answers = [ground_truth["first_even"](*args) for args in suites.plus]
    if written:  # the contract's word: every valid input is like the base tests
        assert not suites.edge and suites.report.edge_inputs == 0
        assert None in answers
    else:
        assert suites.edge and suites.report.edge_inputs == len(suites.edge)
        assert None not in answers
        assert all(ground_truth["first_even"](*args) is None
                   or ground_truth["first_even"](*args) <= 0 for args in suites.edge)
        assert suites.report.tiers[Unlike.OUTPUT.value] >= len(suites.edge)
