"""Output comparison: the trusted side of differential testing.

Values compared here are always decoded from the wire (see
:mod:`evalplus_ng.serialize`), so they are exact builtin types: an object whose
``__eq__`` lies never reaches this module. A task's
:attr:`~evalplus_ng.records.Task.equality` says how its outputs compare:

* :data:`~evalplus_ng.records.TYPED` (HumanEval's, the default), :func:`equal`:
  structural and typed. ``True`` is not ``1``, ``3.0`` is not ``3`` where an int is
  expected, and a tuple is not a list. Floats compare with an absolute tolerance (plus a
  tiny relative one, as ``numpy.allclose``) wherever they occur.
* :data:`~evalplus_ng.records.VALUE` (MBPP's), :func:`value_equal`: Python's ``==``, as
  the benchmark's ``assert f(x) == y`` defines right (``1 == 1.0 == True``; ``[1]`` is
  still not ``(1,)``), and floats within a tolerance as EvalPlus compares them.

In both, NaN equals NaN. A list the ``set`` oracle hashes must have its hashes spread
out (:func:`~evalplus_ng.serialize.spread`), as decoded sets and dicts do: an output
made to collide raises :class:`~evalplus_ng.serialize.Unjudgeable`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from evalplus_ng.records import (
    CHECKER_VERDICT,
    EQUALITIES,
    NOT_NONE,
    PROGRAM_EQUALITIES,
    TYPED,
    VALUE,
)
from evalplus_ng.serialize import spread
from evalplus_ng.textjudge import accepts, same_output
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
    """Set equality where ``{1} != {True}`` and ``{(1, 2)} != {(True, 2.0)}``: members
    must match in type as well as value, at every depth (floats exactly, as hashing does)."""
    keys = {(type(v), v) for v in expected}
    if keys != {(type(v), v) for v in actual}:
        return False
    # Equal at the top; members that hold others (tuples, frozensets) may still differ
    # in type below, which == does not see: compare their typed forms (rare: sets and
    # dict keys of plain members, most outputs, take no second pass).
    if not any(kind in _NESTED for kind, _ in keys):
        return True
    return {_typed(v) for v in expected} == {_typed(v) for v in actual}


#: Hashable values that hold others (what a set member or dict key may nest).
_NESTED = (tuple, frozenset)


def _typed(value: Any) -> Any:
    """A hashable stand-in for ``value`` equal to another's exactly when the two values
    are equal and of one type at every depth."""
    kind = type(value)
    if kind is tuple:
        return (tuple, tuple([_typed(v) for v in value]))
    if kind is frozenset:
        return (frozenset, frozenset([_typed(v) for v in value]))
    return (kind, value)


def _evalplus_floats(value: Any) -> bool:
    """EvalPlus's ``is_floats``: a float, or a non-empty list or tuple of floats only."""
    if type(value) is float:
        return True
    return type(value) in (list, tuple) and bool(value) and all(
        type(v) is float for v in value)


def value_atol(expected: Any, atol: float) -> float:
    """The tolerance of :data:`~evalplus_ng.records.VALUE` equality, EvalPlus's: the
    task's, or the float default when it is 0 and the expected output is a float or a
    flat list or tuple of floats (``is_floats``; deeper floats compare exactly)."""
    if atol == 0 and _evalplus_floats(expected):
        return DEFAULT_FLOAT_ATOL
    return atol


_NUMBERS = (bool, int, float, complex)


def same_value(expected: Any, actual: Any) -> bool:
    """``expected == actual`` as Python says (``1 == 1.0 == True``, ``{1} == frozenset({1})``,
    ``[1] != (1,)``), except that NaN equals NaN (in lists, tuples and dict values)."""
    kind, other = type(expected), type(actual)
    if kind in (list, tuple) or other in (list, tuple):
        return kind is other and len(expected) == len(actual) and all(
            same_value(e, a) for e, a in zip(expected, actual, strict=True))
    if kind is dict or other is dict:
        return (kind is other and expected.keys() == actual.keys()
                and all(same_value(v, actual[k]) for k, v in expected.items()))
    if kind is float and other is float:
        return expected == actual or (math.isnan(expected) and math.isnan(actual))
    if kind is complex and other is complex:
        return (same_value(expected.real, actual.real)
                and same_value(expected.imag, actual.imag))
    # Numbers of mixed kinds (exact: an int too large for a float is no float), strings,
    # bytes, None, sets: Python's own ==.
    return bool(expected == actual)


def _shape(value: Any) -> tuple[int, ...] | None:
    """The shape of the array numpy makes of ``value``: () for a number, None when it
    makes none to compare (ragged lists, strings, None, dicts, sets)."""
    kind = type(value)
    if kind in _NUMBERS:
        return ()
    if kind not in (list, tuple):
        return None
    shapes = {_shape(v) for v in value}
    if len(shapes) > 1 or None in shapes:
        return None
    inner = next(iter(shapes), ())
    assert inner is not None
    return (len(value), *inner)


def _numbers(value: Any) -> list[Any]:
    """The numbers of a (nested) list or tuple, in order."""
    if type(value) in (list, tuple):
        return [n for v in value for n in _numbers(v)]
    return [value]


def _all_close(expected: Any, actual: Any, atol: float) -> bool:
    """``numpy.allclose`` as EvalPlus calls it: numbers, or lists or tuples of them of one
    shape (list or tuple alike, as numpy makes arrays of both); anything else (strings,
    None, dicts, sets, ragged lists) is not close. Two ints compare exactly."""
    shape = _shape(expected)
    if shape is None or _shape(actual) != shape:
        return False
    return all(_close_numbers(e, a, atol)
               for e, a in zip(_numbers(expected), _numbers(actual), strict=True))


def _close_numbers(expected: Any, actual: Any, atol: float) -> bool:
    kind, other = type(expected), type(actual)
    if kind in (bool, int) and other in (bool, int):
        return bool(expected == actual)
    try:
        if complex in (kind, other):
            e, a = complex(expected), complex(actual)
            return _close(e.real, a.real, atol) and _close(e.imag, a.imag, atol)
        return _close(float(expected), float(actual), atol)
    except OverflowError:  # an int too large for a float is not close to any float
        return False


def value_equal(expected: Any, actual: Any, atol: float = 0.0) -> bool:
    """Equality as EvalPlus judges MBPP: ``expected == actual`` (:func:`same_value`), or,
    with a tolerance, an output of exactly the expected output's type (and length) whose
    numbers are within ``atol`` of the expected ones (:func:`_all_close`)."""
    return same_value(expected, actual) or _tolerated(expected, actual, atol)


def _tolerated(expected: Any, actual: Any, atol: float) -> bool:
    return atol != 0 and type(actual) is type(expected) and _all_close(expected, actual, atol)


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
        return _same_members(set(expected), set(spread(list(actual))))
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


def check(oracle: str, args: Args, expected: Any, actual: Any, atol: float,
          equality: str = TYPED) -> bool:
    """Does ``actual`` pass for this input? ``oracle`` names the task's special oracle
    ("" for equality); ``args`` are the call's arguments; ``equality`` is the task's
    (:data:`~evalplus_ng.records.EQUALITIES`), or a program's
    (:data:`~evalplus_ng.records.PROGRAM_EQUALITIES`: stdout as text,
    :mod:`evalplus_ng.textjudge`), or a checker's
    (:data:`~evalplus_ng.records.CHECKER_VERDICT`: its stdout accepts, whatever
    ``expected``)."""
    if equality in PROGRAM_EQUALITIES:
        return same_output(expected, actual, equality, atol)
    if equality == CHECKER_VERDICT:
        return accepts(actual)
    if equality == VALUE:
        return _value_check(oracle, args, expected, actual, atol)
    if equality != TYPED:
        raise ValueError(f"unknown equality {equality!r}; known: {', '.join(EQUALITIES)}")
    tolerance = effective_atol(expected, atol)
    if oracle:
        return _special(oracle)(args, expected, actual, tolerance)
    return equal(expected, actual, tolerance)


def _special(oracle: str) -> SpecialOracle:
    special = SPECIAL_ORACLES.get(oracle)
    if special is None:
        raise ValueError(f"unknown oracle {oracle!r}; known: {', '.join(SPECIAL_ORACLES)}")
    return special


def _value_check(oracle: str, args: Args, expected: Any, actual: Any, atol: float) -> bool:
    """EvalPlus's judgement of an MBPP output: the special oracle or ``==``, then, where
    those fail and there is a tolerance, closeness (``unsafe_execute``)."""
    tolerance = value_atol(expected, atol)
    if oracle == "set":  # the members, equal as == says; any iterable output
        try:
            passed = set(expected) == set(spread(list(actual)))
        except TypeError:  # not iterable, or an unhashable member: EvalPlus fails it
            return False
    elif oracle:
        passed = _special(oracle)(args, expected, actual, tolerance)
    else:
        return value_equal(expected, actual, tolerance)
    return passed or _tolerated(expected, actual, tolerance)


class TaskJudge:
    """:func:`check` as a :class:`evalplus_ng.protocols.Judge`, for the sandbox to judge with."""

    def check(self, oracle: str, args: Args, expected: Any, actual: Any,
              atol: float, equality: str = TYPED) -> bool:
        """Does ``actual`` pass for this input? See :func:`check`."""
        return check(oracle, args, expected, actual, atol, equality)

    def by_text(self, oracle: str) -> bool:
        """Identical text passes, except on a task with its own oracle: that one always
        takes the full check. (Identical text decodes to identical values, equal under
        either equality; the sandbox leaves NaN, which only :func:`check` equates, to it.)"""
        return not oracle


#: The judge a sandbox that runs jobs with expected outputs is given.
JUDGE = TaskJudge()
