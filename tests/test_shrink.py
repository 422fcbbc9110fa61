"""The shrinker: simpler inputs that still show a defect, deterministically."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from evalplus_ng.generate.shrink import SIMPLE_CHARS, candidates, cost, shrink
from evalplus_ng.types import Args


def holds_when(predicate: Callable[..., bool], log: list[Args] | None = None
               ) -> Callable[[Sequence[Args]], list[bool]]:
    def batch(inputs: Sequence[Args]) -> list[bool]:
        if log is not None:
            log.extend(inputs)
        return [predicate(*args) for args in inputs]
    return batch


def test_integers_shrink_toward_zero_to_the_boundary() -> None:
    assert shrink([1_000_000], holds_when(lambda n: n >= 27)) == [27]
    assert shrink([-5000], holds_when(lambda n: n <= -3)) == [-3]
    # Sign flips count as simpler: a negative that is not needed becomes positive.
    assert shrink([-5000], holds_when(lambda n: abs(n) >= 7)) == [7]


def test_a_buggy_unit_digit_is_shrunk_to_the_smallest_negative() -> None:
    def buggy(a: int, b: int) -> int:
        return abs(a % 10) * abs(b % 10)

    def fixed(a: int, b: int) -> int:
        return (abs(a) % 10) * (abs(b) % 10)

    assert shrink([-123456, 987], holds_when(lambda a, b: buggy(a, b) != fixed(a, b))) == [-1, 1]


def test_collections_lose_elements_and_elements_get_simpler() -> None:
    witness = shrink([[5, 300, -57, 12, -1000, 8]],
                     holds_when(lambda xs: any(-100 < x <= -10 for x in xs)))
    assert witness == [[-10]]
    assert shrink([("x", 9, 9)], holds_when(lambda t: len(t) >= 2)) == [(0, 0)]
    assert shrink([{"alpha": "x", "BETA": "yy", "g": "z"}],
                  holds_when(lambda d: any(k.isupper() for k in d))) == [{"A": ""}]


def test_strings_get_shorter_then_simpler_characters() -> None:
    text = "Hello there. You and I are bored!"
    assert shrink([text], holds_when(lambda s: "I" in s.split())) == ["I"]
    assert shrink(["xyz!?"], holds_when(lambda s: len(s) >= 2)) == ["aa"]


def test_lengths_tied_to_an_integer_argument_shrink_together() -> None:
    # k <= len(arr) is part of validity: deleting an element needs k lowered too.
    def valid(args: Args) -> bool:
        arr, k = args
        return 1 <= k <= len(arr)

    witness = shrink([[0, 0, 0, 0, 0, 0, -10], 7],
                     holds_when(lambda arr, k: -10 in arr[:k]), valid)
    assert witness == [[-10], 1]


def test_invalid_candidates_are_never_tried_or_returned() -> None:
    tried: list[Args] = []
    witness = shrink([101], holds_when(lambda n: n > 10, tried), lambda args: args[0] % 2 == 1)
    assert witness == [11]
    assert all(args[0] % 2 == 1 for args in tried)


def test_result_does_not_depend_on_batch_size() -> None:
    def predicate(xs: list[int], s: str) -> bool:
        return sum(xs) > 50 and "b" in s

    start: Args = [[40, 30, 20, 10, 5], "abcabc"]
    results = {str(shrink(start, holds_when(predicate), batch=size)) for size in (1, 3, 64)}
    # A local minimum: lowering either number breaks sum > 50.
    assert results == {str([[21, 30], "b"])}


def test_max_checks_bounds_the_work() -> None:
    tried: list[Args] = []
    shrink([[7] * 50], holds_when(lambda xs: True, tried), max_checks=10, batch=4)
    assert len(tried) <= 10


values = st.recursive(
    st.integers(-10**6, 10**6) | st.text(max_size=8) | st.booleans()
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner,
                                                                   max_size=3),
    max_leaves=8,
)


@settings(max_examples=60, deadline=None)
@given(st.lists(values, min_size=1, max_size=3))
def test_every_candidate_is_strictly_cheaper(args: list[Any]) -> None:
    bound = cost(args)
    for count, candidate in enumerate(candidates(args)):
        assert cost(candidate) < bound
        if count > 200:
            break


@settings(max_examples=40, deadline=None)
@given(st.lists(values, min_size=1, max_size=3))
def test_shrinking_something_always_true_reaches_a_fixed_point(args: list[Any]) -> None:
    witness = shrink(args, holds_when(lambda *_a: True), max_checks=100_000)
    assert cost(witness) <= cost(args)
    assert next(candidates(witness), None) is None


@given(st.text() | st.text(alphabet=SIMPLE_CHARS + "b1B\t\ud800"))
def test_the_character_rank_of_a_string_is_the_sum_of_its_characters_ranks(text: str) -> None:
    # cost() prices a string at C speed; it must equal the plain per-character sum.
    def rank(char: str) -> int:
        index = SIMPLE_CHARS.find(char)
        return index if index >= 0 else len(SIMPLE_CHARS) + ord(char)

    assert cost(text)[3] == sum(rank(c) for c in text)
    assert cost([text, text])[3] == 2 * cost(text)[3]
