"""An input grammar inferred from a program task's example inputs.

A search over the examples in lockstep: at each point every example is at the start of a
line, and the next item is one that fits all of them. A block (:class:`~evalplus_ng.
generate.programs.grammar.Repeat`) is tried first where an integer read before (plus 0, -1 or
+1) counts the lines that follow in every example (the ``m`` edges, the ``n`` rows, the
``t`` test cases), then a line: a run of tokens as long as such a count (``n``
integers; ``k`` and ``k`` tokens after it), or fixed fields. A grammar is kept only when
it reads every example whole (:func:`~evalplus_ng.generate.programs.grammar.parse`).

Where the examples cannot tell a run of ``n`` tokens from a fixed line (every example has
``n == 2`` and two tokens there), the fixed line wins and the ambiguity is returned as a
*pin* (``n`` stays 2 in new inputs): a new input then never gives a length the statement
may not mean. Lines of three or more tokens whose count an integer gives are read as runs.

Pure and deterministic: example texts in, a grammar (or None) out.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace

from evalplus_ng.generate.programs.grammar import (
    INT,
    Count,
    Field,
    Grammar,
    Item,
    Line,
    Mismatch,
    Repeat,
    Scalar,
    Segment,
    Seq,
    Values,
    kind_of,
    lines_of,
    parse,
    read_items,
    read_prefix,
    size,
    value_of,
    widest,
)

#: Two counts kept equal.
Tie = tuple[Count, Count]

#: Offsets tried after a variable for a count: ``n``, ``n - 1`` (a tree's edges), ``n + 1``.
OFFSETS = (0, -1, 1)
#: Search nodes before giving up on a task (examples that fit nothing simple).
BUDGET = 20_000
#: Offsets tried for the length of a run of tokens: ``n`` and ``n - 1`` (``p_2 ... p_n``).
RUN_OFFSETS = (0, -1)
#: A fixed line this long whose length a variable gives is read as a run of that length.
RUN_FROM = 3
#: Grammars that read every example compared before the simplest is kept.
CANDIDATES = 40
#: Grammars searched when none of the first :data:`CANDIDATES` reads the examples as the
#: statement says (the search's order of preference can bury the right reading: a lone
#: example where two counts are equal).
MORE_CANDIDATES = 2_000
#: Items at most in a block of several items (the body of one test case).
MAX_BODY = 6


@dataclass(frozen=True)
class Inferred:
    """A grammar and the variables pinned to a value (see the module's docstring)."""

    grammar: Grammar
    #: Counts equal in every example where the grammar could have used either (kept equal
    #: in new inputs); a count against a constant is a pinned variable.
    ties: tuple[tuple[Count, Count], ...] = ()


@dataclass(frozen=True)
class _At:
    """One example at one point: its lines, the next line's index, the variables read."""

    rows: tuple[tuple[str, ...], ...]
    at: int
    env: tuple[tuple[str, Scalar], ...] = ()
    end: int = -1
    #: Variables read from a line of their own (a count of test cases, of queries).
    alone: tuple[str, ...] = ()  # the line where this stretch ends (-1: the text's end)

    @property
    def stop(self) -> int:
        return len(self.rows) if self.end < 0 else self.end

    @property
    def done(self) -> bool:
        return self.at >= self.stop

    def scope(self) -> dict[str, Scalar]:
        return dict(self.env)

    def bind(self, more: Mapping[str, Scalar], lines: int) -> _At:
        alone = self.alone + tuple(more) if len(more) == 1 and lines == 1 else self.alone
        return replace(self, at=self.at + lines, env=self.env + tuple(more.items()),
                       alone=alone)


@dataclass
class _Search:
    budget: int = BUDGET
    counter: int = 0
    #: Whether a block may repeat a constant number of times (see :func:`infer_all`).
    constant: bool = False
    #: Whether fixed fields and the earliest-read counts are tried first (see
    #: :func:`infer_all`).
    plain: bool = False

    def name(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def spend(self) -> bool:
        self.budget -= 1
        return self.budget > 0


def _counts(states: Sequence[_At], wanted: Sequence[int], earliest: bool = False,
            ) -> list[Count]:
    """Counts (an integer variable in scope of every state, plus an offset) equal to
    ``wanted[i]`` in state ``i``; latest-read variables first (``earliest``: last)."""
    scopes = [state.scope() for state in states]
    names = _int_names(states[0], earliest)
    out = []
    for name in dict.fromkeys(names):
        if not all(isinstance(scope.get(name), int) for scope in scopes):
            continue
        for offset in RUN_OFFSETS:
            if all(int(scope[name]) + offset == want for scope, want in zip(scopes, wanted,
                                                                            strict=True)):
                out.append(Count(name, offset))
        if all(2 * int(scope[name]) == want for scope, want in zip(scopes, wanted, strict=True)):
            out.append(Count(name, 0, 2))
    return out


def _int_names(state: _At, earliest: bool) -> list[str]:
    """The integer variables a state has read, latest first (``earliest``: in order)."""
    names = [name for name, value in state.env if isinstance(value, int)]
    return names if earliest else names[::-1]


def _kinds(tokens: Sequence[str]) -> str:
    return widest([kind_of(token) for token in tokens])


def _line_candidates(states: Sequence[_At], search: _Search,
                     ) -> Iterator[tuple[Line, list[_At], list[Tie]]]:
    """Lines that fit the next line of every state, with the states after and any pins."""
    if not states or any(state.done for state in states):
        return
    rows = [state.rows[state.at] for state in states]
    lengths = [len(row) for row in rows]
    same = len(set(lengths)) == 1
    whole = _counts(states, lengths, search.plain)
    # k followed by k tokens
    heads_ok = all(row and kind_of(row[0]) == INT and int(row[0]) == len(row) - 1
                   for row in rows)
    runs: list[tuple[Segment, ...]] = []
    for count in whole:
        runs.append((Seq(search.name("s"), _kinds([t for row in rows for t in row]), count),))
    if heads_ok and any(len(row) > 1 for row in rows):
        head = search.name("x")
        runs.append((Field(head, INT), Seq(search.name("s"),
                                           _kinds([t for row in rows for t in row[1:]]),
                                           Count(head))))
    fixed: tuple[Segment, ...] | None = None
    if same:
        fixed = tuple(Field(search.name("x"), _kinds([row[i] for row in rows]))
                      for i in range(lengths[0]))
    prefer_runs = not same or (lengths[0] >= RUN_FROM and not search.plain)
    options: list[tuple[tuple[Segment, ...], list[Tie]]] = []
    # a run's pins are the counts its own length equals: the line's for a run that is the
    # whole line, one less for ``k`` and ``k`` tokens (a pin to the line's length would
    # break on the very examples it was learnt from)
    heads = _counts(states, [length - 1 for length in lengths], search.plain)
    run_options = []
    for run in runs:
        length = run[-1].length  # type: ignore[union-attr]
        own = whole if len(run) == 1 else heads
        run_options.append((run, [(length, other) for other in own if other != length]))
    if prefer_runs:
        options += run_options
    if fixed is not None:
        options.append((fixed, [(count, Count(None, lengths[0])) for count in whole]))
    if not prefer_runs:
        options += run_options
    for segments, pins in options:
        line = Line(segments)
        after = []
        for state, row in zip(states, rows, strict=True):
            bound = _bind_line(line, row, state.scope())
            if bound is None:
                break
            after.append(state.bind(bound, 1))
        else:
            yield line, after, pins


def _bind_line(line: Line, row: Sequence[str], env: Mapping[str, Scalar],
               ) -> dict[str, Scalar] | None:
    """The fields a row binds under ``line``; None when it does not fit."""
    bound: dict[str, Scalar] = {}
    position = 0
    for segment in line.segments:
        if isinstance(segment, Field):
            if position >= len(row):
                return None
            value = value_of(row[position], segment.kind)
            if value is None:
                return None
            bound[segment.name] = value
            position += 1
        else:
            length = segment.length.of({**env, **bound})
            if length < 0 or position + length > len(row):
                return None
            if any(value_of(token, segment.kind) is None
                   for token in row[position:position + length]):
                return None
            position += length
    return bound if position == len(row) else None


def _repeat_candidates(states: Sequence[_At], search: _Search, multi: bool = True,
                       once: bool = False,
                       ) -> Iterator[tuple[Repeat, list[_At], list[Tie]]]:
    """Blocks whose count a variable gives, with the states after; with ``once``, also
    blocks read once in every state (a test case's ``n - 1`` edges where the first test
    case has ``n == 2``: :func:`_inner_blocks_repeat` looks for one where they repeat)."""
    scopes = [state.scope() for state in states]
    names = _int_names(states[0], search.plain)
    counts: list[Count] = []
    for name in dict.fromkeys(names):
        if all(isinstance(scope.get(name), int) for scope in scopes):
            counts += [Count(name, offset) for offset in OFFSETS]
    left = {state.stop - state.at for state in states}
    if search.constant and len(left) == 1 and min(left) >= 2:
        counts.append(Count(None, min(left)))  # every example's lines to the end
    plans = []
    for count in counts:
        wanted = [count.of(scope) for scope in scopes]
        if min(wanted) < 0 or (max(wanted) < 2 and not any(w == 0 for w in wanted)
                               and not once):
            continue  # a block must repeat in some example (or be empty in one)
        plans.append((count, wanted))
    # one line per iteration: every line of every iteration of every example in lockstep
    for count, wanted in plans:
        if all(state.at + want <= state.stop for state, want in zip(states, wanted, strict=True)):
            iterations = [replace(state, at=state.at + k, end=state.at + k + 1)
                          for state, want in zip(states, wanted, strict=True) for k in range(want)]
            same = [(count, other) for other, want in plans
                    if other != count and list(want) == list(wanted)]
            for line, _after, pins in _line_candidates(iterations, search):
                pins = pins + same
                repeat = Repeat(search.name("r"), count, (line,))
                after = _read_block(repeat, states)
                if after is not None:
                    yield repeat, after, pins
    # several items per iteration (a test case): learnt on the first iterations, checked on
    # all; only for a count read from a line of its own
    for count, wanted in plans:
        if not multi or min(wanted) < 1 or count.var not in states[0].alone or count.offset:
            continue
        same = [(count, other) for other, want in plans
                if other != count and list(want) == list(wanted)]
        for length in range(2, MAX_BODY + 1):
            for body, pins in _bodies(states, length, search):
                repeat = Repeat(search.name("r"), count, body)
                after = _read_block(repeat, states)
                if after is not None and _inner_blocks_repeat(repeat, states):
                    yield repeat, after, pins + same
                if not search.spend():
                    return


def _bodies(states: Sequence[_At], size: int, search: _Search,
            ) -> Iterator[tuple[tuple[Item, ...], list[Tie]]]:
    """Sequences of ``size`` items (lines, or one-line blocks) that fit every state."""
    if size == 0:
        yield (), []
        return
    if any(state.done for state in states) or not search.spend():
        return
    for item, after, pins in _next_items(states, search, nested=True):
        for rest, more in _bodies(after, size - 1, search):
            yield (item, *rest), pins + more


def _inner_blocks_repeat(repeat: Repeat, states: Sequence[_At]) -> bool:
    """Whether each block of ``repeat``'s body repeats (or is empty) in some iteration of
    some state: a body is learnt on the first iterations alone, where a block may be read
    once (see :func:`_repeat_candidates`)."""
    inner = {item.name for item in repeat.body if isinstance(item, Repeat)}
    repeats: set[str] = set()
    for state in states:
        rows = [list(row) for row in state.rows[state.at:state.stop]]
        read = read_items((repeat,), rows, state.scope())
        if read is None:
            return False
        values = read[0]
        for iteration in values.blocks[repeat.name]:
            repeats |= {name for name in inner if len(iteration.blocks[name]) != 1}
    return repeats == inner


def _scopes(items: Sequence[Item], values: Values, env: Mapping[str, Scalar],
            ) -> Iterator[dict[str, Scalar]]:
    here = {**env, **values.scalars}
    yield here
    for item in items:
        if isinstance(item, Repeat):
            for inner in values.blocks.get(item.name, []):
                yield from _scopes(item.body, inner, here)


def _equal(left: Count, right: Count, scope: Mapping[str, Scalar]) -> bool:
    """Whether two counts agree in ``scope`` (or one is not in it)."""
    try:
        return left.of(scope) == right.of(scope)
    except KeyError:
        return True


def _read_block(repeat: Repeat, states: Sequence[_At]) -> list[_At] | None:
    """The states after reading the block in each (its iterations' variables are not in
    scope after it); None when it does not fit."""
    after = []
    for state in states:
        rows = [list(row) for row in state.rows[state.at:state.stop]]
        read = read_prefix((repeat,), rows, state.scope())
        if read is None:
            return None
        after.append(replace(state, at=state.at + read))
    return after


def _next_items(states: Sequence[_At], search: _Search, nested: bool = False,
                ) -> Iterator[tuple[Item, list[_At], list[Tie]]]:
    if nested:
        yield from _repeat_candidates(states, search, multi=False, once=True)
    else:
        yield from _repeat_candidates(states, search)
    yield from _line_candidates(states, search)


def _sequences(states: Sequence[_At], search: _Search,
               ) -> Iterator[tuple[tuple[Item, ...], list[Tie]]]:
    if all(state.done for state in states):
        yield (), []
        return
    if not search.spend():
        return
    for item, after, pins in _next_items(states, search):
        for rest, more in _sequences(after, search):
            yield (item, *rest), pins + more


def _rename(grammar: Grammar, pins: Sequence[Tie]) -> Inferred:
    """Names in order of appearance (x1, s1, r1...) whatever the search tried first."""
    names: dict[str, str] = {}
    counters = {"x": 0, "s": 0, "r": 0}

    def new(old: str) -> str:
        if old not in names:
            counters[old[0]] += 1
            names[old] = f"{old[0]}{counters[old[0]]}"
        return names[old]

    def count(old: Count) -> Count:
        return Count(names[old.var], old.offset, old.scale) if old.var is not None else old

    def items(old: Sequence[Item]) -> tuple[Item, ...]:
        out: list[Item] = []
        for item in old:
            if isinstance(item, Line):
                segments: list[Segment] = []
                for segment in item.segments:
                    if isinstance(segment, Field):
                        segments.append(Field(new(segment.name), segment.kind))
                    else:
                        length = count(segment.length)
                        segments.append(Seq(new(segment.name), segment.kind, length))
                out.append(Line(tuple(segments)))
            else:
                name = new(item.name)
                out.append(Repeat(name, count(item.count), items(item.body)))
        return tuple(out)

    renamed = items(grammar)
    kept = []
    for left, right in pins:
        if left.var in names and (right.var is None or right.var in names):
            tie = (count(left), count(right))
            if tie not in kept:
                kept.append(tie)
    return Inferred(renamed, tuple(kept))


def infer_all(examples: Sequence[str], budget: int = BUDGET,
              candidates: int = CANDIDATES, constant: bool = False,
              plain: bool = False) -> list[Inferred]:
    """Every grammar found (up to ``candidates``) that reads every example whole,
    simplest first (fewest items; then in the search's order of preference).
    ``constant``: a block may also repeat as many times as every example has lines left
    (no integer read gives the count: "the input consists of eight lines"). ``plain``:
    the search tries a line as fixed fields before a run, and a count read early before
    one read late (the order a statement's first lines give the sizes in): where a lone
    example's numbers coincide (``y = 3`` before roads of three numbers, ``c - 1`` edges
    where ``m`` is meant), the default order's readings can fill the search."""
    rows = [tuple(tuple(row) for row in lines_of(text)) for text in examples]
    if not rows or any(not example for example in rows):
        return []
    search = _Search(budget, constant=constant, plain=plain)
    states = [_At(example, 0) for example in rows]
    found: list[tuple[tuple[int, int], Inferred]] = []
    for grammar, pins in _sequences(states, search):
        inferred = _rename(grammar, pins)
        try:
            parsed = [parse(inferred.grammar, text) for text in examples]
        except Mismatch:
            continue
        # a pin learnt where some examples were not looking (the first test case, a block
        # empty in one example, ``k`` and ``k`` tokens) goes where an example breaks it:
        # the plan would reject its own examples
        scopes = [scope for values in parsed for scope in _scopes(inferred.grammar, values, {})]
        inferred = replace(inferred, ties=tuple(
            (left, right) for left, right in inferred.ties
            if all(_equal(left, right, scope) for scope in scopes)))
        found.append(((size(inferred.grammar), len(found)), inferred))
        if len(found) >= candidates:
            break
    return [inferred for _key, inferred in sorted(found, key=lambda pair: pair[0])]


def infer(examples: Sequence[str], budget: int = BUDGET) -> Inferred | None:
    """The simplest grammar that reads every example whole, or None when none is found
    within the search budget (or there are no examples)."""
    found = infer_all(examples, budget)
    return found[0] if found else None
