"""Formulas of a statement's bounds: what they admit, read and compute."""

from __future__ import annotations

from fractions import Fraction

import pytest

from evalplus_ng.generate.programs.formula import Formula


def test_a_formula_computes_exactly_over_its_variables() -> None:
    half = Formula.parse("n * (n - 1) / 2")
    assert half is not None and half.names() == {"n"}
    assert half.value({"n": 5}) == 10
    assert half.value({"n": 4, "m": 9}) == 6
    assert Formula("n / 3").value({"n": 2}) == Fraction(2, 3)
    assert Formula("min(n, m) - 1").value({"n": 3, "m": 7}) == 2
    assert Formula("min(n, m)").names() == {"n", "m"}
    assert Formula("2 ** k - 1").value({"k": 30}) == 2 ** 30 - 1


def test_a_formula_without_its_values_or_a_value_has_none() -> None:
    assert Formula("n + m").value({"n": 1}) is None
    assert Formula("n + m").value({"n": 1, "m": "ab"}) is None
    assert Formula("1 / (n - 1)").value({"n": 1}) is None
    assert Formula("2 ** k").value({"k": 10 ** 6}) is None  # no power out of reach


@pytest.mark.parametrize("text", ["__import__('os')", "n.real", "[n]", "n if m else 1",
                                  "f(n, m)", "min(n)", "1 +", "'a' * 3", "n < m"])
def test_only_arithmetic_parses(text: str) -> None:
    assert Formula.parse(text) is None


def test_a_formula_renamed_reads_the_new_names() -> None:
    renamed = Formula("min(n, m) + n").renamed({"n": "x1", "m": "x2"})
    assert str(renamed) == "min(x1, x2) + x1"
    assert renamed.value({"x1": 2, "x2": 5}) == 4
