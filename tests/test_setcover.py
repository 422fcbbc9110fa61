"""Greedy set cover and reduction profiles: literal dicts and Hypothesis properties."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalplus_ng.errors import InputError
from evalplus_ng.profiles import (
    REQUIREMENTS,
    Profile,
    load_profile,
    load_profile_file,
    profile_names,
    select,
)
from evalplus_ng.setcover import greedy_cover, satisfied


def test_picks_the_test_meeting_most_goals_first() -> None:
    requirements = {"a": {1, 2}, "b": {1, 2, 3, 4}, "c": {5}}
    assert greedy_cover(requirements, ["a", "b", "c"]) == ["b", "c"]


def test_ties_go_to_the_earlier_test_in_order() -> None:
    requirements = {"x": {1}, "y": {1}}
    assert greedy_cover(requirements, ["x", "y"]) == ["x"]
    assert greedy_cover(requirements, ["y", "x"]) == ["y"]


def test_tests_without_goals_are_never_picked() -> None:
    assert greedy_cover({"a": set(), "b": {1}}, ["a", "b", "c"]) == ["b"]
    assert greedy_cover({}, ["a", "b"]) == []


def test_kept_tests_come_first_and_their_goals_count() -> None:
    requirements = {"base": {1, 2}, "p": {2, 3}, "q": {3}}
    assert greedy_cover(requirements, ["base", "p", "q"], keep=["base"]) == ["base", "p"]
    # A kept test stays even when it meets nothing.
    assert greedy_cover({"p": {1}}, ["k", "p"], keep=["k"]) == ["k", "p"]


def test_a_later_pick_makes_an_earlier_one_redundant() -> None:
    # Greedy takes "big" (3 goals), then "l" and "r" for the rest; together "l" and
    # "r" meet everything "big" did, so the final pass drops "big".
    requirements = {"big": {1, 2, 3}, "l": {1, 2, 4}, "r": {3, 5}}
    assert greedy_cover(requirements, ["big", "l", "r"]) == ["l", "r"]
    requirements = {"big": {1, 2, 3, 4}, "l": {1, 2, 5}, "r": {3, 4, 6}}
    assert greedy_cover(requirements, ["big", "l", "r"]) == ["l", "r"]


def test_order_must_not_repeat_a_test() -> None:
    with pytest.raises(ValueError, match="twice"):
        greedy_cover({"a": {1}}, ["a", "a"])


matrices = st.dictionaries(
    st.integers(0, 40), st.frozensets(st.integers(0, 25), max_size=8), max_size=30
)


@settings(max_examples=300, deadline=None)
@given(matrices, st.randoms(use_true_random=False), st.integers(0, 5))
def test_cover_keeps_every_goal_and_is_minimal(requirements: dict[int, frozenset[int]],
                                              rng: object, kept: int) -> None:
    order = list(range(45))
    rng.shuffle(order)  # type: ignore[attr-defined]
    keep = order[:kept]
    chosen = greedy_cover(requirements, order, keep)
    assert satisfied(requirements, chosen) == satisfied(requirements, order)
    assert chosen[: len(keep)] == keep
    assert len(set(chosen)) == len(chosen)
    picked = chosen[len(keep):]
    # No picked test is redundant: each meets a goal nothing else chosen meets.
    for test in picked:
        others = satisfied(requirements, [t for t in chosen if t != test])
        assert requirements[test] - others
    assert greedy_cover(requirements, order, keep) == chosen  # deterministic


def test_shipped_profiles_are_the_papers_four() -> None:
    assert profile_names() == ["coverage", "full", "mutants", "offline", "samples"]
    full = load_profile("full")
    assert full.requirements == REQUIREMENTS
    assert load_profile("mutants").requirements == ("mutants",)
    assert all(load_profile(name).keep_base for name in profile_names())


def test_bad_profiles_are_one_line_errors(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such reduction profile; known: coverage"):
        load_profile("nope")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"requirements": ["speed"]}))
    with pytest.raises(InputError, match=r"bad\.json: 'requirements' must be"):
        load_profile_file(bad)
    bad.write_text("{\n oops")
    with pytest.raises(InputError, match=r"bad.json:2: invalid JSON"):
        load_profile_file(bad)
    bad.write_text(json.dumps({"requirements": ["mutants"], "keep_base": "yes"}))
    with pytest.raises(InputError, match="keep_base"):
        load_profile_file(bad)


def test_select_merges_kinds_without_collisions() -> None:
    # Goal 1 of "coverage" and goal 1 of "mutants" are different goals.
    both = Profile("both", ("coverage", "mutants"), keep_base=False)
    kinds = {"coverage": {0: {1}}, "mutants": {1: {1}}, "samples": {2: {7}}}
    assert select(both, kinds, [0, 1, 2]) == [0, 1]
    only = Profile("only", ("mutants",), keep_base=True)
    assert select(only, kinds, [2, 1, 0], base=[0]) == [0, 1]
    with pytest.raises(ValueError, match="needs samples"):
        select(Profile("s", ("samples",), False), {"coverage": {}}, [0])


kind_matrices = st.fixed_dictionaries({kind: matrices for kind in REQUIREMENTS})


@settings(max_examples=200, deadline=None)
@given(kind_matrices, st.integers(0, 6))
def test_every_profile_keeps_what_the_full_suite_meets(
    kinds: dict[str, dict[int, frozenset[int]]], n_base: int
) -> None:
    order = list(range(41))
    for name in profile_names():
        profile = load_profile(name)
        chosen = select(profile, kinds, order, base=list(range(n_base)))
        assert set(range(n_base)) <= set(chosen)
        for kind in profile.requirements:
            assert satisfied(kinds[kind], chosen) == satisfied(kinds[kind], order)
