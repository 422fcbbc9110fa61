"""What holds of every example input beyond its grammar: ranges, relations, shapes.

Learnt from the examples' values (:func:`learn`), Daikon-style, and kept only when it
held on every one: a new input must keep it (:func:`check`). A fact that held by chance
(two examples whose ``a_i`` happen to be distinct) only narrows what new inputs may be;
a fact missed would let an input through that the statement may forbid, so the list
leans to keeping:

* each number's range (the examples' smallest and largest, widened only by bounds the
  statement gives, :class:`Range`); each word's alphabet and length;
* relations between numbers read in one scope: ``l <= r``, ``a_i <= n``, ``u != v``,
  ``x == y``, ``x <= |s|`` (a word's length: a position in it) (:class:`Relation`);
* a run's shape: its items distinct, sorted, a permutation of ``1..len``, or each item
  at most its position plus a constant (``p_i < i``) (:class:`RunFact`);
* a block's rows distinct, its pairs an undirected tree over ``1..n``, a field that never
  names its own row (``x_i != i``: coder ``i`` names two others) (:class:`BlockFact`);
  and, where the statement says so (never learnt: :func:`bound_degree`), at most ``K`` of
  its pairs at each vertex ("each student has no more than two archenemies");
* where the statement says so (never learnt): a field of a block that names another row
  or a root, and never leads back to a row (a forest of parent pointers: "there will be
  no managerial cycles", :func:`parent_pointers`); a block's pairs, as directed edges,
  closing no cycle ("no circular dependencies", :func:`acyclic`) or reaching every vertex
  from vertex 1 ("a path from the capital to all cities", :func:`reaching`); a block of
  lines ``a x + b y + c = 0``, each a line, no two the same, none through the points
  read before them (:func:`planar`);
* two points side by side on a line never the same point (``(x, y) != (u, v)`` on a line
  of four numbers or more: a person never looks at his own position) (``Facts.apart``);
* where the statement says so (never learnt): a number within a formula of the numbers
  read before it (``k <= n * (n - 1) / 2``, ``a_i <= 2 ** k - 1``) (:class:`Side`).

Pure: values in, facts out; facts and values in, a violation (or None) out.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import pairwise
from typing import Any

from evalplus_ng.generate.programs.formula import Formula
from evalplus_ng.generate.programs.grammar import (
    FLOAT,
    INT,
    WORD,
    Count,
    Field,
    Grammar,
    Item,
    Line,
    Repeat,
    Scalar,
    Seq,
    Values,
)

#: Relations tried between two numbers of one scope.
OPS = ("==", "<", "<=", "!=")
#: Pairs of values a relation must hold on to be learnt.
MIN_SUPPORT = 2
#: Equal pairs a ``!=`` relation must have avoided by chance to be learnt: the pairs of
#: values it held on, each counted as 1 over the width of the values' span (``y != m`` of
#: two examples' edges and edge counts, 5 pairs over ``1..6``, avoided less than one: no
#: fact; a value against a number of another line, 20 pairs over ``1..8``, 2.5). Two
#: numbers of one line (an edge's ends) need :data:`MIN_SUPPORT` pairs only, and a
#: relation the statement gives is kept apart from this (``u_i ≠ v_i``).
MIN_AVOIDED = 2.0
#: Rows (over all examples) a field must avoid its row's number on to be learnt as doing so.
MIN_ROWS = 3


@dataclass(frozen=True)
class Range:
    """The values a number may take (both ends included; integers kept exact)."""

    low: float
    high: float


@dataclass(frozen=True)
class Relation:
    """``left OP right`` for numbers of one scope; a run as ``left`` means each of its
    items."""

    left: str
    op: str
    right: str


@dataclass(frozen=True)
class Side:
    """``name OP formula`` (``OP`` ``<=`` or ``>=``) for a number (a run as ``name``: each
    of its items) and a formula of numbers of its scope or an enclosing one."""

    name: str
    op: str
    formula: Formula

    def limit(self, env: Mapping[str, Scalar]) -> float | None:
        """The side's value where ``env`` gives its formula's numbers, rounded inward for
        integers (``k <= 7/2``: ``k <= 3``); None where it does not."""
        value = self.formula.value(env)
        if value is None:
            return None
        return math.floor(value) if self.op == "<=" else math.ceil(value)

    def __str__(self) -> str:
        return f"{self.name} {self.op} {self.formula}"


@dataclass(frozen=True)
class RunFact:
    """The shape of a run of numbers."""

    distinct: bool = False
    #: "" (none), "<=" (non-decreasing) or "<" (increasing).
    order: str = ""
    permutation: bool = False
    #: Each item at most its 0-based position plus this (None: no such bound).
    position: int | None = None
    #: The items sum to at least / at most this; the statement's word, never learnt
    #: ("1 ≤ a_1 + a_2 + ... + a_n ≤ 300000").
    least_sum: int | None = None
    most_sum: int | None = None


@dataclass(frozen=True)
class WordFact:
    """A word's letters and length (``length``: a count it equals, if any)."""

    alphabet: str
    shortest: int
    longest: int
    length: Count | None = None
    #: Every example's length was even ("its length is even" goes unsaid as often as not).
    even: bool = False
    #: Its length is at most another word's read before it (``|t| ≤ |s|``: ``"|x2|"``);
    #: the statement's word, never learnt.
    most: str | None = None


@dataclass(frozen=True)
class BlockFact:
    """A block's rows: distinct (as tuples, or as unordered pairs); its first two integer
    fields the edges of a tree, or of a connected graph, over ``1..n`` (``n`` a variable;
    the fields after them, a weight, read as any others)."""

    distinct: bool = False
    unordered: bool = False
    #: The pairs are a tree over ``1..tree`` (a variable) in every example.
    tree: str | None = None
    #: The pairs join every vertex of ``1..connected`` (a variable) in every example.
    connected: str | None = None
    #: The block's first two fields, where they are integers.
    ends: tuple[str, str] | None = None
    #: Integer fields whose value is never its row's number (1-based) though it reads as
    #: one (every value between 1 and the rows' count).
    unlike_row: tuple[str, ...] = ()
    #: At most this many pairs name any one vertex, over both ends (a pair ``(v, v)``
    #: twice); the statement's word, never learnt.
    degree: int | None = None
    #: ``(field, root)``: the field names another row (1-based) or is ``root`` (a number
    #: below 1), and following the names from any row ends at a root; the statement's
    #: word, never learnt (:func:`parent_pointers`).
    parents: tuple[str, int] | None = None
    #: The rows are lines ``a x + b y + c = 0`` (their three fields): ``a`` and ``b`` not
    #: both 0, no two rows the same line; the statement's word, never learnt
    #: (:func:`planar`).
    lines: bool = False
    #: Points ``(x, y)`` (fields read before the block) no line of the rows passes through.
    off: tuple[tuple[str, str], ...] = ()
    #: The fields ``distinct`` (and ``unordered``) compare rows by (empty: all of them): an
    #: edge's two ends where a weight follows ("at most one road between two cities"), a
    #: person's location where the row also says where they look; the statement's word,
    #: never learnt (:func:`keyed`).
    key: tuple[str, ...] = ()
    #: Points ``(x, y)`` (fields read before the block) no row's first two fields are
    #: ("no stormtrooper stands at the same point with the gun"); the statement's word,
    #: never learnt (:func:`beside`).
    beside: tuple[tuple[str, str], ...] = ()
    #: The pairs, as undirected edges, join vertex 1 to vertex ``joins`` (a variable):
    #: "it is possible to move the token from vertex 1 to vertex n"; the statement's word,
    #: never learnt (:func:`joining`).
    joins: str | None = None
    #: ``(field, strict)``: the rows come in increasing order of ``field`` (strictly where
    #: ``strict``): "the lines are given in the order of strictly increasing xi"; the
    #: statement's word, never learnt (:func:`rising`).
    rising: tuple[str, bool] | None = None
    #: The pairs, as directed edges (first field to second), close no cycle: "there are
    #: no circular dependencies between tasks"; the statement's word, never learnt
    #: (:func:`acyclic`).
    acyclic: bool = False
    #: The pairs, as directed edges (first field to second), reach every vertex of
    #: ``1..reached`` (a variable) from vertex 1: "there is a path from the capital to all
    #: cities" of one-way roads; the statement's word, never learnt (:func:`reaching`).
    reached: str | None = None


@dataclass(frozen=True)
class Facts:
    """Everything learnt of a task's inputs."""

    ranges: Mapping[str, Range] = field(default_factory=dict)
    relations: tuple[Relation, ...] = ()
    runs: Mapping[str, RunFact] = field(default_factory=dict)
    words: Mapping[str, WordFact] = field(default_factory=dict)
    blocks: Mapping[str, BlockFact] = field(default_factory=dict)
    ties: tuple[tuple[Count, Count], ...] = ()
    #: Two points of one line (fields ``a b`` and ``c d``) never the same point.
    apart: tuple[tuple[str, str, str, str], ...] = ()
    #: Variables that count something (a run's length, a block's iterations).
    counts: frozenset[str] = frozenset()
    #: Numbers bounded by a formula of others (the statement's ``k ≤ n(n-1)/2``).
    sides: tuple[Side, ...] = ()
    #: Sums over the whole input the statement caps, ``(name, limit)``: a number's field
    #: (``n`` of every test case) or a word's length (``|s|``); the statement's word
    #: ("the sum of n over all test cases does not exceed 1000"), never learnt.
    totals: tuple[tuple[str, int], ...] = ()

    def describe(self) -> dict[str, Any]:
        """JSON-able (stored in the artifact's contract)."""
        return {
            "ranges": {name: [r.low, r.high] for name, r in sorted(self.ranges.items())},
            "relations": [f"{r.left} {r.op} {r.right}" for r in self.relations],
            "runs": {name: {k: v for k, v in vars(fact).items() if v not in (False, "", None)}
                     for name, fact in sorted(self.runs.items())},
            "words": {name: {"alphabet": w.alphabet, "length": [w.shortest, w.longest],
                             **({"equals": str(w.length)} if w.length else {}),
                             **({"even": True} if w.even else {}),
                             **({"most": w.most} if w.most else {})}
                      for name, w in sorted(self.words.items())},
            "blocks": {name: {k: v for k, v in vars(fact).items() if v not in (False, None, ())}
                       for name, fact in sorted(self.blocks.items())},
            "ties": [f"{a} == {b}" for a, b in self.ties],
            **({"apart": [f"({a}, {b}) != ({c}, {d})" for a, b, c, d in self.apart]}
               if self.apart else {}),
            **({"sides": [str(side) for side in self.sides]} if self.sides else {}),
            **({"totals": [f"sum {name} <= {limit}" for name, limit in self.totals]}
               if self.totals else {}),
            "counts": sorted(self.counts),
        }


@dataclass
class _Scope:
    """One scope's values: its own and the enclosing ones' scalars, its runs, its blocks."""

    env: dict[str, Scalar]
    values: Values
    items: Sequence[Item]


def length_name(word: str) -> str:
    """The name a word's length goes by among the numbers of its scope: ``|s|``."""
    return f"|{word}|"


def in_scope(env: Mapping[str, Scalar], scalars: Mapping[str, Scalar]) -> dict[str, Scalar]:
    """The numbers and words a value read after ``scalars`` (in ``env``) may relate to:
    those, and each word's length as :func:`length_name` (``1 ≤ x ≤ |s|``: a position in
    a string read before)."""
    return {**env, **scalars, **{length_name(name): len(value)
                                 for name, value in scalars.items() if isinstance(value, str)}}


def _variable(name: str) -> bool:
    """Whether ``name`` is a value read (not a word's length)."""
    return not name.startswith("|")


def scopes(grammar: Grammar, values: Values,
           env: Mapping[str, Scalar] | None = None) -> Iterator[_Scope]:
    """Every scope of a parsed input: the whole input, then each block's iterations."""
    here = in_scope(env or {}, values.scalars)
    yield _Scope(here, values, grammar)
    for item in grammar:
        if isinstance(item, Repeat):
            for inner in values.blocks.get(item.name, []):
                yield from scopes(item.body, inner, here)


def _fields(items: Sequence[Item]) -> Iterator[Field | Seq]:
    for item in items:
        if isinstance(item, Line):
            yield from item.segments


def holds(op: str, a: float, b: float) -> bool:
    """Whether ``a op b`` for one of :data:`OPS` (or ``>=``, a :class:`Side`'s)."""
    return {"==": a == b, "<": a < b, "<=": a <= b, "!=": a != b, ">=": a >= b}[op]


def exact(value: Scalar) -> float:
    """A number as read: an integer stays one (past 2**53 a float would round a bound
    such as ``10**18 - 1`` up to ``10**18``)."""
    return value if isinstance(value, int | float) else float(value)


def _number(value: Scalar) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _joined(pairs: Sequence[tuple[int, int]], n: int) -> tuple[int, bool] | None:
    """(connected parts of ``1..n``, whether a pair closed a cycle) for the pairs as
    undirected edges; None when a pair names a vertex outside ``1..n``."""
    if n < 1 or any(not (1 <= u <= n and 1 <= v <= n) for u, v in pairs):
        return None
    parent = list(range(n + 1))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    cycle = False
    for u, v in pairs:
        a, b = find(u), find(v)
        cycle = cycle or a == b
        parent[a] = b
    return len({find(x) for x in range(1, n + 1)}), cycle


def linked(pairs: Sequence[tuple[Scalar, Scalar]], a: int, b: int) -> bool:
    """Whether the pairs, as undirected edges, join vertex ``a`` to vertex ``b``."""
    parent: dict[Scalar, Scalar] = {}

    def find(x: Scalar) -> Scalar:
        while parent.get(x, x) != x:
            parent[x] = parent.get(parent[x], parent[x])
            x = parent[x]
        return x

    for u, v in pairs:
        parent[find(u)] = find(v)
    return find(a) == find(b)


def closes_no_cycle(pairs: Sequence[tuple[Scalar, Scalar]]) -> bool:
    """Whether the pairs, as directed edges (first to second), close no cycle (a loop
    ``(v, v)`` is one)."""
    after: dict[Scalar, list[Scalar]] = {}
    entering: Counter[Scalar] = Counter()
    for u, v in pairs:
        after.setdefault(u, []).append(v)
        entering[v] += 1
    vertices = {end for pair in pairs for end in pair}
    ready = [vertex for vertex in vertices if not entering[vertex]]
    done = 0
    while ready:
        done += 1
        for v in after.get(ready.pop(), []):
            entering[v] -= 1
            if not entering[v]:
                ready.append(v)
    return done == len(vertices)


def reaches_all(pairs: Sequence[tuple[int, int]], n: int) -> bool:
    """Whether the pairs, as directed edges (first to second), reach every vertex of
    ``1..n`` from vertex 1 (and name no other)."""
    if n < 1 or any(not (1 <= u <= n and 1 <= v <= n) for u, v in pairs):
        return False
    after: dict[int, list[int]] = {}
    for u, v in pairs:
        after.setdefault(u, []).append(v)
    seen, stack = {1}, [1]
    while stack:
        for v in after.get(stack.pop(), []):
            if v not in seen:
                seen.add(v)
                stack.append(v)
    return len(seen) == n


def _is_tree(pairs: Sequence[tuple[int, int]], n: int) -> bool:
    return len(pairs) == n - 1 and _joined(pairs, n) == (1, False)


def _is_connected(pairs: Sequence[tuple[int, int]], n: int) -> bool:
    """Whether the pairs join every vertex of ``1..n`` (and name no other)."""
    joined = _joined(pairs, n)
    return joined is not None and joined[0] == 1


def learn(grammar: Grammar, examples: Sequence[Values],
          ties: Sequence[tuple[Count, Count]] = ()) -> Facts:
    """The facts that hold on every one of ``examples`` (parsed with ``grammar``)."""
    all_scopes = [scope for values in examples for scope in scopes(grammar, values)]
    numbers: dict[str, list[float]] = {}
    words: dict[str, list[str]] = {}
    for scope in all_scopes:
        for part in _fields(scope.items):
            got: list[Scalar] = ([scope.values.scalars[part.name]] if isinstance(part, Field)
                                 else list(scope.values.lists.get(part.name, [])))
            if part.kind == WORD:
                words.setdefault(part.name, []).extend(str(value) for value in got)
            else:
                numbers.setdefault(part.name, []).extend(exact(value) for value in got)
    ranges = {name: Range(min(seen), max(seen)) for name, seen in numbers.items() if seen}
    relations = list(_relations(all_scopes))
    blocks = _blocks(all_scopes)
    for fact in blocks.values():
        # a tree's or a connected graph's ends are any vertices: its shape is the fact
        n = fact.tree or fact.connected
        if n is not None and n in ranges and fact.ends is not None:
            relations = _any_vertex(fact.ends, n, ranges, relations)
    worded = _words(all_scopes, words)
    # a word's length is a size too ("n, then a string of n digits")
    lengths = {fact.length.var for fact in worded.values()
               if fact.length is not None and fact.length.var is not None}
    return Facts(
        ranges=ranges,
        relations=tuple(relations),
        runs=_runs(all_scopes),
        words=worded,
        blocks=blocks,
        ties=tuple(ties),
        apart=tuple(_apart(all_scopes)),
        counts=frozenset(count_names(grammar)) | lengths)


def _any_vertex(ends: Sequence[str], n: str, ranges: dict[str, Range],
                relations: Sequence[Relation]) -> list[Relation]:
    """``relations`` with an edge block's ``ends`` any vertex of ``1..n``: each ranging
    over ``1..n``'s largest (set in ``ranges``) and kept ``<= n``; what held of the
    examples' ends against ``n`` by chance goes, what held between the two ends (``u <
    v``, ``u != v``) stays."""
    for end in ends:
        ranges[end] = Range(1, ranges[n].high)
    return [r for r in relations if not (r.left in ends and r.right == n)] + [
        Relation(end, "<=", n) for end in ends]


def spread(facts: Facts) -> Facts:
    """``facts`` with each tree's or connected graph's ends ranging over ``1..n``'s range
    (after the statement widened ``n``'s)."""
    ranges = dict(facts.ranges)
    for fact in facts.blocks.values():
        n = fact.tree or fact.connected
        if n is not None and n in ranges and fact.ends is not None:
            for end in fact.ends:
                ranges[end] = Range(1, ranges[n].high)
    return replace(facts, ranges=ranges)


def edge_blocks(items: Sequence[Item]) -> Iterator[Repeat]:
    """The grammar's blocks (nested ones too) of one line that begins with two integers:
    a block of edges, its first two fields their ends."""
    for item in items:
        if isinstance(item, Repeat):
            line = item.body[0] if len(item.body) == 1 else None
            if isinstance(line, Line) and len(line.segments) >= 2 and all(
                    isinstance(part, Field) and part.kind == INT for part in line.segments[:2]):
                yield item
            yield from edge_blocks(item.body)


def _integers(line: Line, counts: frozenset[str]) -> list[str] | None:
    """The names of a line's fields where it holds integer fields only and none of them
    counts anything (None: it holds something else)."""
    if not all(isinstance(part, Field) and part.kind == INT and part.name not in counts
               for part in line.segments):
        return None
    return [part.name for part in line.segments]


def point_blocks(items: Sequence[Item], facts: Facts) -> dict[str, tuple[str, ...]]:
    """The grammar's blocks (nested ones too) whose rows may be points ``x y`` or circles
    ``x y r``: one line of two or three integer fields, and no fact reading its first two
    as vertices (a tree, a connected graph, a bound on degrees, a field naming a row)."""
    out: dict[str, tuple[str, ...]] = {}
    for block in edge_blocks(items):
        line = block.body[0]
        assert isinstance(line, Line)
        names = _integers(line, facts.counts)
        fact = facts.blocks.get(block.name, BlockFact())
        if names is not None and len(names) in (2, 3) and not (
                fact.tree or fact.connected or fact.degree is not None or fact.unlike_row):
            out[block.name] = tuple(names)
    return out


def point_fields(items: Sequence[Item], facts: Facts) -> list[tuple[str, str]]:
    """The points ``(x, y)`` of one scope's lines of two or four integer fields (a point,
    or a segment's two ends), none of them a count: where there are three or more (the
    three points of a polyline, a mirror's and a wall's ends), else none."""
    out: list[tuple[str, str]] = []
    for item in items:
        if isinstance(item, Line):
            names = _integers(item, facts.counts)
            if names is not None and len(names) in (2, 4):
                out += zip(names[::2], names[1::2], strict=True)
    return out if len(out) >= 3 else []


def bound_degree(facts: Facts, grammar: Grammar, limit: int) -> Facts | None:
    """``facts`` with at most ``limit`` edges at each vertex of the grammar's one block of
    edges (:func:`edge_blocks`), its ends ranging over ``1..n``'s range where every example
    kept both at most ``n`` (any vertex may end an edge: the degree is the fact); None
    where the grammar has no such block or several (which one the statement means is
    unknown)."""
    blocks = list(edge_blocks(grammar))
    if len(blocks) != 1:
        return None
    block = blocks[0]
    line = block.body[0]
    assert isinstance(line, Line)
    ends = (line.segments[0].name, line.segments[1].name)
    fact = replace(facts.blocks.get(block.name, BlockFact()), ends=ends, degree=limit)
    ranges = dict(facts.ranges)
    bounding = [{r.right for r in facts.relations if r.left == end and r.op == "<="}
                for end in ends]
    n = next((name for name in sorted(bounding[0] & bounding[1]) if name in ranges), None)
    if n is not None:
        for end in ends:
            if end in ranges:
                ranges[end] = Range(ranges[end].low, max(ranges[end].high, ranges[n].high))
    return replace(facts, blocks={**facts.blocks, block.name: fact}, ranges=ranges)


def parent_pointers(facts: Facts, grammar: Grammar, examples: Sequence[Values]) -> Facts | None:
    """``facts`` with the one block of lines of one integer whose numbers every example
    keeps as parent pointers (:attr:`BlockFact.parents`: one root below 1 beside row
    numbers, at least :data:`MIN_ROWS` rows in all, one pointer at least), ranging from
    the root to the most rows, and related to no other number (what held between a
    pointer and ``n`` in the examples was chance: any row may be a parent); None where no
    block or several are (which one the statement means is unknown)."""
    columns: dict[tuple[str, str], list[list[int]]] = {}
    blocks: dict[str, Repeat] = {}
    for values in examples:
        for scope in scopes(grammar, values):
            for item in scope.items:
                line = item.body[0] if isinstance(item, Repeat) and len(item.body) == 1 else None
                if not isinstance(line, Line) or not isinstance(item, Repeat):
                    continue
                blocks[item.name] = item
                rows = scope.values.blocks.get(item.name, [])
                part = line.segments[0]
                if len(line.segments) == 1 and isinstance(part, Field) and part.kind == INT:
                    columns.setdefault((item.name, part.name), []).append(
                        [int(row.scalars[part.name]) for row in rows])
    found = [(block, name, root) for (block, name), lists in columns.items()
             if (root := _root(lists)) is not None]
    if len(found) != 1:
        return None
    block, name, root = found[0]
    count = blocks[block].count
    if count.var is not None and count.var not in facts.ranges:
        return None
    most = count.of({count.var: int(facts.ranges[count.var].high)} if count.var else {})
    fact = replace(facts.blocks.get(block, BlockFact()), parents=(name, root))
    return replace(facts, blocks={**facts.blocks, block: fact},
                   ranges={**facts.ranges, name: Range(root, most)},
                   relations=tuple(r for r in facts.relations if name not in (r.left, r.right)))


def _root(lists: Sequence[Sequence[int]]) -> int | None:
    """The root of parent pointers every one of ``lists`` is (:func:`_forest`): the one
    value below 1 they hold besides row numbers; None where they are none."""
    outside = {value for values in lists for value in values if not 1 <= value <= len(values)}
    if len(outside) != 1 or sum(map(len, lists)) < MIN_ROWS:
        return None
    root = outside.pop()
    if root >= 1 or all(value == root for values in lists for value in values):
        return None
    return root if all(_forest(values, root) is None for values in lists) else None


def _forest(values: Sequence[int], root: int) -> str | None:
    """Why ``values`` (row ``k``'s parent at ``k - 1``) are no forest of parent pointers
    whose roots hold ``root`` (None: they are one)."""
    for value in values:
        if value != root and not 1 <= value <= len(values):
            return f"{value} is no row"
    done = [False] * (len(values) + 1)  # a row whose pointers end at a root
    for start in range(1, len(values) + 1):
        path: list[int] = []
        vertex = start
        while vertex != root and not done[vertex]:
            if vertex in path:
                return f"row {vertex} leads back to itself"
            path.append(vertex)
            vertex = values[vertex - 1]
        for vertex in path:
            done[vertex] = True
    return None


def line_key(a: int, b: int, c: int) -> tuple[int, int, int] | None:
    """The line ``a x + b y + c = 0`` as the same three numbers whatever multiple of
    them a row gives (divided by their gcd, the first of ``a``, ``b`` not 0 positive);
    None where ``a`` and ``b`` are both 0 (no line)."""
    if a == 0 and b == 0:
        return None
    divisor = math.gcd(a, b, c) * (-1 if a < 0 or (a == 0 and b < 0) else 1)
    return a // divisor, b // divisor, c // divisor


def line_problem(row: Sequence[Scalar], points: Sequence[tuple[Scalar, Scalar]],
                 seen: set[tuple[int, int, int]]) -> str | None:
    """Why the row ``a b c`` is no new line besides the lines ``seen`` (their
    :func:`line_key`), off ``points`` (None: it is one, and its key joins ``seen``)."""
    a, b, c = (int(value) for value in row[:3])
    key = line_key(a, b, c)
    if key is None:
        return f"{a} {b} {c} is no line"
    if key in seen:
        return f"{a} {b} {c} is a line given before"
    for x, y in points:
        if a * int(x) + b * int(y) + c == 0:
            return f"{a} {b} {c} passes through ({x}, {y})"
    seen.add(key)
    return None


def planar(facts: Facts, grammar: Grammar, examples: Sequence[Values]) -> Facts | None:
    """``facts`` with the grammar's one block of three integer fields (none a count) read
    as lines ``a x + b y + c = 0`` (:attr:`BlockFact.lines`): off the points of two
    integer fields read before it (lines of two or four) where no example's line passes
    through one (else off none: the statement speaks of other points), and related to no
    other number (any line off the points is one: what held between a coefficient and
    another number in the examples was chance); None where there is no such block or
    several, or an example's rows are no such lines."""
    found = [(block, names) for block in edge_blocks(grammar)
             if isinstance(line := block.body[0], Line)
             and len(names := _integers(line, facts.counts) or []) == 3]
    if len(found) != 1:
        return None
    block, coefficients = found[0]
    points = [pair for line in _before(grammar, block.name) or []
              if len(names := _integers(line, facts.counts) or []) in (2, 4)
              for pair in zip(names[::2], names[1::2], strict=True)]
    around = _around(block, grammar, examples)
    fact = replace(facts.blocks.get(block.name, BlockFact()), lines=True, off=tuple(points))
    if any(_check_block(block, fact, scope) for scope in around):
        fact = replace(fact, off=())
        if any(_check_block(block, fact, scope) for scope in around):
            return None
    return replace(facts, blocks={**facts.blocks, block.name: fact},
                   relations=tuple(r for r in facts.relations
                                   if not {r.left, r.right} & set(coefficients)))


def _around(block: Repeat, grammar: Grammar, examples: Sequence[Values]) -> list[_Scope]:
    """The scopes of ``examples`` that read ``block`` (to check a fact of it on them)."""
    return [scope for values in examples for scope in scopes(grammar, values)
            if block in scope.items]


def rising(facts: Facts, grammar: Grammar, examples: Sequence[Values], name: str,
           strict: bool) -> Facts | None:
    """``facts`` with the one block of one line whose field ``name`` every example gives
    in increasing order down the rows (strictly where ``strict``), as the statement says
    (:attr:`BlockFact.rising`); None where no block reads ``name`` or an example breaks
    the order."""
    for block in _blocks_of_lines(grammar):
        line = block.body[0]
        assert isinstance(line, Line)
        if not any(isinstance(part, Field) and part.name == name and part.kind in (INT, FLOAT)
                   for part in line.segments):
            continue
        for scope in _around(block, grammar, examples):
            column = [exact(row.scalars[name])
                      for row in scope.values.blocks.get(block.name, [])]
            if any(b < a or (strict and a == b) for a, b in pairwise(column)):
                return None
        fact = replace(facts.blocks.get(block.name, BlockFact()), rising=(name, strict))
        return replace(facts, blocks={**facts.blocks, block.name: fact})
    return None


def _blocks_of_lines(items: Sequence[Item]) -> Iterator[Repeat]:
    """The grammar's blocks (nested ones too) whose body is one line."""
    for item in items:
        if isinstance(item, Repeat):
            if len(item.body) == 1 and isinstance(item.body[0], Line):
                yield item
            yield from _blocks_of_lines(item.body)


def joining(facts: Facts, grammar: Grammar, examples: Sequence[Values], end: str,
            ) -> Facts | None:
    """``facts`` with the one block of edges (:func:`edge_blocks`) whose pairs join vertex
    1 to vertex ``end`` (a variable read before it) in every example, as the statement
    says (:attr:`BlockFact.joins`); None where no block or several do."""
    found = set()
    for block in edge_blocks(grammar):
        around = _around(block, grammar, examples)
        if around and all(isinstance(scope.env.get(end), int) and linked(
                _pairs(block, scope), 1, int(scope.env[end])) for scope in around):
            found.add(block.name)
    if len(found) != 1:
        return None
    name = found.pop()
    fact = replace(facts.blocks.get(name, BlockFact()), joins=end)
    return replace(facts, blocks={**facts.blocks, name: fact})


def acyclic(facts: Facts, grammar: Grammar, examples: Sequence[Values]) -> Facts | None:
    """``facts`` with the one block of edges (:func:`edge_blocks`) whose pairs, as directed
    edges, close no cycle in any example (:attr:`BlockFact.acyclic`), as the statement
    says; None where no block or several do, or the block is a tree or connected (drawn
    whole: no edge of it is turned)."""
    found = [block for block in edge_blocks(grammar)
             if (around := _around(block, grammar, examples))
             and all(closes_no_cycle(_pairs(block, scope)) for scope in around)]
    if len(found) != 1:
        return None
    block = found[0]
    was = facts.blocks.get(block.name, BlockFact())
    if was.tree or was.connected:
        return None
    return _vertices(replace(facts, blocks={**facts.blocks, block.name: replace(
        was, acyclic=True)}), block)


def _vertices(facts: Facts, block: Repeat) -> Facts:
    """``facts`` with an edge block's ends free to be any vertex: each end below another
    number (``u < n``, ``u <= n``; not the block's count: a vertex is no edge's number)
    ranges up to that number's largest, and what held between an end and the count goes
    (chance, as :func:`multigraph` says)."""
    fact = facts.blocks.get(block.name)
    if fact is None or fact.ends is None:
        return facts
    ranges = dict(facts.ranges)
    count = block.count.var
    for end in fact.ends:
        above = [(r.right, r.op) for r in facts.relations if r.left == end
                 and r.op in ("<", "<=") and r.right != count and r.right in ranges]
        if end in ranges and above:
            name, op = above[0]
            top = ranges[name].high - (1 if op == "<" else 0)
            ranges[end] = Range(ranges[end].low, max(ranges[end].high, top))
    relations = tuple(r for r in facts.relations
                      if not (count is not None and r.left in fact.ends and r.right == count))
    return replace(facts, ranges=ranges, relations=relations)


def reaching(facts: Facts, grammar: Grammar, examples: Sequence[Values]) -> Facts | None:
    """``facts`` with the one block of edges (:func:`edge_blocks`) whose pairs, as
    directed edges, reach every vertex of ``1..n`` from vertex 1 in every example, ``n``
    a variable read before it (:attr:`BlockFact.reached`), as the statement says: its
    ends range over ``1..n``, its count is ``n - 1`` at least (a side), and it is neither
    a tree nor connected as learnt (a random tree out of vertex 1 keeps the graph
    connected); None where no block or several do."""
    found = []
    for block in edge_blocks(grammar):
        graphs = [(_pairs(block, scope), scope.env)
                  for scope in _around(block, grammar, examples)]
        n = _vertex_count(graphs, reaches_all, lambda _edges, n: n >= 2)
        if n is not None:
            found.append((block, n))
    if len(found) != 1:
        return None
    block, n = found[0]
    fact = replace(facts.blocks.get(block.name, BlockFact()), reached=n, tree=None,
                   connected=None)
    count = block.count.var
    sides = facts.sides if count is None else (
        *facts.sides, Side(count, ">=", Formula(f"{n} - 1")))
    ranges = dict(facts.ranges)
    relations = list(facts.relations)
    if fact.ends is not None and n in ranges:
        relations = _any_vertex(fact.ends, n, ranges, relations)
    return replace(facts, blocks={**facts.blocks, block.name: fact}, ranges=ranges,
                   relations=tuple(relations), sides=sides)


def edge_ends(block: Repeat) -> tuple[str, str]:
    """The names of a block of edges' two ends (:func:`edge_blocks`: its line's first two
    fields)."""
    line = block.body[0]
    assert isinstance(line, Line)
    u, v = (part.name for part in line.segments[:2])
    return u, v


def _pairs(block: Repeat, scope: _Scope) -> list[tuple[int, int]]:
    """The block's rows in ``scope``, each its first two fields (integers: an edge's
    ends, :func:`edge_blocks`)."""
    u, v = edge_ends(block)
    return [(int(row.scalars[u]), int(row.scalars[v]))
            for row in scope.values.blocks.get(block.name, [])]


def keyed(facts: Facts, grammar: Grammar, examples: Sequence[Values],
          places: bool) -> Facts:
    """``facts`` with each block whose rows begin with two integers and hold more
    (:func:`edge_blocks`: an edge and its weight, a person's location and where they
    look) distinct by those two (:attr:`BlockFact.key`), where every example keeps it: as
    unordered pairs (an undirected edge) where the examples showed the rows so and
    ``places`` is false, as ordered ones (a point ``(x, y)``) where ``places``. A block
    of two integers, where it is the grammar's only such block, has its rows distinct
    (as unordered pairs unless ``places`` or the examples showed a pair both ways), though
    its examples had too few rows to learn it (one edge: ``156_d``)."""
    blocks = dict(facts.blocks)
    found = list(edge_blocks(grammar))
    for block in found:
        line = block.body[0]
        assert isinstance(line, Line)
        was = blocks.get(block.name, BlockFact())
        if len(line.segments) >= 3:
            fact = replace(was, distinct=True, unordered=was.unordered and not places,
                           key=(line.segments[0].name, line.segments[1].name))
        elif len(found) == 1 and not was.distinct:
            fact = replace(was, distinct=True, unordered=not places)
        else:
            continue  # two fields: the whole row is the pair, kept distinct as learnt
        around = _around(block, grammar, examples)
        if any(_check_block(block, fact, scope) for scope in around):
            fact = replace(fact, unordered=False)
        if not any(_check_block(block, fact, scope) for scope in around):
            blocks[block.name] = fact
    return replace(facts, blocks=blocks)


def beside(facts: Facts, grammar: Grammar, examples: Sequence[Values]) -> Facts | None:
    """``facts`` with the grammar's one block of points (two integer fields, none a
    count) kept off the points read before it (:attr:`BlockFact.beside`: the integers of
    a line, counts aside, two or four of them), where every example keeps it; None where
    there is no such block or several, or no point before it, or an example breaks it."""
    found = [block for block in edge_blocks(grammar)
             if isinstance(line := block.body[0], Line)
             and len(_integers(line, facts.counts) or []) == 2]
    if len(found) != 1:
        return None
    block = found[0]
    points: list[tuple[str, str]] = []
    for line in _before(grammar, block.name) or []:
        names = [part.name for part in line.segments if isinstance(part, Field)
                 and part.kind == INT and part.name not in facts.counts]
        if len(names) in (2, 4) and len(names) == len(line.segments) - sum(
                isinstance(part, Field) and part.name in facts.counts
                for part in line.segments):
            points += zip(names[::2], names[1::2], strict=True)
    if not points:
        return None
    fact = replace(facts.blocks.get(block.name, BlockFact()), beside=tuple(points))
    around = _around(block, grammar, examples)
    if any(_check_block(block, fact, scope) for scope in around):
        return None
    return replace(facts, blocks={**facts.blocks, block.name: fact})


def _before(items: Sequence[Item], name: str) -> list[Line] | None:
    """The lines read before the block ``name``, in its scope and the scopes around it
    (None: no such block)."""
    for index, item in enumerate(items):
        if isinstance(item, Repeat):
            inner = [] if item.name == name else _before(item.body, name)
            if inner is not None:
                return [line for line in items[:index] if isinstance(line, Line)] + inner
    return None


def degrees(pairs: Sequence[tuple[Scalar, Scalar]]) -> Counter[Scalar]:
    """How many pairs name each vertex (a pair ``(v, v)`` twice)."""
    return Counter(end for pair in pairs for end in pair)


def multigraph(facts: Facts, grammar: Grammar, loops: bool = True) -> Facts:
    """``facts`` for a graph that may repeat an edge or join a vertex to itself (the
    statement says so): each edge block's rows neither distinct nor a tree nor connected,
    its ends free to equal their row's number (a vertex is no row's), and no relation
    between an edge's two ends (``u < v``) or from an end to the block's count (``u <=
    m``: a vertex is no edge's number), whatever the examples showed; but ``u != v`` where
    the statement forbids ``loops`` while it allows repeated edges."""
    blocks = dict(facts.blocks)
    dropped: set[tuple[str, str]] = set()
    unequal: list[Relation] = []
    for block in edge_blocks(grammar):
        fact = blocks.get(block.name)
        if fact is None or fact.ends is None:
            continue
        a, b = fact.ends
        blocks[block.name] = replace(fact, distinct=False, unordered=False, tree=None,
                                     connected=None, unlike_row=tuple(
                                         name for name in fact.unlike_row if name not in (a, b)))
        dropped |= {(a, b), (b, a)}
        if not loops:
            unequal.append(Relation(a, "!=", b))
        if block.count.var is not None:
            dropped |= {(a, block.count.var), (b, block.count.var)}
    relations = tuple(r for r in facts.relations if (r.left, r.right) not in dropped)
    return replace(facts, blocks=blocks, relations=(*relations, *unequal))


def count_names(items: Sequence[Item]) -> Iterator[str]:
    """The variables that count something in ``items`` (a block's count, a run's length)."""
    for item in items:
        if isinstance(item, Repeat):
            if item.count.var is not None:
                yield item.count.var
            yield from count_names(item.body)
        else:
            for part in item.segments:
                if isinstance(part, Seq) and part.length.var is not None:
                    yield part.length.var


def _relations(all_scopes: Sequence[_Scope]) -> Iterator[Relation]:
    """Relations between a number of a scope (a field or each item of a run) and a
    scalar number in scope, held in every scope where both are, on at least
    :data:`MIN_SUPPORT` pairs of values (one pair, such as the two numbers of a lone
    example, shows nothing: the statement's own relations come from its bounds); ``!=``
    only where equal values were likely enough to be missed (:data:`MIN_AVOIDED`)."""
    verdicts: dict[tuple[str, str, str], bool] = {}
    support: dict[tuple[str, str], int] = {}
    spans: dict[tuple[str, str], list[float]] = {}
    # the line each number is read on: two of one line (an edge's ends) keep ``!=`` as
    # before, a loop the statement forbids in words no parse reads
    lines = {part.name: id(item) for scope in all_scopes for item in scope.items
             if isinstance(item, Line) for part in item.segments}
    for scope in all_scopes:
        scalars = {k: v for k, v in scope.env.items() if _number(v)}
        left_items: dict[str, list[float]] = {}
        for part in _fields(scope.items):
            if part.kind == WORD:
                continue
            if isinstance(part, Field):
                left_items[part.name] = [exact(scope.values.scalars[part.name])]
            else:
                left_items[part.name] = [exact(v) for v in scope.values.lists[part.name]]
        for left, items in left_items.items():
            for right, value in scalars.items():
                if right == left or not items:
                    continue
                for op in OPS:
                    key = (left, op, right)
                    ok = all(holds(op, item, exact(value)) for item in items)
                    verdicts[key] = verdicts.get(key, True) and ok
                support[left, right] = support.get((left, right), 0) + len(items)
                span = spans.setdefault((left, right), [math.inf, -math.inf])
                span[0] = min(span[0], *items, exact(value))
                span[1] = max(span[1], *items, exact(value))
    order = {name: index for index, name in enumerate(dict.fromkeys(
        name for (name, _op, _right) in verdicts))}
    for (left, op, right), ok in verdicts.items():
        if not ok or support[left, right] < MIN_SUPPORT:
            continue
        # the strongest only: == over <= ; < over <= and != ; and each pair once
        if op == "<=" and (verdicts.get((left, "<", right)) or verdicts.get((left, "==", right))):
            continue
        if op == "!=" and verdicts.get((left, "<", right)):
            continue
        low, high = spans[left, right]
        if (op == "!=" and lines.get(left) != lines.get(right)
                and support[left, right] / (high - low + 1) < MIN_AVOIDED):
            continue  # the values were too far apart to meet by chance
        mirrored = (right, op, left)
        if op in ("!=", "==") and verdicts.get(mirrored) and order.get(right, 0) < order[left]:
            continue  # the same relation read the other way round
        yield Relation(left, op, right)


def _apart(all_scopes: Sequence[_Scope]) -> Iterator[tuple[str, str, str, str]]:
    """Pairs of numbers side by side on one line (``x y u v``: two points) that were never
    the same pair, over at least :data:`MIN_SUPPORT` lines: a person at ``(x, y)`` looks
    at another point ``(u, v)``."""
    seen: dict[tuple[str, str, str, str], list[bool]] = {}
    for scope in all_scopes:
        for item in scope.items:
            if not isinstance(item, Line):
                continue
            numbers = [part.name for part in item.segments
                       if isinstance(part, Field) and part.kind in (INT, FLOAT)]
            if len(numbers) != len(item.segments) or len(numbers) < 4:
                continue
            for k in range(0, len(numbers) - 3, 2):
                a, b, c, d = numbers[k:k + 4]
                values = scope.values.scalars
                seen.setdefault((a, b, c, d), []).append(
                    (values[a], values[b]) != (values[c], values[d]))
    for names, verdicts in seen.items():
        if len(verdicts) >= MIN_SUPPORT and all(verdicts):
            yield names


def _runs(all_scopes: Sequence[_Scope]) -> dict[str, RunFact]:
    lists: dict[str, list[list[float]]] = {}
    for scope in all_scopes:
        for part in _fields(scope.items):
            if isinstance(part, Seq) and part.kind != WORD:
                lists.setdefault(part.name, []).append(
                    [exact(v) for v in scope.values.lists[part.name]])
    out = {}
    for name, runs in lists.items():
        longest = max((len(run) for run in runs), default=0)
        if longest < 2:
            out[name] = RunFact()
            continue
        distinct = all(len(set(run)) == len(run) for run in runs)
        increasing = all(all(a < b for a, b in pairwise(run)) for run in runs)
        nondecreasing = all(all(a <= b for a, b in pairwise(run)) for run in runs)
        permutation = all(sorted(run) == [float(i) for i in range(1, len(run) + 1)]
                          for run in runs)
        position = max((item - k for run in runs for k, item in enumerate(run)), default=0)
        out[name] = RunFact(
            distinct=distinct, order="<" if increasing else "<=" if nondecreasing else "",
            permutation=permutation,
            position=int(position) if position <= 1 and not permutation else None)
    return out


def _words(all_scopes: Sequence[_Scope], seen: Mapping[str, list[str]]) -> dict[str, WordFact]:
    lengths: dict[str, list[Count]] = {}
    for scope in all_scopes:
        for part in _fields(scope.items):
            if part.kind != WORD:
                continue
            items = ([str(scope.values.scalars[part.name])] if isinstance(part, Field)
                     else [str(v) for v in scope.values.lists[part.name]])
            candidates = [Count(name, offset) for name, value in scope.env.items()
                          if isinstance(value, int) and name != part.name and _variable(name)
                          for offset in (0, -1, 1)]
            fitting = [count for count in candidates
                       if all(len(item) == count.of(scope.env) for item in items)]
            if part.name in lengths:
                lengths[part.name] = [c for c in lengths[part.name] if c in fitting]
            else:
                lengths[part.name] = fitting
    out = {}
    for name, items in seen.items():
        alphabet = "".join(sorted(set("".join(items))))
        equal = lengths.get(name) or []
        out[name] = WordFact(alphabet, min(map(len, items)), max(map(len, items)),
                             equal[0] if equal else None,
                             all(len(item) % 2 == 0 for item in items))
    return out


def _blocks(all_scopes: Sequence[_Scope]) -> dict[str, BlockFact]:
    rows: dict[str, list[list[tuple[Scalar, ...]]]] = {}
    kinds: dict[str, list[tuple[str, str]]] = {}
    pairs: dict[str, list[tuple[list[tuple[int, int]], dict[str, Scalar]]]] = {}
    endpoints: dict[str, tuple[str, str]] = {}
    for scope in all_scopes:
        for item in scope.items:
            if not isinstance(item, Repeat) or len(item.body) != 1:
                continue
            line = item.body[0]
            if not isinstance(line, Line) or not all(isinstance(p, Field) for p in line.segments):
                continue
            names = [p.name for p in line.segments]
            kinds[item.name] = [(p.name, p.kind) for p in line.segments]
            iterations = scope.values.blocks.get(item.name, [])
            rows.setdefault(item.name, []).append(
                [tuple(it.scalars[n] for n in names) for it in iterations])
            if len(names) >= 2 and all(p.kind == INT for p in line.segments[:2]):
                endpoints[item.name] = (names[0], names[1])
                pairs.setdefault(item.name, []).append((
                    [(int(it.scalars[names[0]]), int(it.scalars[names[1]])) for it in iterations],
                    dict(scope.env)))
    out = {}
    for name, examples in rows.items():
        if max((len(r) for r in examples), default=0) < 2:
            continue
        distinct = all(len(set(r)) == len(r) for r in examples)
        unordered = distinct and all(
            len({tuple(sorted(map(str, row))) for row in r}) == len(r) for r in examples)
        graphs = pairs.get(name, [])
        tree = _vertex_count(graphs, _is_tree, lambda edges, _n: len(edges) >= 2)
        connected = _vertex_count(graphs, _is_connected, lambda _edges, n: n >= 3)
        unlike = _unlike_row(examples, kinds[name])
        if tree and name in endpoints:
            # a tree's ends are vertices, not row numbers (its n - 1 edges): an end never
            # its edge's number was chance
            unlike = tuple(field for field in unlike if field not in endpoints[name])
        if distinct or tree or connected or unlike:
            out[name] = BlockFact(distinct, unordered, tree, None if tree else connected,
                                  endpoints.get(name), unlike)
    return out


def _unlike_row(examples: Sequence[Sequence[tuple[Scalar, ...]]],
                fields: Sequence[tuple[str, str]]) -> tuple[str, ...]:
    """The integer fields (``fields``: each one's name and kind) that read as row numbers
    (every value in ``1..rows``) and never equal their own row's, over at least
    :data:`MIN_ROWS` rows in all."""
    if sum(len(rows) for rows in examples) < MIN_ROWS:
        return ()
    out = []
    for column, (name, kind) in enumerate(fields):
        if kind == INT and all(
                isinstance(row[column], int) and 1 <= int(row[column]) <= len(rows)
                and int(row[column]) != number
                for rows in examples for number, row in enumerate(rows, 1)):
            out.append(name)
    return tuple(out)


#: Each example's pairs of a block and the scalars in its scope.
_Graphs = Sequence[tuple[list[tuple[int, int]], dict[str, Scalar]]]


def _vertex_count(examples: _Graphs, shape: Callable[[Sequence[tuple[int, int]], int], bool],
                  shows: Callable[[list[tuple[int, int]], int], bool]) -> str | None:
    """The first variable ``n`` such that every example's pairs have ``shape`` over
    ``1..n`` and at least one example ``shows`` it (is large enough to mean something)."""
    if not examples:
        return None
    for name, value in examples[0][1].items():
        if isinstance(value, int) and _variable(name) and all(
                isinstance(env.get(name), int) and shape(edges, int(env[name]))
                for edges, env in examples) and any(
                shows(edges, int(env[name])) for edges, env in examples):
            return name
    return None


def check(facts: Facts, grammar: Grammar, values: Values) -> str | None:
    """The first fact ``values`` breaks, as a sentence; None when it keeps them all."""
    sums: Counter[str] = Counter()
    for scope in scopes(grammar, values):
        for left, right in facts.ties:
            try:
                if left.of(scope.env) != right.of(scope.env):
                    return f"{left} != {right}"
            except KeyError:
                continue
        problem = _check_scope(facts, scope)
        if problem:
            return problem
        if facts.totals:
            sums.update(_summed(scope))
    for name, limit in facts.totals:
        if sums[name] > limit:
            return f"the sum of {name} over the input is {sums[name]}, above {limit}"
    return None


def _summed(scope: _Scope) -> dict[str, int]:
    """A scope's own numbers and words' lengths (``|s|``), what :attr:`Facts.totals` add
    up over the input."""
    out: dict[str, int] = {}
    for part in _fields(scope.items):
        if not isinstance(part, Field):
            continue
        value = scope.values.scalars[part.name]
        if part.kind == WORD:
            out[length_name(part.name)] = len(str(value))
        elif isinstance(value, int):
            out[part.name] = value
    return out


def _check_scope(facts: Facts, scope: _Scope) -> str | None:
    own: dict[str, list[Scalar]] = {}
    for part in _fields(scope.items):
        items = ([scope.values.scalars[part.name]] if isinstance(part, Field)
                 else list(scope.values.lists[part.name]))
        own[part.name] = items
        if part.kind in (INT, FLOAT):
            bounds = facts.ranges.get(part.name)
            if bounds is not None:
                for item in items:
                    if not bounds.low <= exact(item) <= bounds.high:
                        return f"{part.name} = {item} outside [{bounds.low:g}, {bounds.high:g}]"
        else:
            word = facts.words.get(part.name)
            if word is not None:
                for item in map(str, items):
                    if set(item) - set(word.alphabet):
                        return f"{part.name}: letters outside {word.alphabet!r}"
                    if word.even and len(item) % 2:
                        return f"{part.name}: odd length {len(item)}"
                    if word.length is not None:
                        if len(item) != word.length.of(scope.env):
                            return f"{part.name}: length {len(item)} != {word.length}"
                    elif not word.shortest <= len(item) <= word.longest:
                        return f"{part.name}: length {len(item)} outside " \
                               f"[{word.shortest}, {word.longest}]"
                    most = scope.env.get(word.most) if word.most else None
                    if isinstance(most, int) and len(item) > most:
                        return f"{part.name}: length {len(item)} above {word.most} = {most}"
        if isinstance(part, Seq) and part.name in facts.runs:
            problem = _check_run(part.name, facts.runs[part.name],
                                 [exact(v) for v in items] if part.kind != WORD else [])
            if problem:
                return problem
    for a, b, c, d in facts.apart:
        if all(name in scope.env for name in (a, b, c, d)) and (
                scope.env[a], scope.env[b]) == (scope.env[c], scope.env[d]):
            return f"({a}, {b}) == ({c}, {d})"
    for side in facts.sides:
        limit = side.limit(scope.env) if side.name in own else None
        if limit is not None and any(not holds(side.op, exact(value), limit)
                                     for value in own[side.name]):
            return f"{side} broken"
    for relation in facts.relations:
        mine, theirs = own.get(relation.left), own.get(relation.right)
        if relation.right not in scope.env and mine is not None and theirs is not None \
                and len(mine) == len(theirs) and relation.right in scope.values.lists:
            # two runs of one length item by item (``l_i <= r_i``)
            for one, other in zip(mine, theirs, strict=True):
                if not holds(relation.op, exact(one), exact(other)):
                    return f"{relation.left} {relation.op} {relation.right} broken"
            continue
        if relation.left in own and relation.right in scope.env:
            right = exact(scope.env[relation.right])
            for value in own[relation.left]:
                if not holds(relation.op, exact(value), right):
                    return f"{relation.left} {relation.op} {relation.right} broken"
    for block in scope.items:
        if isinstance(block, Repeat) and block.name in facts.blocks:
            problem = _check_block(block, facts.blocks[block.name], scope)
            if problem:
                return problem
    return None


def _check_run(name: str, fact: RunFact, items: list[float]) -> str | None:
    if not items:
        return None
    if fact.permutation and sorted(items) != [float(i) for i in range(1, len(items) + 1)]:
        return f"{name} is not a permutation"
    if fact.distinct and len(set(items)) != len(items):
        return f"{name} has equal items"
    pairs = list(pairwise(items))
    if fact.order == "<" and not all(a < b for a, b in pairs):
        return f"{name} is not increasing"
    if fact.order == "<=" and not all(a <= b for a, b in pairs):
        return f"{name} is not sorted"
    if fact.position is not None and any(item > k + fact.position
                                         for k, item in enumerate(items)):
        return f"{name}: an item above its position + {fact.position}"
    if fact.least_sum is not None and sum(items) < fact.least_sum:
        return f"{name}: items sum below {fact.least_sum}"
    if fact.most_sum is not None and sum(items) > fact.most_sum:
        return f"{name}: items sum above {fact.most_sum}"
    return None


def _check_block(item: Repeat, fact: BlockFact, scope: _Scope) -> str | None:
    body = item.body[0]
    assert isinstance(body, Line)
    names = [part.name for part in body.segments]
    iterations = scope.values.blocks.get(item.name, [])
    rows = [tuple(it.scalars[n] for n in names) for it in iterations]
    keys = [tuple(it.scalars[n] for n in fact.key) for it in iterations] if fact.key else rows
    if fact.distinct and len(set(keys)) != len(keys):
        return f"{item.name}: repeated rows" if not fact.key else \
            f"{item.name}: two rows share {', '.join(fact.key)}"
    if fact.unordered and len({tuple(sorted(map(str, key))) for key in keys}) != len(keys):
        return f"{item.name}: a pair repeated in reverse"
    for name in fact.unlike_row:
        column = names.index(name)
        for number, row in enumerate(rows, 1):
            if row[column] == number:
                return f"{name} == {number} on row {number}"
    if fact.degree is not None and rows:
        vertex, most = degrees([(row[0], row[1]) for row in rows]).most_common(1)[0]
        if most > fact.degree:
            return f"{item.name}: {most} edges at {vertex}, at most {fact.degree}"
    if fact.parents is not None:
        name, root = fact.parents
        problem = _forest([int(row[names.index(name)]) for row in rows], root)
        if problem:
            return f"{name}: {problem}"
    if fact.beside:
        taken = {(scope.env[x], scope.env[y]) for x, y in fact.beside
                 if x in scope.env and y in scope.env}
        for row in rows:
            if (row[0], row[1]) in taken:
                return f"{item.name}: a row at the point ({row[0]}, {row[1]}) read before"
    if fact.lines:
        points = [(scope.env[x], scope.env[y]) for x, y in fact.off
                  if x in scope.env and y in scope.env]
        seen: set[tuple[int, int, int]] = set()
        for row in rows:
            problem = line_problem(row, points, seen)
            if problem:
                return f"{item.name}: {problem}"
    if fact.rising is not None:
        field, strict = fact.rising
        values = [exact(it.scalars[field]) for it in iterations]
        if any(b < a or (strict and a == b) for a, b in pairwise(values)):
            return f"{item.name}: rows not in {'strictly ' if strict else ''}increasing {field}"
    if fact.acyclic and not closes_no_cycle([(r[0], r[1]) for r in rows]):
        return f"{item.name}: the edges close a cycle"
    return _graph_problem(item.name, fact, rows, scope.env)


def _graph_problem(block: str, fact: BlockFact, rows: Sequence[tuple[Scalar, ...]],
                   env: Mapping[str, Scalar]) -> str | None:
    """The first of a block's facts on its rows' first two numbers as edges over ``1..n``
    (``n`` the variable the fact names) that they break, as a sentence; None when they
    keep them all."""

    def numbered() -> list[tuple[int, int]]:
        return [(int(row[0]), int(row[1])) for row in rows]

    graphs: tuple[tuple[str | None, Callable[[int], bool], str], ...] = (
        (fact.reached, lambda n: reaches_all(numbered(), n),
         "not every vertex of 1..{} reached from 1"),
        (fact.joins, lambda n: linked([(row[0], row[1]) for row in rows], 1, n),
         "no path from 1 to {}"),
        (fact.connected, lambda n: _is_connected(numbered(), n), "not connected over 1..{}"),
        (fact.tree, lambda n: _is_tree(numbered(), n), "not a tree over 1..{}"))
    for count, holds, broken in graphs:
        if count is not None:
            n = env.get(count)
            if not isinstance(n, int) or not holds(n):
                return f"{block}: " + broken.format(count)
    return None
