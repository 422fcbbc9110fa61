"""What a prompt admits beyond its base inputs' shapes: prompt words -> allowances.

The base inputs show one tuple length and one set of element kinds; a prompt that
speaks of "a given tuple" or "the elements" admits others. The rule is data (word
tables below) and small pure functions:

* **arity**: a fixed-length tuple inferred from the base inputs may take other lengths
  where the prompt speaks of tuples and names no shape (a pair, a point, coordinates, a
  record of named fields ``(height, weight)``, "tuple of two", "3-tuple");
* **unhashable**: a tuple's or list's elements may be lists where the prompt speaks of
  elements or items in general, names no kind or arithmetic (numbers, strings, sums,
  order, ...) and its example mixes kinds (``("w", 3, "r")``: a list of ints is more
  likely meant as numbers, and hashing them is then a fair choice);
* **mixed**: elements may also be ints or strings where the prompt says their kinds vary
  ("mixed", "data type", "any type");
* **signed**: a string that holds a number may carry a sign where the prompt speaks of
  integers or numbers and not of digits, binary or positive ones (nor of dates, times or
  addresses, whose numbers have no sign).

Only inferred specs are widened (an annotation, or a contract's, is the author's word),
and every input made this way still passes the contract and must be answered by the
ground truth (an input it raises on is dropped by the oracle stage).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from evalplus_ng import typespec as ts
from evalplus_ng.serialize import nested
from evalplus_ng.typespec import Spec


@dataclass(frozen=True)
class Allowance:
    """What inputs may do beyond the base inputs' shapes (see the module's docstring)."""

    arity: bool = False
    unhashable: bool = False
    mixed: bool = False
    signed: bool = False


NONE = Allowance()

#: The prompt speaks of tuples.
TUPLE_WORDS = re.compile(r"\btuples?\b")
#: Words that fix a tuple's shape whatever its length.
SHAPE_WORDS = re.compile(
    r"\b(pairs?|points?|coordinates?|records?|vectors? of (length|size)|"
    r"(key|name)[- ]value|2d|3d|x and y|latitude|longitude|intervals?|ranges?|"
    r"fractions?|dates?|times?)\b")
#: A tuple whose fields are named: ``(student_height, student_weight)``.
NAMED_FIELDS = re.compile(r"\(\s*[a-z_][a-z_0-9]*\s*,\s*[a-z_][a-z_0-9]*\s*[,)]")
#: Number words, by the tuple length they name.
LENGTH_NAMES = {1: ("one", "single", "1"), 2: ("two", "2", "double"),
                3: ("three", "3", "triple"), 4: ("four", "4"), 5: ("five", "5")}
#: The prompt speaks of elements in general.
ELEMENT_WORDS = re.compile(r"\b(elements?|items?|members?|entries|entry)\b")
#: Words that fix the elements' kinds (or use them as numbers, strings or ordered values).
KIND_WORDS = re.compile(
    r"\b(int|ints|integers?|numbers?|numeric|digits?|floats?|decimals?|strings?|words?|"
    r"characters?|chars?|letters?|positive|negative|even|odd|prime|sum|sums|product|"
    r"average|mean|max|min|maximum|minimum|largest|smallest|greatest|least|bigger|"
    r"smaller|greater|less|sort|sorted|sorting|order|ascending|descending|add|addition|"
    r"subtract\w*|multipl\w*|divi\w*|modulo|power|squares?|cubes?|bitwise|xor|"
    r"elementwise|element[- ]wise|index[- ]wise|difference|count of \w+ numbers?)\b")
#: Words by which a prompt admits elements of any kind.
MIXED_WORDS = re.compile(r"\b(mixed (data ?)?types?|heterogeneous|data ?types?|any (data ?)?types?|"
                         r"different (data ?)?types?|of any kind)\b")
#: The prompt speaks of numbers a string holds.
NUMBER_WORDS = re.compile(r"\b(integers?|numbers?|numeric|decimal)\b")
#: Words that rule a sign out.
UNSIGNED_WORDS = re.compile(r"\b(digits?|positive|non-?negative|natural|binary|unsigned|"
                            r"octal|hex\w*|dates?|times?|ip|address|phone|versions?)\b")
#: A string that is numbers and separators only: ``"-12"``, ``"1.5"``, ``"(7, 8, 9)"``.
NUMERIC_TEXT = re.compile(r"^[\s()\[\],.+-]*\d[\d\s()\[\],.+-]*$")
#: Lines of a prompt that are code or examples, not words.
_CODE_LINE = re.compile(r"^\s*(assert\b|>>>|def\b|from\b|import\b|@|#|\w+\(.*\)\s*(==|➞|->))")


def description(prompt: str) -> str:
    """The prompt's words, lower-cased: its lines minus asserts, examples and code."""
    return " ".join(line for line in prompt.lower().splitlines()
                    if line.strip() and not _CODE_LINE.match(line))


def tuple_lengths(values: Sequence[Any]) -> set[int]:
    """The lengths of the tuples in ``values``, at any depth."""
    return {len(item) for value in values for item in nested(value) if type(item) is tuple}


def names_length(words: str, length: int) -> bool:
    """Does ``words`` name a tuple of ``length`` ("tuple of two", "2-tuple", "length 2")?"""
    for name in LENGTH_NAMES.get(length, (str(length),)):
        name = re.escape(name)
        if re.search(rf"\b{name}[- ]tuples?\b|\btuples? of (length |size )?{name}\b|"
                     rf"\b(length|size) (of )?{name}\b|\b{name} (elements|values|members|"
                     rf"items|numbers|integers|fields)\b", words):
            return True
    return False


def _fixed_tuple(spec: Spec) -> bool:
    """Does ``spec`` hold a fixed-length tuple, at any depth?"""
    return (spec.kind == ts.TUPLE and not spec.variadic) or any(map(_fixed_tuple, spec.args))


def _scalar(spec: Spec) -> bool:
    """Is ``spec`` a scalar (or a union of scalars), not a container?"""
    if spec.kind == ts.UNION:
        return all(map(_scalar, spec.args))
    return spec.kind not in (ts.LIST, ts.TUPLE, ts.SET, ts.DICT, ts.ANY)


def allowance(prompt: str, values: Sequence[Any], parallel: bool = False) -> Allowance:
    """What the prompt admits for one argument whose base values are ``values``;
    ``parallel``: another argument has the same inferred spec (two tuples zipped: one
    of them alone at another length is no input the prompt admits)."""
    words = description(prompt)
    inferred = ts.infer(values)
    lengths = tuple_lengths(values)
    arity = _fixed_tuple(inferred) and not parallel and bool(TUPLE_WORDS.search(words)) \
        and not SHAPE_WORDS.search(words) and not NAMED_FIELDS.search(words) \
        and not (len(lengths) == 1 and names_length(words, next(iter(lengths))))
    general = bool(ELEMENT_WORDS.search(words)) and not KIND_WORDS.search(words)
    mixed = bool(MIXED_WORDS.search(words))
    containers = inferred.kind in (ts.LIST, ts.TUPLE) and bool(inferred.args) \
        and _scalar(_variadic(inferred).args[0])
    texts = [value for value in values if type(value) is str]
    signed = bool(texts) and any(NUMERIC_TEXT.match(text) for text in texts) \
        and bool(NUMBER_WORDS.search(words)) and not UNSIGNED_WORDS.search(words)
    return Allowance(arity=arity, unhashable=containers and ((general and _mixes(values))
                                                              or mixed),
                     mixed=containers and mixed, signed=signed)


def _mixes(values: Sequence[Any]) -> bool:
    """Does one of ``values`` (lists or tuples) hold elements of two kinds (``("w", 3)``):
    the example shows that any element goes, not just numbers or just strings?"""
    return any(len({type(item) for item in value}) > 1 for value in values
               if type(value) in (list, tuple))


def allowances(prompt: str, inputs: Sequence[Sequence[Any]]) -> tuple[Allowance, ...]:
    """The allowance of each argument, from the prompt and the inputs (the base inputs)."""
    if not inputs:
        return ()
    columns = [[args[p] for args in inputs if len(args) > p] for p in range(len(inputs[0]))]
    specs = [ts.infer(column) for column in columns]
    return tuple(allowance(prompt, column, specs.count(spec) > 1)
                 for column, spec in zip(columns, specs, strict=True))


#: The kinds ``mixed`` adds to a container's elements.
_MIXED_KINDS = (Spec(ts.INT), Spec(ts.STR))


def widen(spec: Spec, allowed: Allowance) -> Spec:
    """``spec`` as ``allowed`` widens it: fixed tuples (at any depth) variadic, and the
    scalar elements of a top-level list or tuple unions with lists of them (and ints
    and strings)."""
    if allowed.arity:
        spec = _variadic(spec)
    if (allowed.unhashable or allowed.mixed) and spec.kind in (ts.LIST, ts.TUPLE) \
            and (spec.kind == ts.LIST or spec.variadic):
        element = spec.args[0]
        if _scalar(element):
            members = [element, Spec(ts.LIST, (element,))] if allowed.unhashable else [element]
            if allowed.mixed:
                members.extend(_MIXED_KINDS)
            spec = Spec(spec.kind, (ts.union(members),), spec.variadic)
    return spec


def _variadic(spec: Spec) -> Spec:
    """Every fixed-length tuple inside ``spec`` made a sequence of its members' join."""
    args = tuple(_variadic(arg) for arg in spec.args)
    if spec.kind == ts.TUPLE and not spec.variadic:
        return Spec(ts.TUPLE, (ts.union(list(args)) if args else ts.ANY_SPEC,), variadic=True)
    return Spec(spec.kind, args, spec.variadic)


# --------------------------------------------------------------------------- seeds


def _numbers(text: str) -> list[re.Match[str]]:
    return list(re.finditer(r"(?<![\d.+-])\d[\d.]*", text))


def signed_texts(text: str) -> list[str]:
    """``text`` (numeric) with a sign: its first number negative, then positive with a
    plus, then every number negative."""
    if not NUMERIC_TEXT.match(text):
        return []
    found = _numbers(text)
    if not found:
        return []
    first = found[0].start()
    every = text
    for match in reversed(found):
        every = every[:match.start()] + "-" + every[match.start():]
    variants = [text[:first] + "-" + text[first:], text[:first] + "+" + text[first:], every]
    return list(dict.fromkeys(variants))


#: The allowances that widen a type (``signed`` only makes seeds).
WIDENING = ("arity", "unhashable", "mixed")


def _resized(value: Any) -> list[Any]:
    """A list or tuple of tuples with every tuple one longer, then one shorter."""
    kind = type(value)
    return [kind([item + item[-1:] if type(item) is tuple else item for item in value]),
            kind([item[:-1] if type(item) is tuple else item for item in value])]


def _shapes(value: Any, allowed: Allowance) -> list[tuple[str, Any]]:
    """Other shapes of one argument, each with the allowance that admits it: a tuple's
    other lengths (or its inner tuples'), a list element, an element of another kind, a
    signed number in a string."""
    found: list[tuple[str, Any]] = []
    kind = type(value)
    if kind in (tuple, list) and allowed.arity:
        if kind is tuple:
            items = list(value)
            found += [("arity", v) for v in ((), tuple(items[:1]), tuple(items[:-1]),
                                             tuple(items + items[-1:]))]
        if any(type(item) is tuple for item in value):
            found += [("arity", v) for v in _resized(value)]
    if kind in (tuple, list) and value and allowed.unhashable:
        found.append(("unhashable", kind([*value, list(value[:1])])))
        found.append(("unhashable", kind([list(value[:2]), *value[1:]])))
    if kind in (tuple, list) and value and allowed.mixed:
        found.append(("mixed", kind([*value, 0 if isinstance(value[0], str) else "a"])))
    if kind is str and allowed.signed:
        found += [("signed", text) for text in signed_texts(value)]
    return found


def tagged_variants(args: Sequence[Any], allowances: Sequence[Allowance],
                    ) -> list[tuple[int, str, list[Any]]]:
    """``(position, allowance, input)``: ``args`` with the argument at ``position`` in a
    shape that ``allowance`` (a field name of :class:`Allowance`) admits."""
    found: list[tuple[int, str, list[Any]]] = []
    for position, (value, allowed) in enumerate(zip(args, allowances, strict=True)):
        for name, other in _shapes(value, allowed):
            changed = list(args)
            changed[position] = other
            found.append((position, name, changed))
    return found


def variants(args: Sequence[Any], allowances: Sequence[Allowance]) -> list[list[Any]]:
    """Inputs like ``args`` with one argument in another shape the prompt admits."""
    return [changed for _, _, changed in tagged_variants(args, allowances)]


def narrowed(allowances: Sequence[Allowance],
             tried: Sequence[tuple[int, str, bool]]) -> tuple[Allowance, ...]:
    """``allowances`` without each widening allowance (:data:`WIDENING`) of a position
    whose variants were tried and none accepted (``(position, allowance, accepted)``):
    where the contract or the ground truth takes no input of a shape, mutants of that
    shape are work for nothing."""
    accepted: dict[tuple[int, str], bool] = {}
    for position, name, ok in tried:
        accepted[(position, name)] = accepted.get((position, name), False) or ok
    result = []
    for position, allowed in enumerate(allowances):
        drop = {name: False for name in WIDENING
                if accepted.get((position, name)) is False}
        result.append(replace(allowed, **drop) if drop else allowed)
    return tuple(result)
