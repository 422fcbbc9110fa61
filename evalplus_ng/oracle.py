"""Type-strict output comparison: the trusted side of differential testing.

Values compared here are always decoded from the wire (see
:mod:`evalplus_ng.serialize`), so they are exact builtin types: an object whose
``__eq__`` lies never reaches this module. Equality is structural and typed:
``True`` is not ``1``, ``3.0`` is not ``3`` where an int is expected, and a
tuple is not a list. Floats compare with an absolute tolerance (plus a tiny
relative one, as ``numpy.allclose``); NaN equals NaN.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from evalplus_ng.records import NOT_NONE
from evalplus_ng.types import Args

#: Used when a task's atol is 0 but its expected output holds floats.
DEFAULT_FLOAT_ATOL = 1e-6
RTOL = 1e-7

SpecialOracle = Callable[[Args, Any, Any, float], bool]


def holds_float(value: Any) -> bool:
    """True when a float occurs anywhere inside ``value``."""
    kind = type(value)
    if kind is float:
        return True
    if kind in (list, tuple, set, frozenset):
        return any(holds_float(v) for v in value)
    if kind is dict:
        return any(holds_float(k) or holds_float(v) for k, v in value.items())
    return False


def effective_atol(expected: Any, atol: float) -> float:
    """The tolerance to use: the task's, or the float default when it is 0."""
    if atol == 0 and holds_float(expected):
        return DEFAULT_FLOAT_ATOL
    return atol


def _close(expected: float, actual: float, atol: float) -> bool:
    if math.isnan(expected) or math.isnan(actual):
        return math.isnan(expected) and math.isnan(actual)
    if math.isinf(expected) or math.isinf(actual) or atol == 0:
        return expected == actual
    return abs(actual - expected) <= atol + RTOL * abs(expected)


def equal(expected: Any, actual: Any, atol: float = 0.0) -> bool:
    """Typed structural equality of two plain values, floats within ``atol``."""
    kind = type(expected)
    if kind is float:
        # An int where a float is expected is a number of the right value: accept it.
        if type(actual) not in (float, int):
            return False
        try:
            return _close(expected, float(actual), atol)
        except OverflowError:  # an int too large for a float is not close to any float
            return False
    if type(actual) is not kind:
        return False
    if kind in (list, tuple):
        return len(expected) == len(actual) and all(
            equal(e, a, atol) for e, a in zip(expected, actual, strict=True)
        )
    if kind is dict:
        if not _same_members(expected.keys(), actual.keys()):
            return False
        return all(equal(v, actual[k], atol) for k, v in expected.items())
    if kind is complex:
        return _close(expected.real, actual.real, atol) and _close(
            expected.imag, actual.imag, atol
        )
    if kind in (set, frozenset):
        return _same_members(expected, actual)
    # Strings, ints, bools, bytes, None: exact values of one exact type.
    return bool(expected == actual)


def _same_members(expected: Any, actual: Any) -> bool:
    """Set equality where ``{1} != {True}``: members must match in type as well as value."""
    return {(type(v), v) for v in expected} == {(type(v), v) for v in actual}


def _polynomial_root(args: Args, expected: Any, actual: Any, atol: float) -> bool:
    """HumanEval/32 (``find_zero``): any x where the polynomial is within ``atol`` of
    zero passes."""
    if type(actual) not in (float, int):
        return False
    xs = args[0]
    x = float(actual)
    if not math.isfinite(x):
        return False
    try:
        value = math.fsum(coeff * math.pow(x, i) for i, coeff in enumerate(xs))
    except OverflowError:
        return False
    return abs(value) <= atol


def _same_set(args: Args, expected: Any, actual: Any, atol: float) -> bool:
    """The output is a collection whose members, as a set, are the expected ones (MBPP
    tasks whose order is unspecified, e.g. Mbpp/2 ``similar_elements``)."""
    if type(actual) not in (list, tuple, set, frozenset):
        return False
    try:
        return _same_members(set(expected), set(actual))
    except TypeError:  # an unhashable member
        return False


def _truth(args: Args, expected: Any, actual: Any, atol: float) -> bool:
    """A bool that says whether the reference's output was not None (MBPP tasks whose
    reference returns a ``re.Match``: Mbpp/737 ``check_str``). The sandbox's child
    sends ``output if type(output) is bool else output is not None`` for such a job
    (:data:`evalplus_ng.records.NOT_NONE`), as EvalPlus judges these tasks."""
    return type(actual) is bool and actual == expected


#: Oracles that replace equality where more than one output is right, by name. A task
#: names its oracle in :attr:`evalplus_ng.records.Task.oracle` (the dataset's data).
SPECIAL_ORACLES: dict[str, SpecialOracle] = {
    "polynomial_root": _polynomial_root,
    "set": _same_set,
    NOT_NONE: _truth,
}


def check(oracle: str, args: Args, expected: Any, actual: Any, atol: float) -> bool:
    """Does ``actual`` pass for this input? ``oracle`` names the task's special oracle
    ("" for typed equality); ``args`` are the call's arguments."""
    tolerance = effective_atol(expected, atol)
    if oracle:
        special = SPECIAL_ORACLES.get(oracle)
        if special is None:
            raise ValueError(f"unknown oracle {oracle!r}; known: {', '.join(SPECIAL_ORACLES)}")
        return special(args, expected, actual, tolerance)
    return equal(expected, actual, tolerance)


class TypeStrictJudge:
    """:func:`check` as a :class:`evalplus_ng.types.Judge`, for the sandbox to judge with."""

    def check(self, oracle: str, args: Args, expected: Any, actual: Any,
              atol: float) -> bool:
        """Does ``actual`` pass for this input? See :func:`check`."""
        return check(oracle, args, expected, actual, atol)

    def by_text(self, oracle: str) -> bool:
        """Identical text passes, except on a task with its own oracle: that one always
        takes the full check."""
        return not oracle


#: The judge a sandbox that runs jobs with expected outputs is given.
JUDGE = TypeStrictJudge()
