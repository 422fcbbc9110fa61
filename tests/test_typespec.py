"""Annotation specs: parsing, strict matching, inference from examples."""

from __future__ import annotations

import pytest

from evalplus_ng.typespec import SpecError, conform, infer, matches, parse


@pytest.mark.parametrize(
    ("annotation", "good", "bad"),
    [
        ("int", [0, -5, 10**30], [True, 1.0, "1", None]),
        ("float", [0.0, -1.5], [1, True, "1.0"]),
        ("float | int", [1, 1.5], [True, "1"]),
        ("bool", [True, False], [0, 1]),
        ("str", ["", "abc"], [b"abc", ["a"]]),
        ("List[int]", [[], [1, 2]], [(1, 2), [1, True], [1.0], "12"]),
        ("list", [[], [1, "a"]], [(1,), {}]),
        ("Tuple[int, str]", [(1, "a")], [(1,), (1, "a", 2), [1, "a"], ("a", 1)]),
        ("Tuple[int, ...]", [(), (1, 2, 3)], [(1, "a"), [1]]),
        ("Dict[str, int]", [{}, {"a": 1}], [{1: 1}, {"a": "1"}, [("a", 1)]]),
        ("Optional[List[str]]", [None, ["a"]], [[None], "a"]),
        ("Union[int, str]", [1, "a"], [1.0, None]),
        ("List[Tuple[int, int]]", [[(1, 2)]], [[[1, 2]], [(1, 2, 3)]]),
        ("Set[int]", [{1, 2}, set()], [[1], frozenset({1})]),
        ("Any", [1, None, object()], []),
    ],
)
def test_strict_matching(annotation: str, good: list[object], bad: list[object]) -> None:
    spec = parse(annotation)
    assert all(matches(value, spec) for value in good), annotation
    assert not any(matches(value, spec) for value in bad), annotation


def test_unsupported_annotations_are_errors() -> None:
    for text in ("Callable[[int], int]", "MyClass", "List[int, str]"):
        with pytest.raises(SpecError):
            parse(text)


def test_inference_is_the_narrowest_common_spec() -> None:
    assert str(infer([1, 2, 3])) == "int"
    assert str(infer([[1], [2, 3], []])) == "list[int]"
    assert str(infer([1, 2.5])) == "union[int, float]"
    assert str(infer([(1, "a"), (2, "b")])) == "tuple[int, str]"
    assert str(infer([(1,), (1, 2)])) == "tuple[int, ...]"
    assert str(infer([{"a": 1}, {5: 2}])) == "dict[union[str, int], int]"
    assert str(infer([])) == "any"
    assert not matches(True, infer([1, 2]))


@pytest.mark.parametrize(
    ("annotation", "value", "expected"),
    [
        ("float", 3, 3.0),
        ("List[float]", [1, 2.5, -3], [1.0, 2.5, -3.0]),
        ("Tuple[float, int]", (1, 2), (1.0, 2)),
        ("Tuple[float, ...]", (1, 2), (1.0, 2.0)),
        ("Dict[str, float]", {"a": 1}, {"a": 1.0}),
        ("Optional[float]", 2, 2.0),
        ("Union[int, float]", 2, 2),        # already matches: unchanged
        ("float", True, True),              # a bool is not a number here
        ("float", 2**60, 2**60),            # not exact as a float: unchanged
        ("List[float]", [1, "a"], [1.0, "a"]),  # still invalid; the contract says so
        ("int", 2.0, 2.0),                  # never the other way
        ("str", 1, 1),
    ],
)
def test_conform_writes_ints_as_floats_where_floats_are_wanted(
        annotation: str, value: object, expected: object) -> None:
    converted = conform(value, parse(annotation))
    assert converted == expected and repr(converted) == repr(expected)


def test_a_mixed_set_infers_the_same_spec_under_any_hash_seed() -> None:
    # A set's iteration order follows the string hash; the inferred union must not.
    import os
    import subprocess
    import sys

    code = ("from evalplus_ng.typespec import infer; "
            "print(infer([{'a', 1, 'b', 2.5, (1, 'x'), 'c', None}]))")
    seen = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, env={**os.environ, "PYTHONHASHSEED": str(seed)}).stdout
            for seed in range(8)}
    assert len(seen) == 1, seen
