"""Wire serialization: round trips keep exact types; canonical keys are stable."""

from __future__ import annotations

import math
import subprocess
import sys
from collections import Counter, OrderedDict
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalplus_ng.serialize import (
    Unserializable,
    _canonical_wire,
    _dump,
    canonical,
    decode,
    dumps,
    encode,
    loads,
    nested,
)

scalars = (
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
    | st.text(max_size=8) | st.binary(max_size=8)
)
hashables = st.recursive(scalars, lambda inner: st.tuples(inner, inner), max_leaves=6)
values = st.recursive(
    scalars | hashables,
    lambda inner: st.lists(inner, max_size=4)
    | st.tuples(inner, inner)
    | st.dictionaries(hashables, inner, max_size=4)
    | st.frozensets(hashables, max_size=4)
    | st.sets(hashables, max_size=4),
    max_leaves=20,
)


def same(a: Any, b: Any) -> bool:
    """Equal and of the same types all the way down."""
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    return bool(a == b)


@given(values)
def test_round_trip_keeps_types(value: Any) -> None:
    assert same(decode(loads(dumps(encode(value)))), value)


@given(values)
def test_canonical_is_deterministic_and_text_stable(value: Any) -> None:
    assert canonical(value) == canonical(decode(loads(dumps(encode(value)))))


homogeneous = (st.lists(st.integers()) | st.lists(st.text(max_size=4))
               | st.lists(st.floats()) | st.lists(st.floats(allow_nan=False)))


@given(values | homogeneous | st.tuples(homogeneous) | st.floats())
def test_canonical_fast_paths_write_the_wire_trees_text(value: Any) -> None:
    # canonical writes lists, tuples and scalars directly; it must give exactly the
    # text of its definition (the sorted wire tree's JSON), which other stored orders use.
    assert canonical(value) == _dump(_canonical_wire(encode(value)))


def test_one_one_point_zero_and_true_differ() -> None:
    keys = {canonical(1), canonical(1.0), canonical(True), canonical("1"), canonical([1]),
            canonical((1,))}
    assert len(keys) == 6


def test_dict_order_does_not_change_the_canonical_key() -> None:
    assert canonical({"a": 1, "b": 2}) == canonical({"b": 2, "a": 1})
    assert canonical({1: "x"}) != canonical({"1": "x"})


def test_nan_infinities_and_big_ints_survive() -> None:
    decoded = decode(loads(dumps(encode([math.nan, math.inf, -math.inf, 10**5000]))))
    assert math.isnan(decoded[0]) and decoded[1:3] == [math.inf, -math.inf]
    assert decoded[3] == 10**5000
    assert canonical(math.nan) == canonical(float("nan"))


def test_lying_objects_are_refused() -> None:
    class AlwaysEqual:
        def __eq__(self, other: object) -> bool:
            return True

    class LyingInt(int):
        def __eq__(self, other: object) -> bool:
            return True

    for value in (AlwaysEqual(), LyingInt(3), [1, LyingInt(2)], {"k": AlwaysEqual()}):
        with pytest.raises(Unserializable):
            encode(value)


def test_stdlib_dicts_and_numpy_scalars_become_plain() -> None:
    np = pytest.importorskip("numpy")
    assert decode(encode(Counter("aab"))) == {"a": 2, "b": 1}
    assert type(decode(encode(OrderedDict(a=1)))) is dict
    assert decode(encode(np.int64(5))) == 5 and type(decode(encode(np.int64(5)))) is int
    assert type(decode(encode(np.float64(0.5)))) is float
    assert type(decode(encode(np.bool_(True)))) is bool


def test_malformed_wire_is_rejected() -> None:
    for wire in ({"zz": 1}, {"t": [1], "s": [2]}, {"d": 5}):
        with pytest.raises((ValueError, TypeError)):
            decode(wire)


def test_canonical_is_the_same_in_another_process() -> None:
    value = {"b": (1, 2.5, None), "a": frozenset({3, 1}), 7: [True, b"x"]}
    code = (
        "from evalplus_ng.serialize import canonical;"
        "print(canonical({'b': (1, 2.5, None), 'a': frozenset({3, 1}), 7: [True, b'x']}))"
    )
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, env={"PYTHONHASHSEED": "123", "PATH": ""},
                           cwd=str(__import__("pathlib").Path(__file__).parent.parent))
    assert other.stdout.strip() == canonical(value)


def test_nested_walks_every_value_depth_first_keys_before_values() -> None:
    value = [1, (2, "ab"), {"k": [3]}, frozenset({4})]
    assert list(nested(value)) == [value, 1, (2, "ab"), 2, "ab", {"k": [3]}, "k", [3], 3,
                                   frozenset({4}), 4]
    assert list(nested("text")) == ["text"]  # a string is no container of its letters
