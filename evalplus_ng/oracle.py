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

from evalplus_ng.types import Args, TaskId

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


def _find_zero(args: Args, expected: Any, actual: Any, atol: float) -> bool:
    """HumanEval/32: any x where the polynomial is within ``atol`` of zero passes."""
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


#: Per-task oracles that replace equality where many answers are right.
SPECIAL_ORACLES: dict[TaskId, SpecialOracle] = {"HumanEval/32": _find_zero}


def check(task_id: TaskId, args: Args, expected: Any, actual: Any, atol: float) -> bool:
    """Does ``actual`` pass for this input? ``args`` are the call's arguments."""
    special = SPECIAL_ORACLES.get(task_id)
    tolerance = effective_atol(expected, atol)
    if special is not None:
        return special(args, expected, actual, tolerance)
    return equal(expected, actual, tolerance)


class TypeStrictJudge:
    """:func:`check` as a :class:`evalplus_ng.types.Judge`, for the sandbox to judge with."""

    def check(self, task_id: TaskId, args: Args, expected: Any, actual: Any,
              atol: float) -> bool:
        """Does ``actual`` pass for this input? See :func:`check`."""
        return check(task_id, args, expected, actual, atol)

    def by_text(self, task_id: TaskId) -> bool:
        """Identical text passes, except on a task with its own oracle: that one always
        takes the full check."""
        return task_id not in SPECIAL_ORACLES


#: The judge a sandbox that runs jobs with expected outputs is given.
JUDGE = TypeStrictJudge()
