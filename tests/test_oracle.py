"""Output comparison: type-strict (HumanEval), by value (MBPP) and special oracles."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalplus_ng.judge import check, effective_atol, equal
from evalplus_ng.records import TYPED, VALUE


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


def test_types_must_match_at_every_depth_of_set_members_and_dict_keys() -> None:
    # Python's == (and hashing) says {(1, 2)} == {(True, 2.0)}: typed equality must not.
    assert equal({(1, 2)}, {(1, 2)})
    assert not equal({(1, 2)}, {(True, 2.0)})
    assert not equal({(1, (2,))}, {(1, (2.0,))})
    assert not equal({frozenset({1})}, {frozenset({True})})
    assert not equal(frozenset({(0, frozenset({(1,)}))}), frozenset({(0, frozenset({(True,)}))}))
    assert not equal({(1, 2): "a"}, {(True, 2): "a"})
    assert not equal([{(1,)}], [{(True,)}])
    assert not equal(({(1,): {(2,)}},), ({(1,): {(2.0,)}},))
    assert equal({(1, "a"), (2, None)}, {(2, None), (1, "a")})
    assert equal({((1, 2.5), frozenset({"x"})): [1.0]}, {((1, 2.5), frozenset({"x"})): [1.0]})
    # Where a task has its own oracle (a set of the members) the same holds.
    assert check("set", ([],), [(1, 2)], [(1, 2)], 0.0)
    assert not check("set", ([],), [(1, 2)], [(True, 2.0)], 0.0)
    # MBPP's equality is Python's ==, as EvalPlus judges it: unchanged.
    assert check("", ([],), {(1, 2)}, {(True, 2.0)}, 0.0, VALUE)


#: Values a set member or dict key may be (hashable, nested), without NaN (NaN is not
#: equal to itself inside a set, where hashing decides).
_HASHABLE = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.floats(-3, 3, allow_nan=False)
    | st.text(max_size=2),
    lambda inner: st.tuples(inner, inner) | st.frozensets(inner, max_size=3),
    max_leaves=8)


@settings(max_examples=400, deadline=None)
@given(_HASHABLE, _HASHABLE)
def test_a_set_member_or_key_is_equal_exactly_when_the_values_are(a: object, b: object) -> None:
    # Members compare like the values themselves (atol 0: exactly), type for type: the
    # one leniency of a value, an int where a float is expected, is none in a member.
    exactly = equal(a, b) and not _int_for_float(a, b)
    assert equal({a}, {b}) == exactly
    assert equal({a: 0}, {b: 0}) == exactly
    assert equal([{a, "z"}], [{b, "z"}]) == exactly


def _int_for_float(expected: object, actual: object) -> bool:
    """Whether ``actual`` has an int where ``expected`` has a float (outside sets, where
    :func:`equal` accepts it)."""
    if type(expected) is float:
        return type(actual) is int
    if type(expected) is tuple and type(actual) is tuple and len(expected) == len(actual):
        return any(_int_for_float(e, x) for e, x in zip(expected, actual, strict=True))
    return False


def test_an_int_for_a_float_is_accepted_in_a_value_and_not_in_a_member() -> None:
    # The counterexample Hypothesis found to the property above before it said so.
    assert equal((0, 0.0), (0, 0))
    assert not equal({(0, 0.0)}, {(0, 0)})


def _retyped(value: object) -> object:
    """``value`` with each int inside turned into the bool or float of the same value."""
    if type(value) is int:
        return bool(value) if value in (0, 1) else float(value)
    if type(value) is tuple:
        return tuple(_retyped(v) for v in value)
    if type(value) is frozenset:
        return frozenset(_retyped(v) for v in value)
    return value


@settings(max_examples=400, deadline=None)
@given(_HASHABLE)
def test_an_int_turned_into_a_bool_or_float_anywhere_in_a_member_is_seen(a: object) -> None:
    assert equal({a}, {_retyped(a)}) == (not _holds_int(a))


def _holds_int(value: object) -> bool:
    if type(value) in (tuple, frozenset):
        return any(_holds_int(v) for v in value)  # type: ignore[attr-defined]
    return type(value) is int


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


# ----------------------------------------------------------- value equality (MBPP)


def value(expected: object, actual: object, atol: float = 0.0, oracle: str = "") -> bool:
    return check(oracle, [], expected, actual, atol, VALUE)


def test_value_equality_is_python_equality() -> None:
    assert value(3, 3.0) and value(1, True) and value(True, 1) and value(0, False)
    assert value([1, 2], [1.0, True + 1]) and value((1, "a"), (True, "a"))
    assert value({1: "a"}, {True: "a"}) and value({"k": [1]}, {"k": [1.0]})
    assert value({1, 2}, frozenset({2.0, True}))
    # ...where Python's == says different, so do we: a list is not a tuple
    assert [1] != (1,) and not value([1], (1,)) and not value((1,), [1])
    assert not value([[1]], [(1,)]) and not value({"k": [1]}, {"k": (1,)})
    assert not value("1", 1) and not value(None, 0) and not value(None, False)
    assert not value([1, 2], [1, 2, 3]) and not value({"a": 1}, {"a": 1, "b": 2})
    assert not value(3, 3.5) and not value(2, True)


def test_typed_equality_is_unchanged_by_the_value_mode() -> None:
    assert not check("", [], 3, 3.0, 0.0) and not check("", [], 3, 3.0, 0.0, TYPED)
    assert not check("", [], 1, True, 0.0, TYPED)
    assert check("", [], 2.0, 2, 1e-6, TYPED)  # an int within tolerance of a float
    with pytest.raises(ValueError, match="unknown equality 'loose'"):
        check("", [], 1, 1, 0.0, "loose")


def test_value_equality_handles_nan_inf_and_big_ints() -> None:
    assert value(math.nan, math.nan) and value([math.nan, 1], [math.nan, 1.0])
    assert value({"k": complex(math.nan, 1)}, {"k": complex(math.nan, 1)})
    assert not value(math.nan, 0.0) and not value(1.0, math.nan)
    assert value(math.inf, math.inf) and not value(math.inf, -math.inf)
    assert not value([math.inf], [1e308])
    # Python compares an int with a float exactly; no OverflowError, no rounding
    assert not value(10**400, math.inf) and not value(math.inf, 10**400)
    assert not value(10**400, 1e308, 1e-6) and not value(2**70, float(2**70) + 2**20, 1e-6)
    assert value(2**53, float(2**53)) and not value(2**53 + 1, float(2**53))
    # ints compare exactly even with a tolerance (numpy would turn them into floats)
    assert not value(10**8, 10**8 + 1, 1e-6) and not value(2**70, 2**70 + 1, 1e-6)


def test_value_tolerance_is_evalplus_allclose() -> None:
    # a float, or a flat list or tuple of floats: EvalPlus's default 1e-6 (``is_floats``)
    assert value(0.1 + 0.2, 0.3) and value([0.1 + 0.2, 1.0], [0.3, 1.0])
    assert not value(0.5, 0.5001)
    # deeper or mixed floats compare exactly unless the task has a tolerance
    assert not value([[0.1 + 0.2]], [[0.3]]) and not value((1, 0.1 + 0.2), (1, 0.3))
    assert value([[0.1 + 0.2]], [[0.3]], 1e-4) and value((1, 0.1 + 0.2), (1, 0.3), 1e-4)
    # within a tolerance, the output has the expected output's own type (not only ==)...
    assert value(3.0, 3) and not value(3.0000000000000004, 3)
    assert not value([0.1 + 0.2], (0.3,)) and not value(0.1 + 0.2, [0.3])
    # ...and numbers of one shape inside (numpy takes lists and tuples alike there)
    assert value([(0.1 + 0.2, 1.0)], [[0.3, 1.0]], 1e-4)
    assert not value([[0.1 + 0.2], [1.0]], [[0.3], [1.0, 2.0]], 1e-4)  # ragged
    assert not value([0.1 + 0.2, "a"], [0.3, "a"], 1e-4)  # strings: no numbers to compare
    assert not value({"k": 0.1 + 0.2}, {"k": 0.3}, 1e-4)  # dicts and sets: == alone
    assert not value({0.1 + 0.2}, {0.3}, 1e-4)


def test_value_mode_keeps_the_special_oracles() -> None:
    assert value((4, 5), [5, 4, 4], oracle="set") and value((1,), [True], oracle="set")
    assert value(("4", "5"), "45", oracle="set")  # EvalPlus: set(out) == set(exp)
    assert not value((4, 5), (4,), oracle="set") and not value((4, 5), 45, oracle="set")
    assert not value((4, 5), [[4], [5]], oracle="set")  # unhashable members
    assert not check("set", [], (1,), [True], 0.0, TYPED)  # typed: {1} is not {True}
    assert value(True, True, oracle="not_none") and not value(True, 1, oracle="not_none")
    assert not value(True, False, oracle="not_none")
