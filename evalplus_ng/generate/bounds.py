"""How far a new input may stray from a task's base inputs and still test correctness.

A plus test must fail only code that is wrong, and a prompt that asks no efficiency
promises nothing about inputs much larger than the ones it shows: a correct solution
that loops up to ``n`` is not wrong because ``n`` is a billion, and one that goes
through ``float`` is not wrong on integers the examples never come near. So a new input
stays in the correctness tier only while it looks like the base inputs, argument by
argument (:func:`infer_bounds`, :func:`beyond`):

* its **length** (elements of every collection and characters of every string, nested
  ones too) is at most :data:`LENGTH_FACTOR` times the largest base input's at that
  position, and never less than :data:`LENGTH_FLOOR` (tiny examples still allow small
  variation);
* its **magnitude** (the largest absolute value of a number in it, nested too) is at
  most :data:`MAGNITUDE_FACTOR` times the base inputs', floor :data:`MAGNITUDE_FLOOR`
  where a person wrote the task's contract, :data:`INFERRED_MAGNITUDE_FLOOR` where it is
  inferred (a loop to ``n`` over a hundred thousand is a question of speed, and nobody
  said which numbers the task is for);
* an integer past 2**53 (where a float stops being exact) or past the float range
  (where ``float(x)`` overflows) appears only where a base input has one, or the prompt
  speaks of large numbers (:data:`LARGE_NUMBERS`: then magnitudes are not bounded).

Pure: plain values in, a verdict out.
"""

from __future__ import annotations

import enum
import math
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from evalplus_ng.generate import shrink
from evalplus_ng.types import Args

#: A new argument may be this many times as long as the longest base argument there.
LENGTH_FACTOR = 10
#: ... and at least this long whatever the base inputs (the mutator's longest collection).
LENGTH_FLOOR = 64
#: A new argument's numbers may be this many times the base arguments' largest there.
MAGNITUDE_FACTOR = 100
#: ... and at least this large whatever the base inputs (a written contract).
MAGNITUDE_FLOOR = 100_000
#: ... and at least this large where the contract is inferred from the base inputs.
INFERRED_MAGNITUDE_FLOOR = 1_000
#: The first integer magnitude a float cannot hold exactly is just past this.
EXACT_FLOAT = 2**53
#: Integers larger than this in magnitude overflow ``float(x)``.
FLOAT_MAX = sys.float_info.max
#: Words in a prompt that promise large numbers (then 2**53 and beyond stay in plus).
LARGE_NUMBERS = re.compile(
    r"\b(?:large|big|huge|arbitrar(?:y|ily)(?: large| big)?)\s+(?:numbers?|integers?|ints?)\b",
    re.IGNORECASE)


class Beyond(enum.Enum):
    """Which bound a new input exceeds (the first, in this order)."""

    FLOAT_RANGE = "past-float-range"  #: an integer ``float()`` cannot convert
    EXACT_FLOAT = "past-2**53"  #: an integer a float does not hold exactly
    MAGNITUDE = "base-magnitude"  #: numbers far larger than the base inputs'
    LENGTH = "base-length"  #: far longer than the base inputs


@dataclass(frozen=True)
class Bounds:
    """A task's bounds: per argument position, the largest length and magnitude allowed
    (positions past the tuples get the floors); whether integers past 2**53 and past the
    float range are allowed."""

    lengths: tuple[int, ...]
    magnitudes: tuple[float, ...]
    past_exact: bool
    past_float: bool
    #: The prompt promises large numbers: no magnitude is too large.
    large: bool = False
    #: The magnitude allowed at positions past the tuples.
    floor: float = MAGNITUDE_FLOOR

    def length(self, position: int) -> int:
        """The largest length allowed at ``position``."""
        return self.lengths[position] if position < len(self.lengths) else LENGTH_FLOOR

    def magnitude(self, position: int) -> float:
        """The largest magnitude allowed at ``position``."""
        if self.large:
            return math.inf
        return self.magnitudes[position] if position < len(self.magnitudes) else self.floor


def length(value: Any) -> int:
    """Elements of every collection and characters of every string in ``value``."""
    return shrink.cost(value)[0]


def _numbers(value: Any) -> list[int | float | complex]:
    """Every number in ``value`` (nested, dict keys too; bools are not numbers)."""
    found: list[int | float | complex] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if type(item) in (int, float, complex):
            found.append(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple, set, frozenset)):
            stack.extend(item)
    return found


def magnitude(value: Any) -> float:
    """The largest absolute value of a number in ``value`` (0 with none); an infinity
    counts as infinitely large, a NaN as nothing; an integer too large for a float as
    ``inf``."""
    largest = 0.0
    for number in _numbers(value):
        if isinstance(number, float) and math.isnan(number):
            continue
        size = abs(number)
        largest = max(largest, math.inf if isinstance(size, int) and size > FLOAT_MAX
                      else float(size))
    return largest


def largest_int(value: Any) -> int:
    """The largest absolute value of an integer in ``value`` (0 with none)."""
    return max((abs(n) for n in _numbers(value) if type(n) is int), default=0)


def infer_bounds(base_inputs: Sequence[Args], prompt: str = "",
                 floor: float = MAGNITUDE_FLOOR) -> Bounds:
    """The bounds the base inputs (and the prompt's words) allow; ``floor``: the least
    magnitude bound (:data:`MAGNITUDE_FLOOR`, or :data:`INFERRED_MAGNITUDE_FLOOR` for a
    task whose contract is inferred)."""
    width = max((len(args) for args in base_inputs), default=0)
    lengths, magnitudes = [], []
    for position in range(width):
        values = [args[position] for args in base_inputs if position < len(args)]
        lengths.append(max(LENGTH_FLOOR,
                           LENGTH_FACTOR * max((length(v) for v in values), default=0)))
        largest = max((magnitude(v) for v in values), default=0.0)
        magnitudes.append(max(float(floor), MAGNITUDE_FACTOR * largest))
    big = max((largest_int(args) for args in base_inputs), default=0)
    large = bool(LARGE_NUMBERS.search(prompt))
    return Bounds(tuple(lengths), tuple(magnitudes), past_exact=large or big > EXACT_FLOAT,
                  past_float=large or big > FLOAT_MAX, large=large, floor=float(floor))


def beyond(bounds: Bounds, args: Args) -> Beyond | None:
    """The first bound ``args`` exceeds (None: it looks like the base inputs)."""
    big = largest_int(args)
    if big > FLOAT_MAX and not bounds.past_float:
        return Beyond.FLOAT_RANGE
    if big > EXACT_FLOAT and not bounds.past_exact:
        return Beyond.EXACT_FLOAT
    if any(magnitude(value) > bounds.magnitude(i) for i, value in enumerate(args)):
        return Beyond.MAGNITUDE
    if any(length(value) > bounds.length(i) for i, value in enumerate(args)):
        return Beyond.LENGTH
    return None
