"""A grammar's variables named by the statement, and the bounds the statement gives them.

The statement describes the input line by line (:mod:`~evalplus_ng.generate.programs.statement`:
"the first line contains n and m", "each of the next m lines contains u and v", "the
second line contains n integers a_i"). :func:`align` walks the grammar's lines and the
described lines together while they agree (the same number of fields; a run whose length
is the variable the statement names; a block counted as the statement counts it) and
names the grammar's variables; a description whose count names another variable than the
grammar's is a *conflict*: that grammar reads the examples but not as the statement says
(:func:`choose` then prefers another). Alignment stops at the first line that does not
agree: a name is given only where the order of the lines leaves no doubt.

:func:`stated_ranges` turns the statement's bounds of named variables into ranges, each
kept only where it holds on every example (else the naming is wrong, and the learnt range
stays); :func:`unsaid` drops what the examples showed by chance of numbers so bounded
and the statement would have said (``k < n``; every coordinate below the number of
points; a list of them sorted). Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import product

from evalplus_ng.generate.programs.facts import (
    Facts,
    Range,
    Relation,
    RunFact,
    Side,
    WordFact,
    count_names,
    length_name,
)
from evalplus_ng.generate.programs.formula import Formula
from evalplus_ng.generate.programs.grammar import INT, WORD, Count, Field, Item, Line, Repeat, Seq
from evalplus_ng.generate.programs.infergrammar import Inferred
from evalplus_ng.generate.programs.statement import (
    ITEM_SUM,
    NOT_EQUAL,
    SOME,
    Bound,
    LineSpec,
    Ref,
    Stated,
)


@dataclass(frozen=True)
class Alignment:
    """Statement names of grammar variables (``names[var]``), how many described lines
    agreed, and whether one contradicted the grammar."""

    names: Mapping[str, str]
    agreed: int
    conflict: bool


def grammar_lines(items: Sequence[Item], per_test: bool = False,
           ) -> Iterator[tuple[Line, Repeat | None, bool]]:
    """The grammar's lines in order: (line, the one-line block repeating it, in a test case).
    An empty line ("each test case is preceded by an empty line") is none of them: it
    reads nothing, and no line the statement names, counts or repeats is one."""
    for item in items:
        if isinstance(item, Line):
            if item.segments:
                yield item, None, per_test
        elif len(item.body) == 1 and isinstance(item.body[0], Line):
            yield item.body[0], item, per_test
        else:
            yield from grammar_lines(item.body, True)


def _same_count(ref: Ref, count: Count, names: Mapping[str, str]) -> bool | None:
    """Whether the statement's count ``ref`` is the grammar's ``count`` (None: the
    statement's variable is not named yet, so it cannot tell); a constant (``ref.name``
    empty: "eight lines") is the grammar's only where it is that same constant; "the
    following lines" (:data:`SOME`) is any count."""
    if ref == SOME:
        return True
    if not ref.name:
        return count.var is None and Fraction(count.offset) == ref.offset
    var = next((v for v, name in names.items() if name == ref.name), None)
    if var is None:
        return None
    return (var == count.var and Fraction(count.scale) == ref.scale
            and Fraction(count.offset) == ref.offset)


def align(grammar: Sequence[Item], stated: Stated) -> Alignment:
    """Name the grammar's variables from the statement's line descriptions."""
    names: dict[str, str] = {}
    specs = _specs(stated)
    agreed = 0
    counted_tests = False
    for (line, repeat, per_test), spec in zip(grammar_lines(grammar), specs, strict=False):
        if (spec.per_test and not per_test and repeat is not None and spec.repeat is None
                and stated.test_count and repeat.count.var is not None
                and names.get(repeat.count.var) == stated.test_count
                and (repeat.count.offset, repeat.count.scale) == (0, 1)):
            # "the only line of each test case contains n and k": the block of test
            # cases, one line each
            per_test, repeat = True, None
            counted_tests = True
        if per_test and not counted_tests:
            counted_tests = True  # the block of test cases: its count is the test count
            top = next((item for item in grammar if isinstance(item, Repeat)
                        and len(item.body) > 1), None)
            if stated.test_count and top is not None and top.count.var is not None:
                names.setdefault(top.count.var, stated.test_count)
        if per_test != spec.per_test:
            break
        if (spec.repeat is None) != (repeat is None):
            break
        if spec.repeat is not None and repeat is not None:
            same = _same_count(spec.repeat, repeat.count, names)
            if same is False:
                return Alignment(names, agreed, True)
            if same is None:
                break
        fields = [part for part in line.segments if isinstance(part, Field)]
        runs = [part for part in line.segments if isinstance(part, Seq)]
        if spec.list_length is not None:
            if len(runs) == 1:
                same = _same_count(spec.list_length, runs[0].length, names)
                if same is False:
                    return Alignment(names, agreed, True)
                if same is None:
                    break
                if spec.names:
                    names[runs[0].name] = spec.names[0]
            elif len(fields) == 1 and fields[0].kind == WORD and not runs:
                if spec.names:
                    names[fields[0].name] = spec.names[0]
            else:
                break
        elif runs or len(fields) != len(spec.names):
            break
        else:
            for part, name in zip(fields, spec.names, strict=True):
                names[part.name] = name
        agreed += 1
    return Alignment(names, agreed, False)


def _specs(stated: Stated) -> list[LineSpec]:
    """The described lines :func:`align` walks: those that name, count or repeat."""
    return [spec for spec in stated.lines if spec.names or spec.list_length or spec.repeat]


def _retyped(items: Sequence[Item], name: str, kind: str) -> tuple[Item, ...]:
    out: list[Item] = []
    for item in items:
        if isinstance(item, Repeat):
            out.append(replace(item, body=_retyped(item.body, name, kind)))
        else:
            out.append(Line(tuple(replace(part, kind=kind) if isinstance(part, Field)
                                  and part.name == name else part
                                  for part in item.segments)))
    return tuple(out)


def worded(inferred: Inferred, stated: Stated) -> Inferred:
    """``inferred`` with each line the statement calls a string of a length ("a string
    consisting of n digits") but the examples' digits read as one integer (``108``) read
    as a word: its digits are characters (``008`` is an input, ``8`` of length 3 none)."""
    grammar = inferred.grammar
    for _ in range(len(stated.lines)):
        alignment = align(grammar, stated)
        pairs = list(zip(grammar_lines(grammar), _specs(stated), strict=False))
        if alignment.conflict or alignment.agreed >= len(pairs):
            break
        (line, _, _), spec = pairs[alignment.agreed]
        part = line.segments[0] if len(line.segments) == 1 else None
        if not (spec.kind == "string" and spec.list_length is not None
                and isinstance(part, Field) and part.kind == INT
                and part.name not in set(count_names(grammar))):
            break
        grammar = _retyped(grammar, part.name, WORD)
    return inferred if grammar == inferred.grammar else replace(inferred, grammar=grammar)


def _recount(items: Sequence[Item], name: str, count: Count) -> tuple[Item, ...]:
    return tuple(replace(item, count=count if item.name == name else item.count,
                         body=_recount(item.body, name, count))
                 if isinstance(item, Repeat) else item for item in items)


def recounted(inferred: Inferred, stated: Stated) -> Inferred:
    """``inferred`` with each block whose count the statement names otherwise ("next m
    lines", where the grammar counts them by ``n``) counted as the statement says, where
    the examples tie the two (``n == m`` in every example: the lone example of ``95_c``),
    the tie dropped; unchanged where no such block conflicts."""
    grammar, ties = inferred.grammar, list(inferred.ties)
    for _ in range(len(stated.lines)):
        alignment = align(grammar, stated)
        pairs = list(zip(grammar_lines(grammar), _specs(stated), strict=False))
        if not alignment.conflict or alignment.agreed >= len(pairs):
            break
        (_, repeat, _), spec = pairs[alignment.agreed]
        ref = spec.repeat
        var = next((v for v, name in alignment.names.items() if ref and name == ref.name),
                   None)
        if repeat is None or ref is None or var is None or ref.scale.denominator != 1 \
                or ref.offset.denominator != 1:
            break
        said = Count(var, int(ref.offset), int(ref.scale))
        tie = next((t for t in ties if set(t) == {repeat.count, said}), None)
        if tie is None:
            break
        ties.remove(tie)
        grammar = _recount(grammar, repeat.name, said)
    if grammar == inferred.grammar:
        return inferred
    return replace(inferred, grammar=grammar, ties=tuple(ties))


def choose(found: Sequence[Inferred], stated: Stated) -> tuple[Inferred, Alignment]:
    """Of grammars that read the examples (simplest first), the one the statement agrees
    with most: no conflict, most described lines agreeing, then the simplest."""
    scored = [(align(inferred.grammar, stated), index, inferred)
              for index, inferred in enumerate(found)]
    best = min(scored, key=lambda item: (item[0].conflict, -item[0].agreed, item[1]))
    return best[2], best[0]


def stated_ranges(alignment: Alignment, stated: Stated, learnt: Mapping[str, Range],
                  ) -> dict[str, Range]:
    """Ranges of the named numbers from the statement's numeric bounds, each only where
    every example's values lie within it (one side the statement leaves open keeps the
    learnt end)."""
    out = {}
    for var, name in alignment.names.items():
        seen = learnt.get(var)
        bound = stated.bound(name)
        if seen is None or bound is None or (bound.low is None and bound.high is None):
            continue
        low = bound.low if bound.low is not None else seen.low
        high = bound.high if bound.high is not None else seen.high
        if low <= seen.low and seen.high <= high:
            out[var] = Range(low, high)
    return out


def stated_sides(alignment: Alignment, stated: Stated) -> tuple[Side, ...] | str:
    """The statement's sides that no number nor linear form of one variable says, as
    formulas over the grammar's variables (``0 ≤ k ≤ n(n-1)/2``: ``k <= n * (n - 1) / 2``);
    or why a plan cannot keep one (a text): no formula reads it (``m ≤ <image>``), the
    formula reads a variable no line of the grammar is named by, or the variable bounded
    is itself named by none (its examples' range may break the side)."""
    var_of = {name: var for var, name in alignment.names.items()}
    out = []
    for bound in stated.bounds:
        for side, text in bound.unread:
            if not text:
                return (f"the statement bounds {bound.name} by a {side} side that no "
                        "formula reads")
            formula = Formula(text)
            missing = sorted((formula.names() | {bound.name}) - var_of.keys())
            if missing:
                return (f"the statement bounds {bound.name} by {text}, and the input's "
                        f"lines as read name no {', '.join(missing)}")
            made = Side(var_of[bound.name], "<=" if side == "high" else ">=",
                        formula.renamed(var_of))
            if made not in out:
                out.append(made)
    return tuple(out)


def _as_relation(var: str, other: str, ref: Ref, below: bool) -> Relation | None:
    """``var``'s side ``ref`` (a bound by ``other``; ``below``: from below) as a relation
    where one says it: ``var <= other``, ``var < other`` (``≤ other - 1``), and from
    below ``other <= var``, ``other < var`` (``≥ other + 1``); None for any other side
    (:func:`ref_sides` keeps those)."""
    if ref.scale != 1 or ref.offset not in ((0, 1) if below else (0, -1)):
        return None
    op = "<=" if ref.offset == 0 else "<"
    return Relation(other, op, var) if below else Relation(var, op, other)


def ref_sides(alignment: Alignment, stated: Stated) -> list[Side]:
    """The statement's bounds by another named variable that no relation says (a side
    ``scale * other + offset`` but for :func:`stated_relations`' ``≤ other``, ``≤ other -
    1``, ``≥ other``, ``≥ other + 1``: ``n - 1 ≤ m``, ``k ≤ n - 2``, ``a_i ≤ 2n``), as
    sides (:class:`~evalplus_ng.generate.programs.facts.Side`)."""
    var_of = {name: var for var, name in alignment.names.items()}
    out: list[Side] = []
    for var, name in sorted(alignment.names.items()):
        bound = stated.bound(name)
        if bound is None:
            continue
        for ref, op in ((bound.high_ref, "<="), (bound.low_ref, ">=")):
            if ref is None or ref.name not in var_of or var_of[ref.name] == var:
                continue
            if _as_relation(var, var_of[ref.name], ref, op == ">=") is not None:
                continue  # a relation (stated_relations)
            side = Side(var, op, Formula(f"{ref.scale} * {var_of[ref.name]} + {ref.offset}"))
            if side not in out:
                out.append(side)
    return out


def sided(facts: Facts, sides: Sequence[Side], stated: Sequence[Relation]) -> Facts:
    """``facts`` with the statement's ``sides``: each number's range reaching as far as
    its formula does over the ranges of the numbers it reads (``k <= n * (n - 1) / 2``, ``n
    ≤ 2·10^5``: ``k`` up to about 2·10^10, not the examples' largest), the side keeping
    each input's ``k`` within its own ``n``; and without a relation the examples showed
    between such a number and one its formula reads, unless ``stated`` (``k <= n`` in
    every example held by chance)."""
    if not sides:
        return facts
    ranges = dict(facts.ranges)
    for side in sides:
        seen = ranges.get(side.name)
        reads = sorted(side.formula.names())
        if seen is None or any(name not in ranges for name in reads):
            continue
        corners = [side.limit(dict(zip(reads, point, strict=True)))
                   for point in product(*((ranges[name].low, ranges[name].high)
                                          for name in reads))]
        if any(corner is None for corner in corners):
            continue
        values = [corner for corner in corners if corner is not None]
        if side.op == "<=":
            ranges[side.name] = Range(seen.low, max(seen.high, max(values)))
        else:
            ranges[side.name] = Range(min(seen.low, min(values)), seen.high)
    pairs = {frozenset((side.name, name)) for side in sides for name in side.formula.names()}
    kept = {frozenset((r.left, r.right)) for r in stated}
    relations = tuple(r for r in facts.relations if frozenset((r.left, r.right)) not in pairs
                      or frozenset((r.left, r.right)) in kept)
    return replace(facts, ranges=ranges, relations=relations, sides=tuple(sides))


def item_sums(facts: Facts, alignment: Alignment, stated: Stated) -> Facts:
    """``facts`` with the statement's sums of a run's items (``1 ≤ a_1 + ... + a_n ≤
    300000``) on the run's fact, and each item of a non-negative run reaching as far as
    the sum may (one item may hold it all)."""
    var_of = {name: var for var, name in alignment.names.items()}
    runs, ranges = dict(facts.runs), dict(facts.ranges)
    for guarantee in sorted(stated.guarantees, key=lambda g: (g.kind, g.names)):
        var = var_of.get(guarantee.names[0]) if guarantee.kind == ITEM_SUM else None
        if var is None or var not in ranges:
            continue
        most = None if guarantee.limit is None else int(guarantee.limit)
        least = None if guarantee.least is None else int(guarantee.least)
        runs[var] = replace(runs.get(var, RunFact()), least_sum=least, most_sum=most)
        seen = ranges[var]
        if most is not None and seen.low >= 0:
            ranges[var] = Range(seen.low, max(seen.high, most))
    return replace(facts, runs=runs, ranges=ranges)


def stated_relations(alignment: Alignment, stated: Stated) -> list[Relation]:
    """The statement's bounds by another named variable as relations (``1 ≤ a_i ≤ n``:
    ``a <= n``; ``l < r``: ``l < r``; ``x ≥ y``: ``y <= x``), where both are named and
    the side is the variable itself or one less than it; and its ``a_i ≠ b_i``."""
    var_of = {name: var for var, name in alignment.names.items()}
    out = []
    for var, name in sorted(alignment.names.items()):
        bound = stated.bound(name)
        if bound is None:
            continue
        for ref, below in ((bound.high_ref, False), (bound.low_ref, True)):
            if ref is None or ref.name not in var_of or var_of[ref.name] == var:
                continue
            relation = _as_relation(var, var_of[ref.name], ref, below)
            if relation is not None:
                out.append(relation)
    # "a_i ≠ b_i", where no bound relates the two already (one example of one edge
    # learns no relation at all; a self-loop is no input)
    related = {frozenset((r.left, r.right)) for r in out}
    for guarantee in sorted(stated.guarantees, key=lambda g: g.names):
        if guarantee.kind != NOT_EQUAL or len(guarantee.names) != 2:
            continue
        a, b = (var_of.get(name) for name in guarantee.names)
        if a is not None and b is not None and a != b and frozenset((a, b)) not in related:
            related.add(frozenset((a, b)))
            out.append(Relation(a, "!=", b))
    return out


def _counted(items: Sequence[Item], counts: tuple[str, ...] = (),
             ) -> Iterator[tuple[str, str]]:
    """``(number, count)`` for each number of the grammar and each count around it: a
    block's count for every number the block reads, a run's length for its items."""
    for item in items:
        if isinstance(item, Repeat):
            inner = counts + ((item.count.var,) if item.count.var is not None else ())
            yield from _counted(item.body, inner)
            continue
        for part in item.segments:
            length = (part.length.var,) if isinstance(part, Seq) and part.length.var else ()
            yield from ((part.name, count) for count in counts + length)


def reached_ranges(alignment: Alignment, stated: Stated, ranges: Mapping[str, Range],
                   relations: Sequence[Relation]) -> dict[str, Range]:
    """``ranges`` with each number the statement bounds only by another variable reaching
    as far as that variable does (``0 ≤ p ≤ n``, ``n`` up to 3·10^5: ``p`` up to 3·10^5,
    not just the examples' largest), where the relation is among ``relations`` (so every
    input still keeps ``p`` within its own ``n``)."""
    var_of = {name: var for var, name in alignment.names.items()}
    out = dict(ranges)
    for var, name in sorted(alignment.names.items()):
        bound = stated.bound(name)
        seen = out.get(var)
        if bound is None or seen is None:
            continue
        high, low = bound.high_ref, bound.low_ref
        if bound.high is None and high is not None and high.name in var_of:
            other = var_of[high.name]
            if other in out and high.scale == 1 and high.offset in (0, -1) and Relation(
                    var, "<=" if high.offset == 0 else "<", other) in relations:
                seen = Range(seen.low, max(seen.high, out[other].high + int(high.offset)))
        if bound.low is None and low is not None and low.name in var_of:
            other = var_of[low.name]
            if other in out and low.scale == 1 and low.offset in (0, 1) and Relation(
                    other, "<=" if low.offset == 0 else "<", var) in relations:
                seen = Range(min(seen.low, out[other].low + int(low.offset)), seen.high)
        out[var] = seen
    return out


def stated_words(alignment: Alignment, stated: Stated, learnt: Mapping[str, WordFact],
                 ) -> dict[str, WordFact]:
    """Words' alphabets and lengths as the statement gives them, where the examples keep
    them (an alphabet holding every letter seen; a length range holding every length).
    A length said of no name ("the initial string ... with length from 1 to 10^6") is
    the word's where the input has only one word."""
    out = {}
    for var, fact in learnt.items():
        name = alignment.names.get(var, "")
        alphabet = stated.alphabet(name) if name else stated.alphabet("")
        letters = fact.alphabet
        if alphabet and set(fact.alphabet) <= set(alphabet):
            letters = "".join(sorted(set(alphabet)))
        shortest, longest = fact.shortest, fact.longest
        bound = stated.bound(name, length=True) if name else (
            stated.bound("", length=True) if len(learnt) == 1 else None)
        most = None
        if bound is not None and bound.high is not None and fact.length is None:
            low = int(bound.low) if bound.low is not None else 1
            if low <= fact.shortest and fact.longest <= bound.high:
                shortest, longest = low, int(bound.high)
        elif bound is not None and fact.length is None and bound.high_ref is not None:
            # "1 ≤ |t| ≤ |s|": as long as the other word may be, and no longer than it
            other = _other_word(bound.high_ref, var, alignment, stated, learnt)
            if other is not None:
                low = int(bound.low) if bound.low is not None else 1
                most, longest = other
                shortest = min(low, fact.shortest)
        out[var] = replace(fact, alphabet=letters, shortest=shortest, longest=longest,
                           most=most)
    return out


def _other_word(ref: Ref, var: str, alignment: Alignment, stated: Stated,
                learnt: Mapping[str, WordFact]) -> tuple[str, int] | None:
    """Where ``ref`` is another word's whole length (``|s|``), read before ``var`` in the
    grammar's order and stated at most a number long: its length's name and that number."""
    inner = re.fullmatch(r"\|(.+)\|", ref.name)
    if inner is None or ref.scale != 1 or ref.offset != 0:
        return None
    others = [other for other, name in alignment.names.items()
              if name == inner.group(1) and other in learnt and other != var]
    bound = stated.bound(inner.group(1), length=True)
    if len(others) != 1 or bound is None or bound.high is None:
        return None
    order = list(learnt)
    if order.index(others[0]) > order.index(var):
        return None
    return length_name(others[0]), int(bound.high)


#: Words by which an Input section says what shape a list of numbers has (its items
#: distinct, in order, a permutation): where none is said, the shape the examples showed
#: held by chance. Matched loosely ("in order to" too): a false match keeps a fact.
SHAPES = re.compile(r"distinct|differ|permutation|sort|increas|decreas|ascend|descend|"
                    r"order|unique|pairwise|exactly once|repeat|equal|same|coincid|match",
                    re.IGNORECASE)
#: Words by which a statement says values may repeat ("The numbers in the array can
#: coincide"): they name no shape that holds, and are taken out before :data:`SHAPES`
#: looks.
REPEATS_ALLOWED = re.compile(r"\b(?:can|may|could|might) (?:coincide|repeat|be (?:equal|the "
                             r"same))\b|not (?:necessarily )?(?:distinct|different)",
                             re.IGNORECASE)


def unsaid(grammar: Sequence[Item], alignment: Alignment, stated: Stated,
           ranged: Mapping[str, Range], facts: Facts, section: str) -> Facts:
    """``facts`` without what two or three examples showed by chance and the statement
    would have said, of numbers it bounds by numbers alone (``1 ≤ k ≤ 10^9``, ``|x| ≤
    1000``; not ``1 ≤ a_i ≤ n`` nor ``0 ≤ p_i < i``) where those bounds are their ranges
    (``ranged``, :func:`stated_ranges`: every example within them):

    * a relation between two such numbers the statement relates nowhere (``k < n`` and
      ``n != k`` in every example);
    * an order between such a number and a count around it (a block's count, a run's
      length: a point's coordinate below the number of points, ``x < n``), whatever the
      count's own bounds; and so between a number the statement bounds by another
      variable and a count around it that is not that one (``1 ≤ u_i ≤ n`` read in each
      of ``m`` rows: ``u_i ≤ m``);
    * a run's shape (distinct, ordered, a permutation, items below their positions) where
      its items are such numbers and the Input section names no shape (:data:`SHAPES`:
      ``1 ≤ a_i ≤ 10^7``, though the examples were ``1 2 3``; "the numbers can coincide"
      names none, :data:`REPEATS_ALLOWED`), and a block's rows distinct
      where it reads such numbers only (test cases of one ``n`` each: ``n`` twice is an
      input);
    * such a number never its row's number, nor one the statement bounds by a variable
      not its rows' count (a road's length ``1 ≤ w_i ≤ 10^6``, its end ``1 ≤ v_i ≤ n``,
      that never equalled the road's number in the one example).

    The statement's own relations stay (:func:`stated_relations`), and so do a tree's or
    connected graph's ends' (their shape is the fact)."""
    free = set()
    for var, name in alignment.names.items():
        bound = stated.bound(name)
        if var in ranged and bound is not None and bound.low is not None and (
                bound.high is not None and bound.low_ref is None and bound.high_ref is None):
            free.add(var)
    counted = {frozenset(pair) for pair in _counted(grammar) if pair[0] in free}
    # "1 ≤ u_i, v_i ≤ n" read in each of m rows: u below m in every example was chance
    var_of = {name: var for var, name in alignment.names.items()}
    elsewhere = set()
    for number, count in _counted(grammar):
        bound = stated.bound(alignment.names.get(number, ""))
        ref = bound.high_ref if bound is not None else None
        if ref is not None and var_of.get(ref.name) not in (None, count):
            elsewhere.add(frozenset((number, count)))
    ends = {end for fact in facts.blocks.values() if fact.tree or fact.connected
            for end in fact.ends or ()}
    stated_pairs = {frozenset((r.left, r.right)) for r in stated_relations(alignment, stated)}

    def chance(relation: Relation) -> bool:
        pair = frozenset((relation.left, relation.right))
        if pair in stated_pairs:
            return False
        if relation.op in ("<", "<=") and pair in elsewhere:
            return True  # a graph's ends too: a vertex is no edge's number
        if pair & ends:
            return False
        return pair <= free or (relation.op in ("<", "<=") and pair in counted)

    runs = dict(facts.runs)
    # a number the statement bounds by constants, or by a variable not its rows' count,
    # is no row's number: that it never equalled its own was chance
    rowless = free | {number for pair in elsewhere for number in pair}
    blocks = {name: replace(fact, unlike_row=tuple(n for n in fact.unlike_row
                                                   if n not in rowless))
              for name, fact in facts.blocks.items()}
    if not SHAPES.search(REPEATS_ALLOWED.sub(" ", section)):
        # a run bounded by numbers, or item by item by another run (``l_i ≤ r_i ≤
        # 10^9``), has no shape the section does not name
        lists = {part.name for part in _segments(grammar) if isinstance(part, Seq)}
        pairwise_bounded = {var for var in lists & runs.keys() if _by_items(
            stated.bound(alignment.names.get(var, "")), var_of, lists)}
        runs = {var: RunFact() if var in free | pairwise_bounded else fact
                for var, fact in runs.items()}
        for block in _blocks(grammar):
            fact = blocks.get(block.name)
            read = {part.name for line in block.body if isinstance(line, Line)
                    for part in line.segments}
            if fact is not None and fact.distinct and read and read <= free and not (
                    fact.tree or fact.connected):
                blocks[block.name] = replace(fact, distinct=False, unordered=False)
    # every example's word of even length, where a section says nothing of evenness
    words = facts.words if not section or re.search(r"\beven\b", section, re.I) else {
        var: replace(fact, even=False) for var, fact in facts.words.items()}
    return replace(facts, relations=tuple(r for r in facts.relations if not chance(r)),
                   runs=runs, blocks=blocks, words=words)


def _by_items(bound: Bound | None, var_of: Mapping[str, str], lists: set[str]) -> bool:
    """Whether ``bound`` bounds a run's items by numbers or by another run's items only,
    both ways (``l_i ≤ r_i ≤ 10^9``)."""
    if bound is None:
        return False
    sides = [(bound.low, bound.low_ref), (bound.high, bound.high_ref)]
    return not bound.unread and all(
        (ref is None and number is not None) or (ref is not None and var_of.get(ref.name) in lists)
        for number, ref in sides)


def _segments(items: Sequence[Item]) -> Iterator[Field | Seq]:
    for item in items:
        if isinstance(item, Repeat):
            yield from _segments(item.body)
        else:
            yield from item.segments


def _blocks(items: Sequence[Item]) -> Iterator[Repeat]:
    for item in items:
        if isinstance(item, Repeat):
            yield item
            yield from _blocks(item.body)
