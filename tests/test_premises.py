"""Premises an inferred contract keeps: what every base input takes for granted."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from evalplus_ng.generate.contract import load_contract
from evalplus_ng.generate.premises import Kind, Premise, holds, infer_premises
from evalplus_ng.records import Task


def _prompt(sentence: str, call: str = "f(x)") -> str:
    return f'"""\n{sentence}\nassert {call}\n"""\n'


def _kinds(sentence: str, base: list[list[Any]]) -> list[tuple[str, int, int]]:
    return [(p.kind.value, p.first, p.second)
            for p in infer_premises(_prompt(sentence), base) if p.kind is not Kind.UNSHOWN]


MAJORITY = [[[1, 2, 3, 3, 3, 3, 10], 7, 3], [[1, 1, 2, 4, 4, 4, 6, 6], 8, 4],
            [[1, 1, 1, 2, 2], 5, 1]]


def test_a_sorted_array_and_its_length_are_premises() -> None:
    sentence = ("Write a function that takes in a sorted array, its length (n), and an element "
                "and returns whether the element is the majority element.")
    assert _kinds(sentence, MAJORITY) == [("sorted", 0, -1), ("length", 1, 0)]
    # Without the word, sortedness seen in three short lists may be chance: no premise.
    assert _kinds("Is x the majority element of arr (n items)?", MAJORITY) == [("length", 1, 0)]


def test_equal_lengths_index_and_matrix_shapes() -> None:
    medians = [[[1, 12, 15], [2, 13, 17], 3], [[2, 4, 8, 9], [7, 13, 19, 28], 4]]
    assert ("same-length", 0, 1) in _kinds("Find the median of two sorted lists.", medians)
    columns = [[[[5, 6, 7], [1, 3, 5], [8, 9, 19]], 2], [[[6, 7, 8], [2, 4, 6], [9, 1, 2]], 1]]
    assert _kinds("Return the max of the n'th column of a matrix.", columns) == [
        ("index", 1, 0), ("rectangular", 0, -1)]
    magic = [[[[2, 7, 6], [9, 5, 1], [4, 3, 8]]], [[[1, 2], [3, 4]]]]
    assert _kinds("Is the matrix a magic square?", magic) == [("square", 0, -1)]


@pytest.mark.parametrize("premise, good, bad", [
    (Premise(Kind.SORTED, 0), [[1, 1, 2]], [[2, 1]]),
    (Premise(Kind.SORTED, 0, descending=True), [[3, 2, 2]], [[1, 2]]),
    (Premise(Kind.LENGTH, 1, 0), [[5, 6], 2], [[], 2064]),
    (Premise(Kind.SAME_LENGTH, 0, 1), [[1], [2]], [[1], [2, 3]]),
    (Premise(Kind.INDEX, 1, 0), [[[1, 2]], 0], [[[1, 2]], -1]),
    (Premise(Kind.RECTANGULAR, 0), [[[1, 2], [3, 4], [5, 6]]], [[[1, 2], [3]]]),
    (Premise(Kind.SQUARE, 0), [[[1, 2], [3, 4]]], [[[0, 0, 0]]]),
    (Premise(Kind.UNSHOWN, kinds=("empty", "negative")), [[3, "ab"]], [[-3, "ab"]]),
])
def test_holds(premise: Premise, good: list[Any], bad: list[Any]) -> None:
    assert holds(premise, good) and not holds(premise, bad)
    if premise.kind is not Kind.UNSHOWN:  # an argument of the wrong kind breaks it
        assert not holds(premise, [None, None])


def test_classes_the_base_inputs_and_prompt_never_show() -> None:
    [unshown] = [p for p in infer_premises(_prompt("Add one to each number of the list."),
                                           [[[1, 2, 3]], [[4, 5]]])]
    assert unshown.kinds == ("empty", "single", "zero", "negative", "nonfinite", "nonascii",
                             "none")
    # Shown by a base input, or mentioned by the prompt: admitted.
    [shown] = infer_premises(_prompt("Add one to each number; the list may be empty."),
                             [[[1, -2, 0]], [[7]]])
    assert shown.kinds == ("nonfinite", "nonascii", "none")
    assert not holds(shown, [[1.0, float("nan")]]) and holds(shown, [[]])


def _task(contract_written: bool, tmp_path: Path) -> tuple[Task, Path | None]:
    prompt = _prompt("Write a function that takes in a sorted array, its length (n), and an "
                     "element and returns whether the element is the majority element.",
                     "is_majority([1, 2, 3, 3, 3, 3, 10], 7, 3)")
    solution = prompt + "def is_majority(arr, n, x):\n    return arr.count(x) * 2 > n\n"
    task = Task("T/223", prompt, "is_majority", solution,
                tuple(tuple(args) for args in MAJORITY))
    if not contract_written:
        return task, None
    path = tmp_path / "T_223.py"
    path.write_text("def pre(arr: list, n: int, x: int) -> bool:\n    return True\n")
    return task, path


def test_an_inferred_contract_keeps_the_premises_a_written_one_decides(tmp_path: Path) -> None:
    inferred, _ = _task(False, tmp_path)
    contract = load_contract(inferred, None)
    assert contract.valid([[1, 2, 2], 3, 2])
    assert contract.violation([[], 2064, 13]) == (
        "breaks a premise of the base inputs: no empty, single, zero, negative, nonfinite, "
        "nonascii, none value (no base input or prompt shows one)")
    assert contract.violation([[3, 2, 1], 3, 2]) == (
        "breaks a premise of the base inputs: 'arr' sorted")
    assert contract.violation([[1, 2, 2], 4, 2]) == (
        "breaks a premise of the base inputs: 'n' equal to len('arr')")
    task, written = _task(True, tmp_path)
    assert load_contract(task, written).premises == ()
    assert load_contract(task, written).valid([[], 2064, -13])
