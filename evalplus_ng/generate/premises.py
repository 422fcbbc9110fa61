"""What a task's base inputs take for granted: premises a new input must keep when no
written contract says otherwise.

A prompt is a sentence and a few examples. Where nobody wrote a contract for a task
(MBPP+'s tasks, a user's tasks file), the inferred one knows the argument types and
EvalPlus's own asserts, not what the sentence takes for granted: "two sorted arrays",
"its length (n)", "a matrix". An input that breaks such a premise makes a kill that is
not a bug (the kth element of two unsorted arrays, a majority among 2,064 items of an
empty list). So an inferred contract also keeps these premises, each read off the base
inputs (:func:`infer_premises`), where every base input shows it:

* **classes** (:data:`~evalplus_ng.generate.classes.KINDS`) that no base input has and the prompt
  does not mention: an empty or one-element argument, zero, a negative number, NaN or
  infinity, a non-ASCII character, None (:data:`UNSHOWN`). Integers past 2**53 and past
  the float range are the tiers' business (:mod:`evalplus_ng.generate.bounds`), not validity's;
  repeated elements are ordinary data.
* **sorted**: a list argument sorted in every base input, where the prompt says sorted
  (or ascending, descending, increasing, decreasing order).
* **length**: an integer argument equal to a list or string argument's length in every
  base input ("its length (n)"); and two list arguments of equal lengths in every base
  input where the lengths differ between base inputs or the prompt says "same size".
* **index**: an integer argument within ``range(len(x))`` of a list argument in every
  base input, where the prompt speaks of an index, a position or an nth item.
* **rectangular**: a list of lists whose rows all have one length in every base input
  (a matrix), and square where the prompt says square.

A written contract (``contracts/<dataset>/<Task>.py``) is the maintainer's word on what
is valid and replaces all of this. Pure: plain values in, premises out.
"""

from __future__ import annotations

import enum
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from evalplus_ng.generate.classes import KINDS, input_kinds, unshown_kinds

#: Classes an input may show only where a base input does or the prompt mentions them.
UNSHOWN = tuple(kind for kind in KINDS if kind not in ("big", "huge", "duplicates"))

_SORTED = re.compile(r"\bsorted\b|\b(ascending|descending|increasing|decreasing|non-?decreasing)"
                     r"\s+order\b|\bin order\b", re.IGNORECASE)
_SAME_SIZE = re.compile(r"\b(same|equal)\s+(size|length)s?\b", re.IGNORECASE)
_INDEX = re.compile(r"\bindex\b|\bindices\b|\bposition\b|\bn'?th\b|\bk'?th\b|\bcolumn\b",
                    re.IGNORECASE)
_SQUARE = re.compile(r"\bsquare\b", re.IGNORECASE)


class Kind(enum.Enum):
    """What a premise requires."""

    UNSHOWN = "unshown-class"  #: none of ``kinds`` in the input
    SORTED = "sorted"  #: argument ``first`` sorted (``descending`` for the other way)
    LENGTH = "length"  #: argument ``first`` (an int) is ``len`` of argument ``second``
    SAME_LENGTH = "same-length"  #: arguments ``first`` and ``second`` equally long
    INDEX = "index"  #: argument ``first`` (an int) indexes argument ``second``
    RECTANGULAR = "rectangular"  #: argument ``first``'s rows all one length
    SQUARE = "square"  #: argument ``first`` as many rows as columns


@dataclass(frozen=True)
class Premise:
    """One premise of a task's inputs (positions are argument indices)."""

    kind: Kind
    first: int = -1
    second: int = -1
    descending: bool = False
    kinds: tuple[str, ...] = ()

    def describe(self, names: Sequence[str]) -> str:
        """A short phrase naming the premise (for a contract's violation message)."""
        def name(position: int) -> str:
            return names[position] if 0 <= position < len(names) else f"#{position}"
        if self.kind is Kind.UNSHOWN:
            return f"no {', '.join(self.kinds)} value (no base input or prompt shows one)"
        if self.kind is Kind.SORTED:
            return f"'{name(self.first)}' sorted {'descending' if self.descending else ''}".strip()
        if self.kind is Kind.LENGTH:
            return f"'{name(self.first)}' equal to len('{name(self.second)}')"
        if self.kind is Kind.SAME_LENGTH:
            return f"'{name(self.first)}' and '{name(self.second)}' equally long"
        if self.kind is Kind.INDEX:
            return f"'{name(self.first)}' an index of '{name(self.second)}'"
        if self.kind is Kind.RECTANGULAR:
            return f"'{name(self.first)}' rows of one length"
        return f"'{name(self.first)}' square"


def _sequence(value: Any) -> bool:
    return isinstance(value, (list, tuple))


def _sized(value: Any) -> bool:
    return isinstance(value, (list, tuple, str))


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _ordered(value: Sequence[Any], descending: bool) -> bool:
    try:
        pairs = itertools.pairwise(value)
        return all(a >= b for a, b in pairs) if descending else all(a <= b for a, b in pairs)
    except TypeError:
        return False


def _rows(value: Any) -> list[Sequence[Any]] | None:
    if not _sequence(value) or not value or not all(_sequence(row) for row in value):
        return None
    return list(value)


def holds(premise: Premise, args: Sequence[Any]) -> bool:
    """Does ``args`` keep ``premise``? (An argument of the wrong kind does not.)"""
    kind, first, second = premise.kind, premise.first, premise.second
    if kind is Kind.UNSHOWN:
        return not set(input_kinds(args)) & set(premise.kinds)
    if max(first, second) >= len(args):
        return False
    if kind is Kind.SORTED:
        return _sequence(args[first]) and _ordered(args[first], premise.descending)
    if kind is Kind.LENGTH:
        return _int(args[first]) and _sized(args[second]) and args[first] == len(args[second])
    if kind is Kind.SAME_LENGTH:
        return (_sequence(args[first]) and _sequence(args[second])
                and len(args[first]) == len(args[second]))
    if kind is Kind.INDEX:
        return (_int(args[first]) and _sized(args[second])
                and 0 <= args[first] < len(args[second]))
    rows = _rows(args[first])
    if rows is None or len({len(row) for row in rows}) != 1:
        return False
    return kind is Kind.RECTANGULAR or len(rows) == len(rows[0])


def _all(base: Sequence[Sequence[Any]], premise: Premise) -> bool:
    return all(holds(premise, args) for args in base)


def infer_premises(prompt: str, base_inputs: Sequence[Sequence[Any]]) -> tuple[Premise, ...]:
    """The premises every base input keeps (see the module docstring); none without base
    inputs of one arity."""
    base = [tuple(args) for args in base_inputs]
    if not base or len({len(args) for args in base}) != 1:
        return ()
    arity = len(base[0])
    found: list[Premise] = []
    unshown = tuple(kind for kind in UNSHOWN if kind in unshown_kinds(prompt, base))
    if unshown:
        found.append(Premise(Kind.UNSHOWN, kinds=unshown))
    positions = range(arity)
    sequences = [i for i in positions if all(_sequence(args[i]) for args in base)]
    sized = [i for i in positions if all(_sized(args[i]) for args in base)]
    ints = [i for i in positions if all(_int(args[i]) for args in base)]
    if _SORTED.search(prompt):
        for i in sequences:
            if any(len(args[i]) >= 2 for args in base):
                found += [p for p in (Premise(Kind.SORTED, i), Premise(Kind.SORTED, i,
                                                                         descending=True))
                          if _all(base, p)][:1]
    length_of = set()
    for i, j in itertools.product(ints, sized):
        premise = Premise(Kind.LENGTH, i, j)
        if len(base) >= 2 and _all(base, premise):
            found.append(premise)
            length_of.add(i)
    same = bool(_SAME_SIZE.search(prompt))
    for i, j in itertools.combinations(sequences, 2):
        premise = Premise(Kind.SAME_LENGTH, i, j)
        varied = len({len(args[i]) for args in base}) > 1
        if (same or (varied and len(base) >= 2)) and _all(base, premise):
            found.append(premise)
    if _INDEX.search(prompt):
        for i, j in itertools.product([i for i in ints if i not in length_of], sized):
            premise = Premise(Kind.INDEX, i, j)
            if _all(base, premise):
                found.append(premise)
                break
    for i in sequences:
        if all(_rows(args[i]) is not None for args in base):
            rectangular = Premise(Kind.RECTANGULAR, i)
            square = Premise(Kind.SQUARE, i)
            if _SQUARE.search(prompt) and _all(base, square):
                found.append(square)
            elif _all(base, rectangular):
                found.append(rectangular)
    return tuple(found)


def premise_violation(premises: Sequence[Premise], args: Sequence[Any],
                      names: Sequence[str]) -> str | None:
    """None when ``args`` keeps every premise, else the first one it breaks, named."""
    for premise in premises:
        if not holds(premise, args):
            return f"breaks a premise of the base inputs: {premise.describe(names)}"
    return None
