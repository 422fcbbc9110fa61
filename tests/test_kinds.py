"""Spec kinds: every table keyed by kind that must cover them all does, so a kind cannot be
added halfway; the kinds keep the names specs have always printed with."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest

from evalplus_ng import typespec
from evalplus_ng.generate import mutate, strategies
from evalplus_ng.typespec import Kind, Spec, matches, parse, predicate

#: The tables with an entry for every kind (grow's, conform's and the join of inferred
#: specs hold only the kinds that grow, convert or join; the others keep their values).
TABLES: dict[str, Mapping[Kind, Any]] = {
    "typespec.MATCHERS": typespec.MATCHERS,
    "typespec.PREDICATES": typespec.PREDICATES,
    "mutate.MAKERS": mutate.MAKERS,
    "mutate.MUTATORS": mutate.MUTATORS,
    "strategies.STRATEGIES": strategies.STRATEGIES,
}

#: An annotation of each kind.
EXAMPLES = {
    Kind.ANY: "Any", Kind.NONE: "None", Kind.BOOL: "bool", Kind.INT: "int",
    Kind.FLOAT: "float", Kind.COMPLEX: "complex", Kind.STR: "str", Kind.LIST: "List[int]",
    Kind.TUPLE: "Tuple[int, str]", Kind.SET: "Set[str]", Kind.DICT: "Dict[str, float]",
    Kind.UNION: "Optional[int]",
}


@pytest.mark.parametrize("name", sorted(TABLES))
def test_every_kind_has_an_entry(name: str) -> None:
    assert set(TABLES[name]) == set(Kind), name


def test_kinds_keep_their_names() -> None:
    assert {kind.value for kind in Kind} >= {
        "any", "none", "bool", "int", "float", "complex", "str", "list", "tuple", "set",
        "dict", "union"}
    text = str(parse("Dict[str, Tuple[int, ...]] | None"))
    assert text == "union[dict[str, tuple[int, ...]], none]" and type(text) is str
    assert str(parse("int")) == "int" and type(str(parse("int"))) is str
    # A kind is its name: specs written with the plain string are the same specs.
    plain = Spec("list", (Spec("int"),))  # type: ignore[arg-type]
    assert plain == parse("List[int]") and hash(plain) == hash(parse("List[int]"))


@pytest.mark.parametrize("kind", list(Kind))
def test_every_kind_has_values_its_tables_agree_on(kind: Kind) -> None:
    spec = parse(EXAMPLES[kind])
    assert spec.kind is kind
    rng = random.Random(7)
    ctx = mutate.Context(rng, mutate.Pool(rng))
    value = mutate.fresh(spec, ctx)
    for _ in range(20):
        assert matches(value, spec) and predicate(spec)(value), (kind, value)
        assert typespec.conform(value, spec) is value
        value = mutate.mutate(value, spec, ctx)
    assert strategies.strategy(spec, "ab") is not None


def test_an_unknown_kind_is_an_error() -> None:
    bogus = Spec("frozenset", (Spec(Kind.INT),))  # type: ignore[arg-type]
    rng = random.Random(0)
    for call in (lambda: matches(frozenset(), bogus), lambda: predicate(bogus),
                 lambda: mutate.fresh(bogus, mutate.Context(rng, mutate.Pool(rng))),
                 lambda: strategies.strategy(bogus, "ab")):
        with pytest.raises(typespec.SpecError):
            call()
