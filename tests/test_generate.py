"""Seeds, mutation and the fuzz loop: arity and types kept, contracts honoured, reproducible."""

from __future__ import annotations

import importlib
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalplus_ng.generate.contract import Contract
from evalplus_ng.generate.fuzz import GROWN, FuzzConfig, Fuzzer, fuzz
from evalplus_ng.generate.mutate import Context, Pool, mutate, mutate_args
from evalplus_ng.generate.seed import BASE, DOCSTRING, Seed, docstring_examples, gather
from evalplus_ng.records import Task
from evalplus_ng.serialize import canonical
from evalplus_ng.typespec import matches, parse

SPECS = [parse(text) for text in (
    "int", "float", "bool", "str", "List[int]", "List[str]", "Tuple[int, str]",
    "Tuple[float, ...]", "Dict[str, int]", "Set[int]", "Optional[int]", "List[List[float]]",
    "Dict[int, List[str]]", "float | int", "None", "complex", "List[complex]",
)]


def _ctx(seed: int) -> Context:
    rng = random.Random(seed)
    return Context(rng, Pool(rng))


@settings(max_examples=300, deadline=None)
@given(st.integers(0, len(SPECS) - 1), st.integers(0, 2**32), st.integers(1, 30))
def test_a_mutant_keeps_its_type(which: int, seed: int, rounds: int) -> None:
    from evalplus_ng.generate.mutate import fresh

    spec = SPECS[which]
    ctx = _ctx(seed)
    value = fresh(spec, ctx)
    assert matches(value, spec)
    for _ in range(rounds):
        value = mutate(value, spec, ctx)
        assert matches(value, spec), (str(spec), value)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32))
def test_mutate_args_keeps_arity_and_annotated_types(seed: int) -> None:
    specs = (parse("List[int]"), parse("str"), parse("float | int"))
    args: list[Any] = [[1, 2], "ab", 3]
    ctx = _ctx(seed)
    for _ in range(20):
        args = mutate_args(args, specs, ctx)
        assert len(args) == 3
        assert all(matches(v, s) for v, s in zip(args, specs, strict=True))


def test_docstring_examples_in_several_styles() -> None:
    prompt = '''def f(xs, k):
    """Examples:
    >>> f([1, 2], 3)
    True
    f([4], -1) ➞ False
    f("a(b", 0) == True
    f(g(1), 2) is not literal, f(*xs) neither
    """
'''
    assert docstring_examples(prompt, "f") == [[[1, 2], 3], [[4], -1], ["a(b", 0]]


def _task() -> Task:
    prompt = 'def f(xs: list, k: int) -> int:\n    """>>> f([3, 1], 2)\n    4\n    """\n'
    return Task("T/1", prompt, "f", prompt + "    return sum(xs) + k\n", ([[1, 2], 1],))


def _contract() -> Contract:
    specs = (parse("List[int]"), parse("int"))
    return Contract("T/1", ("xs", "k"), specs, "", lambda xs, k: k >= 0 and len(xs) <= 5)


def test_gather_filters_and_orders_seeds() -> None:
    seeds = gather(_task(), _contract(), None, seed=3, hypothesis_count=30)
    assert seeds[0] == Seed([[1, 2], 1], BASE)
    assert seeds[1] == Seed([[3, 1], 2], DOCSTRING)
    assert all(_contract().valid(s.args) for s in seeds)
    assert len({canonical(s.args) for s in seeds}) == len(seeds)
    assert gather(_task(), _contract(), None, seed=3, hypothesis_count=30) == seeds


def test_hypothesis_seeds_ignore_constants_of_imported_modules(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Hypothesis mixes literals of "local" modules into its draws; the seeds must not
    # depend on which modules happen to be imported (checkout, pip install, pytest).
    before = gather(_task(), _contract(), None, seed=5, hypothesis_count=60)
    constants = ", ".join(str(value) for value in range(-3000, 3000, 7))
    (tmp_path / "lots_of_constants.py").write_text(f"VALUES = [{constants}]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.import_module("lots_of_constants")
    assert gather(_task(), _contract(), None, seed=5, hypothesis_count=60) == before


def test_fuzz_emits_distinct_valid_new_inputs_reproducibly() -> None:
    task, contract = _task(), _contract()
    seeds = gather(task, contract, None, seed=1, hypothesis_count=10)
    first = fuzz(task, contract, seeds, FuzzConfig(target=300), random.Random(7))
    assert len(first.inputs) == 300
    keys = [canonical(args) for args in first.inputs]
    assert len(set(keys)) == 300
    assert canonical([[1, 2], 1]) not in keys  # base inputs are not plus inputs
    assert all(contract.valid(args) for args in first.inputs)
    assert first.rejected.get("precondition", 0) > 0  # the contract did reject mutants
    again = fuzz(task, contract, seeds, FuzzConfig(target=300), random.Random(7))
    assert again.inputs == first.inputs
    other = fuzz(task, contract, seeds, FuzzConfig(target=300), random.Random(8))
    assert other.inputs != first.inputs


def test_a_resumed_fuzz_stream_equals_one_call_with_the_final_target() -> None:
    task, contract = _task(), _contract()
    seeds = gather(task, contract, None, seed=1, hypothesis_count=10)
    fresh = sum(1 for s in seeds if s.source != BASE)
    assert fresh > 3
    whole = fuzz(task, contract, seeds, FuzzConfig(target=250), random.Random(3))
    fuzzer = Fuzzer(task, contract, seeds, FuzzConfig(), random.Random(3))
    # First fewer inputs than there are new seeds, then more than a round's worth.
    assert fuzzer.extend(3).inputs == whole.inputs[:3]
    assert fuzzer.extend(120).inputs == whole.inputs[:120]
    resumed = fuzzer.extend(250)
    assert resumed.inputs == whole.inputs and resumed.sources == whole.sources
    assert (resumed.attempts, resumed.rejected) == (whole.attempts, whole.rejected)


def test_retired_inputs_leave_the_corpus_and_breed_no_more() -> None:
    task, contract = _task(), _contract()
    seeds = gather(task, contract, None, seed=1, hypothesis_count=10)

    def run(retire: bool) -> tuple[Fuzzer, list[Any]]:
        fuzzer = Fuzzer(task, contract, seeds, FuzzConfig(), random.Random(3))
        first = fuzzer.extend(200).inputs
        # As if the ground truth could not answer inputs with a long list.
        costly = [i for i, (xs, _k) in enumerate(first) if len(xs) > 3]
        if retire:  # scaled-up inputs never were in the corpus
            bred = [i for i in costly if fuzzer.sources[i] != GROWN]
            assert fuzzer.retire(costly) == len(bred) > 0
        return fuzzer, costly

    fuzzer, costly = run(retire=True)
    assert costly
    gone = {canonical(fuzzer.inputs[i]) for i in costly}
    assert not gone & {canonical(entry.args) for entry in fuzzer.corpus}
    later = fuzzer.extend(400).inputs[200:]
    again, _ = run(retire=True)
    assert again.extend(400).inputs[200:] == later  # still one seeded stream
    untouched, _ = run(retire=False)
    assert untouched.extend(400).inputs[200:] != later


def test_fuzz_stops_after_its_attempt_budget() -> None:
    task = _task()
    tight = Contract("T/1", ("xs", "k"), (parse("List[int]"), parse("int")), "",
                     lambda xs, k: xs == [1, 2] and k in (1, 2))
    seeds = [Seed([[1, 2], 1], BASE)]
    result = fuzz(task, tight, seeds, FuzzConfig(target=50, attempts_per_input=4),
                  random.Random(0))
    assert result.attempts == 200
    assert all(args == [[1, 2], 2] for args in result.inputs)
