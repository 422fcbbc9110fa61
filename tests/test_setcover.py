"""Greedy set cover and reduction profiles: literal dicts and Hypothesis properties."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalplus_ng.errors import InputError
from evalplus_ng.reduce.profiles import (
    REQUIREMENTS,
    Profile,
    load_profile,
    load_profile_file,
    profile_names,
    select,
)
from evalplus_ng.reduce.setcover import fill_across, fill_masks, greedy_cover, satisfied


def test_picks_the_test_meeting_most_goals_first() -> None:
    requirements = {"a": {1, 2}, "b": {1, 2, 3, 4}, "c": {5}}
    assert greedy_cover(requirements, ["a", "b", "c"]) == ["b", "c"]


def test_ties_go_to_the_earlier_test_in_order() -> None:
    requirements = {"x": {1}, "y": {1}}
    assert greedy_cover(requirements, ["x", "y"]) == ["x"]
    assert greedy_cover(requirements, ["y", "x"]) == ["y"]


def test_among_equal_gains_the_test_meeting_more_goals_in_all_wins() -> None:
    # "small" and "rich" both meet the one goal left (3); "rich" also meets goals
    # already met (1, 2): it shows more at once, and wins over the earlier "small".
    requirements = {"base": {1, 2}, "small": {3}, "rich": {1, 2, 3}}
    assert greedy_cover(requirements, ["base", "small", "rich"], keep=["base"]) == [
        "base", "rich"]
    # The gain on unmet goals still comes first.
    requirements = {"base": {1, 2}, "rich": {1, 2, 3}, "wide": {3, 4}}
    assert greedy_cover(requirements, ["base", "rich", "wide"], keep=["base"]) == [
        "base", "wide"]


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


def test_fill_meets_the_least_met_goals_first() -> None:
    # Test 0 meets goals 0 and 1 once; goal 2 is met by nobody chosen yet. Test 2 meets
    # that one goal at count 0, test 1 two goals at count 1: the least met goal wins.
    masks = {0: 0b011, 1: 0b011, 2: 0b100}
    assert fill_masks(masks, [0, 1, 2], [0], budget=2) == [0, 2]
    assert fill_masks(masks, [0, 1, 2], [0], budget=3) == [0, 2, 1]
    # Among equals, more goals at the lowest count, then the earlier test.
    masks = {0: 0b11, 1: 0b01, 2: 0b10, 3: 0b11}
    assert fill_masks(masks, [0, 1, 2, 3], [0], budget=2) == [0, 3]
    assert fill_masks(masks, [0, 1, 2, 3], [0], budget=3) == [0, 3, 1]
    # The budget counts the chosen tests; tests without goals never come in.
    assert fill_masks({0: 1, 1: 0}, [0, 1], [0], budget=5) == [0]
    assert fill_masks(masks, [0, 1, 2, 3], [0, 1, 2], budget=2) == [0, 1, 2]


@settings(max_examples=200, deadline=None)
@given(matrices, st.integers(0, 30))
def test_a_filled_cover_meets_each_goal_twice_where_the_suite_can(
        requirements: dict[int, frozenset[int]], extra: int) -> None:
    order = list(range(45))
    chosen = greedy_cover(requirements, order)
    goals = sorted(satisfied(requirements, order))
    masks = {t: sum(1 << goals.index(g) for g in met) for t, met in requirements.items()}
    budget = len(chosen) + extra
    filled = fill_masks(masks, order, chosen, budget)
    assert filled[: len(chosen)] == chosen and len(set(filled)) == len(filled)
    assert len(filled) <= budget
    useful = [t for t in order if requirements.get(t)]
    assert len(filled) == min(budget, len(useful))

    def times(goal: int, tests: list[int]) -> int:
        return sum(goal in requirements.get(t, ()) for t in tests)

    # While some goal is met once and could be met again, each pick meets one of them:
    # one more pick per goal is enough to meet every goal twice.
    if extra >= len(goals):
        assert all(times(g, filled) >= min(2, times(g, order)) for g in goals)


def test_shipped_profiles() -> None:
    assert profile_names() == ["coverage", "full", "mutants", "offline", "samples", "stress"]
    assert [load_profile(n).suite for n in profile_names()].count("stress") == 1
    full, offline = load_profile("full"), load_profile("offline")
    assert sorted(full.requirements) == sorted(REQUIREMENTS)
    assert "samples" not in offline.requirements
    # full adds the sample kills and faults on top of everything offline keeps.
    assert full.steps == (offline.requirements, ("samples", "faults"))
    assert load_profile("mutants").requirements == ("mutants",)
    assert all(load_profile(name).keep_base for name in profile_names())


def test_a_later_stage_only_adds_tests() -> None:
    # One cover of both kinds takes test 2 alone; offline's choice (0) then samples' (1)
    # keeps test 0, which a later stage may never drop.
    kinds = {"coverage": {0: {1}, 2: {1}}, "samples": {1: {5}, 2: {5}}}
    one = Profile("one", ("coverage", "samples"), keep_base=False)
    staged = Profile("staged", ("coverage", "samples"), keep_base=False,
                     stages=(("coverage",), ("samples",)))
    assert select(one, kinds, [0, 1, 2]) == [2]
    first = select(Profile("c", ("coverage",), False), kinds, [0, 1, 2])
    assert first == [0]
    assert set(first) <= set(select(staged, kinds, [0, 1, 2])) == {0, 1}


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
    bad.write_text(json.dumps({"requirements": ["mutants"], "budget": 0}))
    with pytest.raises(InputError, match="'budget' must be a positive integer"):
        load_profile_file(bad)
    bad.write_text(json.dumps({"requirements": ["mutants"], "suite": "mini"}))
    with pytest.raises(InputError, match="'suite' must be plus or stress"):
        load_profile_file(bad)
    bad.write_text(json.dumps({"requirements": ["mutants", "cost"], "stages": [["mutants"]]}))
    with pytest.raises(InputError, match="'stages' must be non-empty lists"):
        load_profile_file(bad)
    for fill in ({"kinds": ["classes"], "mean": 16}, {"kinds": ["mutants"], "mean": 0},
                 {"kinds": ["mutants"]}, {"kinds": [], "mean": 16}, [16]):
        bad.write_text(json.dumps({"requirements": ["mutants"], "fill": fill}))
        with pytest.raises(InputError, match="'fill' must be"):
            load_profile_file(bad)
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"requirements": ["mutants"], "fill": {"kinds": ["mutants"],
                                                                      "mean": 2.5}}))
    assert (load_profile_file(good).fill, load_profile_file(good).mean) == (("mutants",), 2.5)


def test_fill_across_tasks_spends_the_budget_where_goals_are_met_once() -> None:
    # Task a: goal 1 met once by its chosen test 0; tests 1 and 2 meet it again.
    # Task b: its goals are met twice already; task c: tests 5 and 6 meet goals 1 and 2
    # (once each so far) and test 7 meets nothing.
    a = ({0: 0b1, 1: 0b1, 2: 0b11}, [0, 1, 2], [0])
    b = ({3: 0b1, 4: 0b1, 9: 0b1}, [3, 4, 9], [3, 4])
    c = ({4: 0b11, 5: 0b11, 6: 0b01, 7: 0}, [4, 5, 6, 7], [4])
    # Budget for two more tests: c's test 5 (two goals met once), then a's test 1 (one met
    # once; test 2's other goal, met by no chosen test, does not count: the earlier wins).
    assert fill_across([a, b, c], 6) == [[0, 1], [3, 4], [4, 5]]
    # Enough budget: every test meeting a goal met once or twice, none meeting nothing.
    assert fill_across([a, b, c], 99) == [[0, 1, 2], [3, 4, 9], [4, 5, 6]]
    # No budget left: the covers as they were.
    assert fill_across([a, b, c], 4) == [[0], [3, 4], [4]]


@given(st.lists(st.dictionaries(st.integers(0, 9), st.integers(0, 63), max_size=10),
                min_size=1, max_size=4), st.integers(0, 30))
@settings(max_examples=60, deadline=None)
def test_fill_across_keeps_the_covers_and_the_budget(tasks: list[dict[int, int]],
                                                     total: int) -> None:
    given_tasks = [(masks, sorted(masks), sorted(masks)[:1]) for masks in tasks]
    filled = fill_across(given_tasks, total)
    for (masks, _order, chosen), result in zip(given_tasks, filled, strict=True):
        assert result[:len(chosen)] == chosen and len(set(result)) == len(result)
        assert all(masks[t] for t in result[len(chosen):])  # only tests meeting goals
    assert sum(map(len, filled)) <= max(total, sum(len(c) for _m, _o, c in given_tasks))


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
