"""Scaled-up inputs: types and arity kept, shapes kept, large, and placed in the fuzz stream."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from evalplus_ng.generate.contract import Contract
from evalplus_ng.generate.fuzz import GROWN, MUTATION, FuzzConfig, Fuzzer, fuzz
from evalplus_ng.generate.grow import SIZES, grow_args, grow_value
from evalplus_ng.generate.mutate import MAX_LENGTH, Context, Pool, fresh
from evalplus_ng.generate.seed import BASE, Seed
from evalplus_ng.records import Task
from evalplus_ng.serialize import canonical
from evalplus_ng.typespec import matches, parse

SPECS = [parse(text) for text in (
    "int", "float", "bool", "str", "List[int]", "List[str]", "Tuple[int, str]",
    "Tuple[float, ...]", "Dict[str, int]", "Set[int]", "Optional[int]", "List[List[float]]",
    "float | int", "None",
)]


def _ctx(seed: int) -> Context:
    rng = random.Random(seed)
    return Context(rng, Pool(rng))


@settings(max_examples=200, deadline=None)
@given(st.integers(0, len(SPECS) - 1), st.integers(0, 2**32))
def test_a_grown_value_keeps_its_type(which: int, seed: int) -> None:
    spec = SPECS[which]
    ctx = _ctx(seed)
    value = fresh(spec, ctx)
    grown = grow_value(value, spec, ctx)
    assert matches(grown, spec), (str(spec), value)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32))
def test_grow_args_keeps_arity_and_types(seed: int) -> None:
    specs = (parse("List[int]"), parse("str"), parse("float | int"))
    grown = grow_args([[1, 2], "ab", 3], specs, _ctx(seed))
    assert len(grown) == 3
    assert all(matches(v, s) for v, s in zip(grown, specs, strict=True))


def test_grown_collections_and_strings_are_large() -> None:
    ctx = _ctx(1)
    for _ in range(30):
        assert len(grow_value([4, 4, 1], parse("List[int]"), ctx)) in SIZES
        assert len(grow_value("ab c", parse("str"), ctx)) in SIZES


def test_sorted_stays_sorted_and_distinct_stays_distinct() -> None:
    ctx = _ctx(2)
    lengths = []
    for _ in range(40):
        grown = grow_value([1, 5, 9], parse("List[int]"), ctx)
        assert grown == sorted(grown)
        assert len(set(grown)) == len(grown)
        lengths.append(len(grown))
    assert max(lengths) > 100  # new distinct elements, not the three again


def test_distinct_ints_of_any_size_grow() -> None:
    ctx = _ctx(5)
    for items in ([1, 5, 9], [-(2**1024), 0, 2**1024 + 1], [10**30, 10**30 + 1]):
        grown = grow_value(items, parse("List[int]"), ctx, 1000)
        assert len(set(grown)) == len(grown) > 900
        assert set(items) <= set(grown)


def test_grown_numbers_are_large_and_keep_their_sign() -> None:
    ctx = _ctx(3)
    for _ in range(50):
        assert grow_value(7, parse("int"), ctx) >= 10**6
        assert grow_value(-7, parse("int"), ctx) <= -(10**6)
        magnitude = abs(grow_value(1.5, parse("float"), ctx))
        assert magnitude > 1e14 or 0 < magnitude < 1e-299


def _task() -> Task:
    prompt = 'def f(xs: list, k: int) -> int:\n    """Sum."""\n'
    return Task("T/1", prompt, "f", prompt + "    return sum(xs) + k\n", ([[1, 2], 1],))


def _contract(longest: int) -> Contract:
    specs = (parse("List[int]"), parse("int"))
    return Contract("T/1", ("xs", "k"), specs, "", lambda xs, k: k >= 0 and len(xs) <= longest)


def test_the_fuzz_stream_holds_one_valid_grown_input_per_hundred() -> None:
    task, contract = _task(), _contract(100_000)
    seeds = [Seed([[1, 2], 1], BASE), Seed([[3, 0, 2], 5], BASE)]
    result = fuzz(task, contract, seeds, FuzzConfig(target=500), random.Random(4))
    grown = [args for args, source in zip(result.inputs, result.sources, strict=True)
             if source == GROWN]
    assert [i for i, source in enumerate(result.sources) if source == GROWN] \
        == [99, 199, 299, 399, 499]
    assert all(contract.valid(args) for args in grown)
    assert any(len(args[0]) >= min(SIZES) for args in grown)
    # Grown inputs are not mutated further: every mutant stays short.
    mutants = [args for args, source in zip(result.inputs, result.sources, strict=True)
               if source == MUTATION]
    assert max(len(args[0]) for args in mutants) <= 2 * MAX_LENGTH
    assert len({canonical(args) for args in result.inputs}) == len(result.inputs)


def test_grown_inputs_respect_the_contract() -> None:
    task, contract = _task(), _contract(5)
    seeds = [Seed([[1, 2], 1], BASE)]
    result = fuzz(task, contract, seeds, FuzzConfig(target=300), random.Random(4))
    assert len(result.inputs) == 300
    assert all(contract.valid(args) for args in result.inputs)
    grown = [args for args, source in zip(result.inputs, result.sources, strict=True)
             if source == GROWN]
    # Long lists break this contract, so only the number grows.
    assert grown and all(len(xs) <= 5 and k >= 10**6 for xs, k in grown)


def test_no_grown_inputs_when_switched_off() -> None:
    task, contract = _task(), _contract(100_000)
    seeds: list[Any] = [Seed([[1, 2], 1], BASE)]
    config = FuzzConfig(target=300, grow_every=0)
    assert GROWN not in fuzz(task, contract, seeds, config, random.Random(4)).sources
    stream = Fuzzer(task, contract, seeds, FuzzConfig(), random.Random(4))
    assert stream.extend(150).inputs == stream.extend(300).inputs[:150]
