"""The fuzz loop's shortcuts agree with their definitions: compiled type checks with
``typespec.matches``, dedup keys with ``canonical``, set orders with no hash seed."""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from evalplus_ng.generate.contract import Contract
from evalplus_ng.generate.dedup import freezer
from evalplus_ng.generate.fuzz import FuzzConfig, Fuzzer, fuzz
from evalplus_ng.generate.mutate import (
    FEED_ITEMS,
    POOL_SIZE,
    Context,
    Pool,
    fresh,
    mutate,
    mutate_positions,
    ordered,
)
from evalplus_ng.generate.seed import BASE, CORPUS, Seed
from evalplus_ng.records import Task
from evalplus_ng.serialize import canonical
from evalplus_ng.typespec import Spec, matches, parse, predicate

SPECS = [parse(text) for text in (
    "int", "float", "bool", "str", "None", "Any", "list", "List[int]", "List[str]",
    "List[float]", "List[bool]", "List[List[int]]", "List[Tuple[int, str]]", "Tuple[int, str]",
    "Tuple[float, int]", "Tuple[int, ...]", "Tuple[List[int], ...]", "Set[int]", "Set[str]",
    "Dict[str, int]", "Dict[int, List[str]]", "Optional[int]", "float | int",
    "Union[int, str, None]", "List[Optional[int]]", "Tuple[()]", "Tuple[int | str, float]",
)]

# Small domains, so that equal values (and 1 / 1.0 / True, 0.0 / -0.0, NaN) meet often.
scalars = (st.integers(-2, 2) | st.sampled_from([0.0, -0.0, 1.0, math.nan, math.inf])
           | st.booleans() | st.none() | st.text("ab", max_size=2))
hashables = st.recursive(scalars, lambda inner: st.tuples(inner) | st.tuples(inner, inner),
                         max_leaves=4)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.tuples(inner, inner) | st.tuples()
    | st.sets(hashables, max_size=3) | st.dictionaries(hashables, inner, max_size=3),
    max_leaves=8,
)


def _typed(spec: Spec) -> st.SearchStrategy[Any]:
    """Values of ``spec`` from the same small domains."""
    kind, args = spec.kind, spec.args
    simple = {"int": st.integers(-2, 2), "bool": st.booleans(), "none": st.none(),
              "float": st.sampled_from([0.0, -0.0, 1.0, 0.5, math.nan, -math.inf]),
              "str": st.text("ab", max_size=2), "any": values}
    if kind in simple:
        return simple[kind]
    if kind == "union":
        return st.one_of(*map(_typed, args))
    if kind == "list":
        return st.lists(_typed(args[0]), max_size=3)
    if kind == "set":
        return st.sets(_typed(args[0]), max_size=3)
    if kind == "dict":
        return st.dictionaries(_typed(args[0]), _typed(args[1]), max_size=3)
    if spec.variadic:
        return st.lists(_typed(args[0]), max_size=3).map(tuple)
    return st.tuples(*map(_typed, args))


@settings(max_examples=600, deadline=None)
@given(st.sampled_from(SPECS), values | st.integers(0, len(SPECS) - 1).flatmap(
    lambda i: _typed(SPECS[i])))
def test_a_compiled_checker_is_matches(spec: Spec, value: Any) -> None:
    assert predicate(spec)(value) == matches(value, spec)


@settings(max_examples=600, deadline=None)
@given(st.integers(0, len(SPECS) - 1).flatmap(
    lambda i: st.tuples(st.just(SPECS[i]), _typed(SPECS[i]), _typed(SPECS[i]))))
def test_dedup_keys_are_equal_exactly_when_canonical_texts_are(
        case: tuple[Spec, Any, Any]) -> None:
    spec, first, second = case
    assert matches(first, spec) and matches(second, spec)
    key = freezer(spec)
    assert (key(first) == key(second)) == (canonical(first) == canonical(second))
    assert hash(key(first)) == hash(key(first))


def test_dedup_keys_keep_types_apart_where_a_spec_allows_several() -> None:
    union = parse("List[float | int]")
    assert freezer(union)([1]) != freezer(union)([1.0])
    assert freezer(parse("List[float]"))([0.0]) != freezer(parse("List[float]"))([-0.0])
    assert freezer(parse("float"))(math.nan) == freezer(parse("float"))(float("nan"))


@given(st.sets(st.integers(-5, 5) | st.text("abc", max_size=2), max_size=6))
def test_ordered_ignores_insertion_order(items: set[Any]) -> None:
    forward, backward = list(items), list(reversed(list(items)))
    assert ordered(forward) == ordered(backward)
    assert sorted(map(canonical, ordered(forward))) == sorted(map(canonical, items))


@settings(max_examples=100, deadline=None)
@given(st.integers(0, len(SPECS) - 1), st.integers(0, 2**32))
def test_mutation_notes_only_scalars_it_made(which: int, seed: int) -> None:
    spec = SPECS[which]
    rng = random.Random(seed)
    ctx = Context(rng, Pool(rng), made=[])
    value = fresh(spec, ctx)
    for _ in range(10):
        value = mutate(value, spec, ctx)
        assert matches(value, spec)
    assert ctx.made is not None
    assert all(type(item) in (int, float, str) for item in ctx.made)


def _task() -> Task:
    prompt = 'def f(xs: list, k: int) -> int:\n    """Sum."""\n'
    return Task("T/2", prompt, "f", prompt + "    return sum(xs) + k\n", ([[1, 2], 1],))


def test_fuzz_is_valid_from_seeds_of_wrong_types_and_arity() -> None:
    specs = (parse("List[int]"), parse("int"))
    contract = Contract("T/2", ("xs", "k"), specs, "", lambda xs, k: k >= 0 and len(xs) <= 6)
    seeds = [Seed([[1, 2], 1], BASE), Seed([[1, True], 2], CORPUS), Seed([[3], 2.5], CORPUS),
             Seed([[4]], CORPUS), Seed([[5, 6], 3], CORPUS)]
    result = fuzz(_task(), contract, seeds, FuzzConfig(target=200), random.Random(4))
    mutants = [args for args, source in zip(result.inputs, result.sources, strict=True)
               if source == "mutation"]
    assert len(mutants) > 150
    assert all(contract.valid(args) for args in mutants)
    keys = [canonical(args) for args in result.inputs]
    assert len(set(keys)) == len(keys) and canonical([[1, 2], 1]) not in keys
    assert result.rejected["type"] > 0 and result.rejected["precondition"] > 0
    # Mutants of the one-argument seed keep its arity, so none is ever valid.
    assert all(len(args) == 2 for args in mutants)


def test_the_ingredient_pool_stays_bounded() -> None:
    specs = (parse("List[int]"), parse("int"))
    contract = Contract("T/2", ("xs", "k"), specs, "", None)
    seeds = [Seed([list(range(3 * POOL_SIZE)), 1], CORPUS), Seed([[7], 5], CORPUS)]
    fuzzer = Fuzzer(_task(), contract, seeds, FuzzConfig(), random.Random(2))
    assert len(fuzzer.extend(300).inputs) == 300
    buckets = fuzzer.ctx.pool.items
    assert buckets["int"] and all(len(bucket) <= POOL_SIZE for bucket in buckets.values())
    assert fuzzer.ctx.made is None  # nothing is noted outside the loop


_SCRIPT = """
import json, random
from evalplus_ng.generate.contract import Contract
from evalplus_ng.generate.fuzz import FuzzConfig, Fuzzer, fuzz
from evalplus_ng.records import Task
from evalplus_ng.generate.seed import CORPUS, Seed
from evalplus_ng.serialize import canonical
from evalplus_ng.typespec import parse
prompt = 'def f(words, counts):\\n    pass\\n'
task = Task("T/3", prompt, "f", prompt, ())
specs = (parse("Set[str]"), parse("Dict[str, int]"))
contract = Contract("T/3", ("words", "counts"), specs, "", None)
seeds = [Seed([{"apple", "pear", "fig", "kiwi"}, {"x": 1, "yy": 2, "zzz": 3}], CORPUS)]
result = fuzz(task, contract, seeds, FuzzConfig(target=300), random.Random(11))
print(json.dumps([canonical(args) for args in result.inputs]))
"""


def test_fuzzing_sets_of_strings_does_not_depend_on_the_hash_seed() -> None:
    root = Path(__file__).resolve().parent.parent
    runs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(root)}
        done = subprocess.run([sys.executable, "-c", _SCRIPT], env=env, cwd=root,
                              capture_output=True, text=True, check=True)
        runs.append(json.loads(done.stdout))
    assert len(runs[0]) == 300 and runs[0] == runs[1]


def test_a_long_collection_feeds_an_evenly_spaced_sample() -> None:
    rng = random.Random(0)
    pool = Pool(rng)
    pool.feed([list(range(10_000)), "w " * 5000])
    assert len(pool.items["int"]) == FEED_ITEMS
    assert pool.items["int"][:2] == [0, -(-10_000 // FEED_ITEMS)]
    assert pool.items["word"] == ["w"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, len(SPECS) - 1), min_size=1, max_size=3), st.integers(0, 2**32))
def test_a_mutant_shares_its_parents_objects_but_never_changes_them(
        which: list[int], seed: int) -> None:
    # The fuzz loop caches each corpus entry's keys: mutation must copy, never edit in place.
    specs = tuple(SPECS[i] for i in which)
    rng = random.Random(seed)
    ctx = Context(rng, Pool(rng))
    args = [fresh(spec, ctx) for spec in specs]
    for _ in range(10):
        before = canonical(args)
        child, changed = mutate_positions(args, specs, ctx)
        assert canonical(args) == before and len(child) == len(args)
        assert all(child[p] is args[p] for p in range(len(args)) if p not in changed)
        args = child
