"""Inputs as general as the prompt (prompt words -> allowances) and boundary classes that meet."""

from __future__ import annotations

import random
from typing import Any

import pytest

from evalplus_ng.generate import admit, pairwise
from evalplus_ng.generate.admit import Allowance
from evalplus_ng.generate.contract import load_contract
from evalplus_ng.generate.fuzz import FuzzConfig, fuzz
from evalplus_ng.generate.seed import BOUNDARY, GENERAL, gather
from evalplus_ng.records import Task
from evalplus_ng.typespec import parse


def _mbpp_style(sentence: str, call: str) -> str:
    return f'"""\n{sentence}\nassert {call} == 0\n"""\n'


@pytest.mark.parametrize("sentence, values, expected", [
    # A tuple in general: other lengths.
    ("Write a function to add the given tuple to the given list.", [(9, 10)],
     Allowance(arity=True)),
    # Shapes the prompt names: a pair, a point, coordinates, named fields, a length.
    ("Write a function to find the maximum difference between available pairs in the given "
     "tuple list.", [[(3, 5), (1, 7)]], Allowance()),
    ("Write a function to find the distance of the given point tuple from the origin.",
     [(3, 4)], Allowance()),
    ("Write a function to extract all the adjacent coordinates of the given coordinate tuple.",
     [(3, 4)], Allowance()),
    ("A dictionary with a tuple of float (student_height, student_weight) as a value.",
     [{"a": (6.2, 70)}], Allowance()),
    ("Write a function that takes a tuple of two numbers and swaps them.", [(1, 2)],
     Allowance()),
    ("Write a function that takes a 3-tuple and rotates it.", [(1, 2, "a")], Allowance()),
    # Already a sequence (all one kind, three or more): nothing to widen.
    ("Write a function to convert the given tuple to a string.", [(1, 2, 3)], Allowance()),
    # Elements in general: lists among them; mixed kinds only where the prompt says so.
    ("Write a function to check whether an element exists within a tuple.",
     [("w", 3, "r", "e")], Allowance(arity=True, unhashable=True)),
    ("Write a function to check if all the elements in tuple have same data type or not.",
     [(5, 6, 7)], Allowance(unhashable=True, mixed=True)),
    # Elements in general, but the example holds numbers only: hashing them is fair.
    ("Write a function to remove all elements from a given list present in another list.",
     [[1, 2, 3]], Allowance()),
    # Kinds or arithmetic named: the elements keep their kind.
    ("Write a function to find the sum of the elements of the given list.", [[1, 2]],
     Allowance()),
    ("Write a function to sort the elements of the given list.", [[1, 2]], Allowance()),
    # Numbers in a string: a sign, unless digits, binary or positive numbers are asked for.
    ("Write a function to check if a string represents an integer or not.", ["12"],
     Allowance(signed=True)),
    ("Write a function to count the digits in a string.", ["12"], Allowance()),
    ("Write a function to check if a string is a positive number.", ["12"], Allowance()),
    ("Write a function to check if a string represents an integer or not.", ["python"],
     Allowance()),
])
def test_prompt_words_decide_the_allowance(sentence: str, values: list[Any],
                                           expected: Allowance) -> None:
    assert admit.allowance(_mbpp_style(sentence, "f(x)"), values) == expected


def test_the_asserts_of_a_prompt_are_not_its_words() -> None:
    # "tuple" only in the example call and the code: no allowance.
    prompt = ('"""\nWrite a function to swap two numbers.\n'
              'assert swap_tuple((1, 2)) == (2, 1)\n"""\n')
    assert admit.allowance(prompt, [(1, 2)]) == Allowance()


def test_parallel_arguments_keep_their_shape() -> None:
    # Two tuples of pairs zipped element-wise: one alone at another length is no input.
    prompt = _mbpp_style("Write a function to maximize the given two tuples.", "f(a, b)")
    base = [[((1, 3), (4, 5)), ((6, 7), (3, 9))]]
    assert admit.allowances(prompt, base) == (Allowance(), Allowance())


def test_widen_follows_the_allowance() -> None:
    assert admit.widen(parse("Tuple[int, int]"), Allowance(arity=True)) == parse("Tuple[int, ...]")
    assert admit.widen(parse("List[Tuple[str, int]]"), Allowance(arity=True)) \
        == parse("List[Tuple[str | int, ...]]")
    assert admit.widen(parse("Tuple[int, int]"), Allowance()) == parse("Tuple[int, int]")
    assert admit.widen(parse("Tuple[int, ...]"), Allowance(unhashable=True)) \
        == parse("Tuple[int | List[int], ...]")
    # Lists of lists stay lists of lists: unhashable elements only among scalars.
    assert admit.widen(parse("List[List[int]]"), Allowance(unhashable=True)) \
        == parse("List[List[int]]")


def test_signed_texts() -> None:
    assert admit.signed_texts("12") == ["-12", "+12"]
    assert admit.signed_texts("(7, 8)") == ["(-7, 8)", "(+7, 8)", "(-7, -8)"]
    assert admit.signed_texts("python") == []


def _tuple_task(sentence: str, entry: str, body: str, base: tuple[list[Any], ...]) -> Task:
    prompt = _mbpp_style(sentence, f"{entry}({', '.join(map(repr, base[0]))})")
    solution = prompt + f"def {entry}(a, t):\n    {body}\n"
    return Task(f"T/{entry}", prompt, entry, solution, base)


def test_a_tuple_in_general_gets_other_lengths() -> None:
    task = _tuple_task("Write a function to append the given list to the given tuples.",
                       "add_lists", "return t + tuple(a)", ([[5, 6, 7], (9, 10)],))
    contract = load_contract(task, None)
    assert str(contract.specs[1]) == "tuple[int, ...]"
    seeds = gather(task, contract, None, seed=0, hypothesis_count=0)
    general = [s.args[1] for s in seeds if s.source == GENERAL]
    assert {len(t) for t in general} >= {3}
    result = fuzz(task, contract, seeds, FuzzConfig(target=200), random.Random(0))
    lengths = {len(args[1]) for args in result.inputs}
    # Other lengths, but no empty or one-element tuple: no base input shows one and the
    # prompt does not speak of one (the inferred contract's premises).
    assert {3, 4} <= lengths and not lengths & {0, 1}


def test_a_point_keeps_its_shape() -> None:
    task = _tuple_task("Write a function to move the given point tuple by the given offsets.",
                       "move", "return (t[0] + a[0], t[1] + a[1])", ([[1, 2], (3, 4)],))
    contract = load_contract(task, None)
    assert str(contract.specs[1]) == "tuple[int, int]"
    seeds = gather(task, contract, None, seed=0, hypothesis_count=20)
    result = fuzz(task, contract, seeds, FuzzConfig(target=200), random.Random(0))
    assert {len(args[1]) for args in [*[s.args for s in seeds], *result.inputs]} == {2}


def test_inputs_the_contract_rejects_are_not_seeds() -> None:
    prompt = _mbpp_style("Write a function to check whether an element exists within a tuple.",
                         "f(t, x)")
    contract_lines = "  assert all(not isinstance(x, list) for x in t)  # $_CONTRACT_$\n"
    task = Task("T/in", prompt, "f", prompt + "def f(t, x):\n    return x in t\n",
                ([("a", 3, "b"), "a"],), contract=contract_lines)
    contract = load_contract(task, None)
    assert "list" in str(contract.specs[0])  # the type admits lists inside ...
    seeds = gather(task, contract, None, seed=0, hypothesis_count=30)
    assert {len(s.args[0]) for s in seeds} > {3}  # ... other lengths come ...
    assert not any(isinstance(x, list) for s in seeds for x in s.args[0])  # ... not lists


def _valid(args: list[Any]) -> bool:
    return args[1] >= 1 and args[0] >= 0


def test_boundary_classes_meet() -> None:
    corpus: list[list[Any]] = [[3, 5], [0, 101], [7, 1], [2, 11]]
    made = pairwise.meet(corpus, _valid)
    assert [0, 1] in made
    assert all(_valid(args) for args in made)
    # n = 1 and p = 1 each appear already (7, 1 has p = 1; n = 1 nowhere): only 0 with 1.
    assert made == [[0, 1]]
    # Nothing to combine when every pair already met.
    assert pairwise.meet([[0, 1], [3, 5]], _valid) == []


def test_boundary_classes_meet_on_strings_and_lists() -> None:
    corpus: list[list[Any]] = [["", [1, 2]], ["ab", []], ["x", [3, 4, 5]]]
    made = pairwise.meet(corpus, lambda args: True)
    pairs = {(len(args[0]), len(args[1])) for args in [*corpus, *made]}
    assert {(0, 0), (1, 0)} <= pairs


def test_boundary_probes_respect_the_contract() -> None:
    probes = pairwise.boundary_probes([[3, 5]], _valid)
    assert [0, 5] in probes and [3, 1] in probes and [1, 5] in probes
    assert all(_valid(args) for args in probes)  # n = -1, p = 0, p = -1: rejected


def test_modp_zero_one_is_a_seed_of_the_real_task() -> None:
    from evalplus_ng.tasks.registry import resolve

    dataset = resolve("humaneval")
    task = next(t for t in dataset.load() if t.task_id == "HumanEval/49")
    contract = load_contract(task, dataset.contract_path(task.task_id))
    seeds = gather(task, contract, None, seed=0, hypothesis_count=100)
    assert any(s.args == [0, 1] and s.source in (BOUNDARY, "hypothesis") for s in seeds)
    result = fuzz(task, contract, seeds, FuzzConfig(target=50), random.Random(0))
    assert [0, 1] in result.inputs


def test_a_shape_nothing_accepts_is_taken_back() -> None:
    allowed = (Allowance(arity=True, unhashable=True), Allowance(signed=True))
    tried = [(0, "arity", False), (0, "arity", True), (0, "unhashable", False),
             (0, "unhashable", False), (1, "signed", False)]
    # Lists inside were never accepted; other lengths once; signing makes no type wider.
    assert admit.narrowed(allowed, tried) == (Allowance(arity=True), Allowance(signed=True))
    assert admit.narrowed(allowed, []) == allowed


def test_tagged_variants_name_their_allowance() -> None:
    tagged = admit.tagged_variants([[("a", 1), ("b", 2)], "12"],
                                   [Allowance(arity=True), Allowance(signed=True)])
    assert (0, "arity", [[("a", 1, 1), ("b", 2, 2)], "12"]) in tagged
    assert (0, "arity", [[("a",), ("b",)], "12"]) in tagged
    assert (1, "signed", [[("a", 1), ("b", 2)], "-12"]) in tagged
    assert {name for _, name, _ in tagged} == {"arity", "signed"}


def test_admitted_keeps_the_shapes_the_ground_truth_answers() -> None:
    from evalplus_ng.pipeline.augment import AugmentConfig, admitted
    from evalplus_ng.sandbox import Limits, Sandbox

    shared = _tuple_task("Write a function to find the shared elements from the given two "
                         "lists.", "shared", "return tuple(set(a) & set(t))",
                         ([(3, 4, 5), (5, 7, 4)],))
    within = _tuple_task("Write a function to check whether an element exists within a "
                         "tuple.", "within", "return t in a", ([("w", 3, "r"), "r"],))
    with Sandbox(1, Limits()) as sandbox:
        # A set of the elements raises on a list inside: lists are taken back.
        contract, allowed = admitted(shared, None, AugmentConfig(), sandbox)
        assert allowed == (Allowance(), Allowance())
        assert str(contract.specs[0]) == "tuple[int, ...]"
        # ``in`` answers them: the tuple may hold lists, and other lengths.
        contract, allowed = admitted(within, None, AugmentConfig(), sandbox)
        assert allowed[0] == Allowance(arity=True, unhashable=True)
        assert contract.valid([("w", [3], "r", 4), "r"])


def test_a_date_has_no_sign() -> None:
    prompt = _mbpp_style("Validate a date string; the number of days is at most 31.",
                         "f('03-11-2000')")
    assert admit.allowance(prompt, ["03-11-2000"]) == Allowance()
