"""Type-strict comparison and per-task special oracles."""

from __future__ import annotations

import math

from evalplus_ng.oracle import check, effective_atol, equal


def test_types_must_match_exactly() -> None:
    assert equal(True, True)
    assert not equal(True, 1)
    assert not equal(1, True)
    assert not equal(3, 3.0)
    assert not equal([1, 2], (1, 2))
    assert not equal("1", 1)
    assert not equal(None, 0)
    assert not equal({1}, {True})
    assert not equal({1: "a"}, {True: "a"})


def test_an_int_is_accepted_where_a_float_is_expected() -> None:
    assert equal(2.0, 2, atol=1e-6)
    assert not equal(2.0, True, atol=1e-6)


def test_floats_within_tolerance_recursively() -> None:
    assert equal([1.0, (2.0, {"k": 3.0})], [1.0 + 1e-9, (2.0, {"k": 3.0 - 1e-9})], 1e-6)
    assert not equal([1.0], [1.1], 1e-6)
    assert not equal(1.0, 1.0 + 1e-9, 0.0)  # atol 0 means exact
    assert equal(math.nan, math.nan)
    assert equal([math.inf], [math.inf], 1e-6)
    assert not equal(math.inf, -math.inf, 1e-6)
    assert not equal(1.0, math.nan, 1e-6)


def test_float_default_tolerance_applies_only_when_floats_are_expected() -> None:
    assert effective_atol([1, 2.5], 0.0) == 1e-6
    assert effective_atol([1, 2], 0.0) == 0.0
    assert effective_atol(2.5, 1e-3) == 1e-3
    assert check("", [], 0.5, 0.5 + 1e-8, 0.0)


def test_containers_compare_lengths_keys_and_members() -> None:
    assert not equal([1, 2], [1, 2, 3])
    assert not equal({"a": 1}, {"a": 1, "b": 2})
    assert equal({"a": [1]}, {"a": [1]})
    assert equal(frozenset({1, 2}), frozenset({2, 1}))
    assert not equal({1, 2}, frozenset({1, 2}))


def test_find_zero_accepts_any_root() -> None:
    # x^2 - 1 has roots at 1 and -1; either passes whatever the reference returned.
    coefficients = [-1, 0, 1]
    assert check("polynomial_root", [coefficients], 1.0, -1.0, 1e-4)
    assert check("polynomial_root", [coefficients], 1.0, 1.00001, 1e-4)
    assert not check("polynomial_root", [coefficients], 1.0, 0.5, 1e-4)
    assert not check("polynomial_root", [coefficients], 1.0, "1.0", 1e-4)
    assert not check("polynomial_root", [coefficients], 1.0, math.nan, 1e-4)
