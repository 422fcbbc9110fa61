"""A program's stdout against the expected text, as a contest judge's checker compares them.

Two rules (a program task's :attr:`~evalplus_ng.records.ProgramTask.equality`):

* :data:`~evalplus_ng.records.LINES` (the default), :func:`same_lines`: CodeContests'
  ``run.sh``. Line by line, after stripping trailing whitespace on each line and dropping
  trailing blank lines; leading whitespace and blank lines inside count. (``run.sh`` strips
  spaces and tabs; a carriage return counts as trailing whitespace here too, so a program
  that ends its lines with ``\\r\\n`` is not wrong.)
* :data:`~evalplus_ng.records.TOKENS`, :func:`same_tokens`: the tokens between whitespace
  (its amount and kind do not count, nor do line breaks), as testlib's ``wcmp`` reads
  them; with a tolerance, two numbers that are not both integers pass when the absolute or
  the relative error is within it (testlib's ``doubleCompare``). Integers compare exactly
  even then: a float would round two large ones to one.

Pure functions of two strings: the sandbox's parent calls them through
:func:`evalplus_ng.judge.check`, on text decoded from the wire. So it reads a task's
checker program's verdict too (:func:`accepts`; the protocol: :mod:`evalplus_ng.checker`).
"""

from __future__ import annotations

import math
import re

from evalplus_ng.records import LINES, PROGRAM_EQUALITIES, TOKENS

#: What ``same_lines`` strips from the end of each line.
TRAILING = " \t\r\f\v"
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_INTEGER = re.compile(r"[+-]?\d+")
#: Slack on top of a tolerance for the rounding of the two floats themselves (testlib's).
_EPSILON = 1e-15
#: The first token of a checker's stdout that accepts an output, in any case.
ACCEPT = "ok"


def lines_of(text: str) -> list[str]:
    """``text``'s lines as :func:`same_lines` compares them: each without its trailing
    whitespace, trailing blank lines dropped."""
    lines = [line.rstrip(TRAILING) for line in text.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def same_lines(expected: str, actual: str) -> bool:
    """Equal line by line, but for trailing whitespace and trailing blank lines."""
    return expected == actual or lines_of(expected) == lines_of(actual)


def close_numbers(expected: str, actual: str, tolerance: float) -> bool:
    """Two number tokens within ``tolerance`` (absolute or relative to ``expected``); two
    integer tokens by value, exactly; anything else is not a pair of numbers."""
    if not (_NUMBER.fullmatch(expected) and _NUMBER.fullmatch(actual)):
        return False
    if _INTEGER.fullmatch(expected) and _INTEGER.fullmatch(actual):
        return int(expected) == int(actual)
    want, got = float(expected), float(actual)
    if not (math.isfinite(want) and math.isfinite(got)):  # past the float range
        return want == got
    error = abs(got - want)
    return error <= tolerance + _EPSILON or error <= tolerance * abs(want) + _EPSILON


def same_tokens(expected: str, actual: str, tolerance: float = 0.0) -> bool:
    """Equal token by token (whitespace separates); numbers within ``tolerance`` when it
    is above 0 (:func:`close_numbers`)."""
    wanted, got = expected.split(), actual.split()
    if len(wanted) != len(got):
        return False
    return all(want == token or (tolerance > 0 and close_numbers(want, token, tolerance))
               for want, token in zip(wanted, got, strict=True))


def same_output(expected: str, actual: str, equality: str = LINES,
                tolerance: float = 0.0) -> bool:
    """Does the stdout ``actual`` pass for ``expected`` under ``equality``
    (:data:`~evalplus_ng.records.PROGRAM_EQUALITIES`)? Anything but text fails."""
    if type(expected) is not str or type(actual) is not str:
        return False
    if equality == LINES:
        return same_lines(expected, actual)
    if equality == TOKENS:
        return same_tokens(expected, actual, tolerance)
    raise ValueError(f"unknown program equality {equality!r}; known: "
                     f"{', '.join(PROGRAM_EQUALITIES)}")


def accepts(verdict: str) -> bool:
    """Does a checker's stdout ``verdict`` accept: is its first token (whitespace
    separates) ``ok``, in any case (ASCII letters only)? Anything but text does not."""
    if type(verdict) is not str:
        return False
    head = verdict.split(maxsplit=1)
    return bool(head) and head[0].isascii() and head[0].lower() == ACCEPT
