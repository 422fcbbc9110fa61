"""New stdin inputs for a program task: its input plan (the contract every kept input
passes) and the inputs made from it.

The plan (:func:`plan_for`) is the grammar inferred from the task's public inputs
(:mod:`~evalplus_ng.generate.programs.infergrammar`), the facts that hold on all of them
(:mod:`~evalplus_ng.generate.programs.facts`), and the other grammars that read the examples
as well (the examples cannot tell them apart): an input is valid (:meth:`InputPlan.
violation`) when the grammar and every such alternative read it and it keeps every fact.
So where the examples leave a reading open, a new input is one every reading admits.

Inputs (:func:`program_inputs`) are drawn from the grammar item by item, each value in
its range and its relations with the values read before it, in a few manners (the kinds):
``bound`` (sizes and values at the ends of their ranges), ``random`` (small sizes,
values anywhere), ``mutate`` (an example with one value changed), ``medium`` (sizes up to
a few thousand tokens: what small sizes cannot show, a deep recursion, a quadratic
loop), ``large`` (sizes at their largest the budget allows, for the stress tier). Each is
kept only if the plan admits it. Values are drawn with structure random draws rarely
have: a number equal to, next to, half of or a divisor of one read before it (``k``
dividing ``n``); words that repeat a block, read the same backwards, or begin and end
alike; where the statement speaks of points, points on a few lines or on a grid and
circles that touch (:mod:`~evalplus_ng.generate.programs.points`).
Pure and deterministic: a task and a ``random.Random`` in, texts out.
"""

from __future__ import annotations

import itertools
import math
import random
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from evalplus_ng.generate.programs.facts import (
    BlockFact,
    Facts,
    Range,
    RunFact,
    Side,
    acyclic,
    beside,
    bound_degree,
    check,
    edge_blocks,
    edge_ends,
    exact,
    holds,
    in_scope,
    joining,
    keyed,
    learn,
    length_name,
    line_problem,
    linked,
    multigraph,
    parent_pointers,
    planar,
    point_blocks,
    point_fields,
    reaches_all,
    reaching,
    rising,
    spread,
)
from evalplus_ng.generate.programs.grammar import (
    FLOAT,
    INT,
    WORD,
    Field,
    Grammar,
    Item,
    Line,
    Mismatch,
    Repeat,
    Scalar,
    Seq,
    Values,
    describe,
    parse,
    render,
    size,
)
from evalplus_ng.generate.programs.infergrammar import (
    CANDIDATES,
    MORE_CANDIDATES,
    Inferred,
    infer_all,
)
from evalplus_ng.generate.programs.points import shaped_points, touching_circles
from evalplus_ng.generate.programs.stated import (
    REPEATS_ALLOWED,
    SHAPES,
    align,
    choose,
    grammar_lines,
    item_sums,
    reached_ranges,
    recounted,
    ref_sides,
    sided,
    stated_ranges,
    stated_relations,
    stated_sides,
    stated_words,
    unsaid,
    worded,
)
from evalplus_ng.generate.programs.statement import (
    CONNECTED,
    DISTINCT,
    MAX_DEGREE,
    NO_MULTI_EDGES,
    NO_SELF_LOOPS,
    NOT_EQUAL,
    Bound,
    Stated,
    base_name,
    degree_bound,
    input_section,
    powers_lost,
    restore_powers,
    stated_input,
)
from evalplus_ng.generate.programs.statement import (
    TREE as STATED_TREE,
)
from evalplus_ng.records import ProgramTask

#: How a new input was made (``ProgramInput.kind``).
SEED, BOUND, RANDOM, MUTATE, MEDIUM, LARGE = (
    "seed", "bound", "random", "mutate", "medium", "large")
#: Why a task has no plan when no grammar reads its examples.
NO_GRAMMAR = "no grammar of lines, runs and blocks reads every public input"
NO_TREE = ("the statement says the edges form a tree, and no block of the grammar was learnt "
           "as one")
#: A statement saying its graph is a tree (its edges must then be learnt as one).
TREE = re.compile(r"\b(?:is|be|forms?|are|describes?|defines?|specif(?:y|ies)|makes?|making)\s+"
                  r"(?:an?\s+)?(?:(?:rooted|undirected|weighted|connected|valid)\s+)*tree\b",
                  re.IGNORECASE)
NO_DEGREE = ("the statement bounds the edges at each vertex, and the grammar has no one block "
             "of edges its examples keep the bound on")
#: A statement letting its graph repeat edges or join a vertex to itself: the examples'
#: distinct rows, tree and ``u < v`` are then chance, not facts.
MULTIGRAPH = re.compile(r"\b(?:may|can|might|could)\s+(?:also\s+)?(?:contain|have|include|be)\b"
                        r"[^.]*?\b(?:multiple|parallel|multi-?)\s*edges|\b(?:may|can|might|could)"
                        r"\s+(?:also\s+)?(?:contain|have|include)\s+(?:self-?)?loops|"
                        r"\bpossible that the graph (?:has|contains)\b[^.]*?\b(?:loops|multiple|"
                        r"parallel)\b|\bthere (?:can|may|might|could) be more than one (?:road|"
                        r"edge|wire|railway|flight|connection|passage)s?\b", re.IGNORECASE)
#: Guarantees that keep a graph's rows apart or its shape whatever :data:`MULTIGRAPH` says
#: ("there can be multiple edges ... no multiple edges of the same color"): the facts stay.
SIMPLE_GRAPH = frozenset({NO_MULTI_EDGES, NO_SELF_LOOPS, DISTINCT, STATED_TREE, CONNECTED})
NO_AGREEMENT = ("no grammar that reads every public input reads them as the statement's "
                "input section says")
#: Grammars besides the chosen one an input must fit: those no larger than it by more
#: than this many items.
ALTERNATIVE_SLACK = 1
#: Tokens at most in an input of each kind (the large ones go to the stress tier).
TOKENS = {BOUND: 400, RANDOM: 400, MUTATE: 100_000, MEDIUM: 2_000, LARGE: 50_000}
#: A medium or large input too large for its budget is tried again with its sizes capped
#: at the budget divided by each of these in turn (a count of lines of several tokens).
CAPS = (1, 4, 16, 64)
#: Chance a number is drawn from those read before it (equal, next to, half, a divisor).
RELATED = 0.15
#: Chance a random or medium input is *narrow*: its numbers (not its sizes) drawn within
#: one of :data:`NARROW_WIDTHS` of 0 (or of their range's nearest end), where points
#: coincide, fall on one line, circles touch and values repeat: what geometry and counting
#: bugs need and wide random numbers almost never give. Its words draw from a few letters
#: (:data:`FEW_LETTERS`), for the same reason.
NARROW = 0.25
NARROW_WIDTHS = (1, 2, 3, 5, 10)
#: How many letters of its alphabet a narrow input's words are drawn from.
FEW_LETTERS = (2, 3)
#: Chance a random or medium input that is not narrow draws its points *shaped*
#: (:mod:`~evalplus_ng.generate.programs.points`): on a few lines, on a grid, circles touching,
#: with coordinates anywhere in their ranges (three collinear points among many, points
#: sharing an ``x``: what ``961_d``'s, ``617_d``'s and ``165_a``'s hidden tests had).
SHAPED = 0.3
#: An Input section speaking of points, coordinates or circles: the grammar's blocks of
#: two or three integers (and lines of two or four) may be points (not vertices).
GEOMETRIC = re.compile(r"coordinat|\bpoints?\b|\bcent(?:er|re)s?\b|\bcircles?\b",
                       re.IGNORECASE)
#: Orders at most tried of a scope's shaped points to keep the relations between them.
ARRANGEMENTS = 120
#: Chance a number is a *special* one of its range: a power of two, one less, or a power
#: of ten (bit tricks, overflow and digit-count bugs live there).
SPECIAL = 0.05
#: Chance each extra edge of a graph whose rows need not be distinct names a pair named
#: before, in the graphs that repeat pairs (half of them): ``2 3`` and ``3 2`` counted as
#: one pair or two, a parallel edge.
REPEATED = 0.3
#: Chance a mutated example has a value of a field merged into another the field holds
#: (every ``y`` of 0 made 1): rows and values repeat, three columns of points lose a row
#: (one value changed at a time would take several steps, each one kept only if valid).
MERGE = 0.25
#: Trial divisions at most looking for a number's divisors.
DIVISOR_TRIALS = 10_000
#: Tries at most of a large input per task (each is costly to make, check and run).
LARGE_TRIES = 3
#: Tries per wanted input before giving up (the deterministic stopping rule).
TRIES_PER_INPUT = 8


@dataclass(frozen=True)
class ProgramInput:
    """One new stdin text and how it was made (one of the kinds above)."""

    text: str
    kind: str


@dataclass(frozen=True)
class InputPlan:
    """What a task's inputs look like: ``contract`` (JSON-able, stored in the artifact;
    None when no grammar explains the task's public inputs, then ``reason`` says why)."""

    task_id: str
    contract: dict[str, Any] | None
    reason: str = ""
    inferred: Inferred | None = None
    alternatives: tuple[Inferred, ...] = ()
    facts: Facts = field(default_factory=Facts)
    seeds: tuple[Values, ...] = ()
    #: Whether the statement speaks of points and the grammar has rows or lines that may be
    #: points (:data:`GEOMETRIC`): some inputs draw them shaped (:data:`SHAPED`).
    geometric: bool = False
    #: The texts :meth:`violation` admitted already (the generator checks each input it
    #: makes, and the pipeline checks them again: the second look costs nothing).
    admitted: set[str] = field(default_factory=set, init=False, compare=False, repr=False)

    def violation(self, text: str) -> str | None:
        """Why ``text`` is not a valid input of the task (None: it is). A task without a
        contract admits nothing new."""
        if text in self.admitted:
            return None
        why = self._violation(text)
        if why is None:
            self.admitted.add(text)
        return why

    def _violation(self, text: str) -> str | None:
        if self.inferred is None:
            return f"no input grammar: {self.reason}"
        try:
            values = parse(self.inferred.grammar, text)
        except Mismatch as error:
            return f"does not fit the grammar: {error}"
        problem = check(self.facts, self.inferred.grammar, values)
        if problem:
            return problem
        for other in self.alternatives:
            try:
                parsed = parse(other.grammar, text)
            except Mismatch as error:
                return f"another reading of the examples rejects it: {error}"
            if check(Facts(ties=other.ties), other.grammar, parsed):
                return "another reading of the examples rejects it"
        return None


#: What a guarantee of the statement may speak of for a plan to stand: what the facts
#: keep where the examples show it (a tree, a connected graph, distinct or sorted items,
#: a permutation, no repeated edge or loop, two values that differ) or the size budgets
#: keep (a sum over test cases of at least :data:`SUM_FLOOR`).
COVERED = re.compile(
    r"\btree\b|connected|distinct|different|permutation|sorted|increasing|decreasing|"
    r"ascending|descending|at most one|no more than one|multiple edges|twice|self[- ]?loop|"
    r"to itself|loops|!=|≠|\bnot equal|coincide|the same|reach any|to any other|"
    r"path between any", re.IGNORECASE)
SUM_FLOOR = TOKENS[LARGE]
#: "Each person's location is unique": rows that give a location and more (where the
#: person looks) distinct by the location (their first two fields).
PLACES = re.compile(r"\blocation\s+is\s+unique|\blocations\s+are\s+(?:pairwise\s+)?"
                    r"(?:unique|distinct|different)\b", re.IGNORECASE)
#: "No stormtrooper stands at the same point with the gun": a block of points off the
#: points read before it (covered where the plan keeps them so, else no plan).
SAME_POINT = re.compile(r"\bat the same point (?:with|as)\b|\bsame point as\b", re.IGNORECASE)
#: A guarantee that edges join everything ("the wires connect the banks in such a way that
#: all can be reached"): covered where the plan keeps a block a tree or connected.
CONNECTS = re.compile(r"\bconnects?\b[^.]*\b(?:all|every|any)\b", re.IGNORECASE)
#: A statement saying its graph is connected, in its legend or its Input section ("the
#: graph is connected", "any two computers are connected directly or through others",
#: "from any city you can pass to any other", "you are given a connected graph"; not "a
#: tree is a connected graph without cycles", a definition): where it says none, a graph
#: every example showed connected is drawn in parts too (:func:`_said_connected`).
CONNECTED_SAID = re.compile(
    r"\b(?:graph|network|tree|system|kingdom|country|city|map|roads?)\b[^.]{0,40}\bis\s+"
    r"connected\b|\b(?:given|have|has)\s+(?:an?\s+)?(?:[\w-]+\s+){0,2}connected\s+"
    r"(?:[\w-]+\s+){0,2}graph\b|\b(?:reach|get\s+to|travel\s+to|"
    r"go\s+to|move\s+to|pass\s+to)\b[^.]{0,30}\b(?:any|every|all)\b|\b(?:any|every|each)\b"
    r"[^.]{0,50}\b(?:reach|reachable|get|travel|pass)\b[^.]{0,40}\b(?:any|every|all|other)\b|"
    r"\bpath\s+between\s+(?:any|every|each)\b|\bany\s+two\b[^.]{0,60}\bconnected\b|"
    r"\bconnect(?:s|ed)?\s+(?:all|every|any)\b", re.IGNORECASE)
#: A guarantee capping a sum over the whole input of one number or one string's length
#: ("the sum of n over all test cases does not exceed 1000", "the total length of strings
#: s doesn't exceed 400"): kept as :attr:`~evalplus_ng.generate.programs.facts.Facts.totals`
#: where the limit is small enough for a drawn input to pass it (:data:`SUM_FLOOR`).
TOTALS = re.compile(r"\b(?:sum|total)\s+(?:of\s+)?(?:all\s+)?(?:the\s+)?(?:(?P<length>lengths?)"
                    r"\s+of\s+(?:all\s+)?(?:the\s+)?(?:strings?\s+|words?\s+)?|values\s+of\s+)?"
                    r"(?P<name>[A-Za-z](?:_?[A-Za-z0-9])?)\b(?![^.]*\b(?:and|as well as)\s+"
                    r"(?:the\s+)?(?:sum|total)\b)[^.]*?(?:\bexceed|\bat\s+most\b|≤)",
                    re.IGNORECASE)
#: A sentence saying numbers are rolls of a die (six faces unless it says otherwise).
DIE_ROLLS = re.compile(r"\bdie\s+rolls?\b|\bdice\b|\brolls?\s+(?:of\s+)?(?:a|the)\s+die\b",
                       re.IGNORECASE)
#: A guarantee that pointers or edges never come back ("there will be no managerial
#: cycles", "no circular dependencies"): covered where the plan keeps a block's numbers
#: parent pointers (:func:`~evalplus_ng.generate.programs.facts.parent_pointers`).
NO_CYCLES = re.compile(r"\bno\s+(?:[\w-]+\s+)?(?:cycles|circular)\b|\bacyclic\b|\b(?:do|does|will)"
                       r"\s+not\s+(?:form|contain|have)\s+(?:any\s+)?(?:[\w-]+\s+)?cycl",
                       re.IGNORECASE)
#: A guarantee that one vertex reaches another ("it is possible to move the token from
#: vertex 1 to vertex n", "there is a path from city 1 to city n"): covered where the
#: plan keeps a block's edges joining the two (:func:`~evalplus_ng.generate.programs.facts.joining`;
#: as undirected edges, which a guarantee of a directed path keeps too only where the
#: statement's moves go either way: the plan never draws a path one way only).
REACHES = re.compile(r"\bfrom\s+(?:the\s+)?(?:vertex|node|city|town)\s+1\s+to\s+(?:the\s+)?"
                     r"(?:vertex|node|city|town)\s+(?P<end>[a-z])\b", re.IGNORECASE)
#: A guarantee that vertex 1 reaches every other ("there is a path from the capital to all
#: cities", where the statement says the capital is city 1): covered where the plan keeps
#: a block's pairs, as directed edges, reaching every vertex from vertex 1
#: (:func:`~evalplus_ng.generate.programs.facts.reaching`), which it does only where the edges
#: are one-way (:data:`ONE_WAY`; of two-way roads the guarantee says "connected").
REACHES_ALL = re.compile(r"\bpath\s+from\s+(?:the\s+)?(?:capital|(?:vertex|node|city|town)\s+1)"
                         r"\s+to\s+(?:all|every|each|any)\b|\b(?:all|every|each)\s+(?:\w+\s+){0,2}"
                         r"(?:is|are)\s+reachable\s+from\s+(?:the\s+)?(?:capital|(?:vertex|node|"
                         r"city|town)\s+1)\b", re.IGNORECASE)
#: A legend naming vertex 1 the capital ("the city numbered 1 is the capital"), which
#: :data:`REACHES_ALL` needs where it speaks of the capital.
CAPITAL_ONE = re.compile(r"\b(?:city|vertex|node|town)\s+(?:numbered\s+|number\s+)?1\s+is\s+"
                         r"the\s+capital\b|\bthe\s+capital\s+is\s+(?:the\s+)?(?:city|vertex|"
                         r"node|town)\s+(?:numbered\s+|number\s+)?1\b", re.IGNORECASE)
#: Edges that go one way ("a one-way road", "a directed graph", "task a depends on task
#: b"): a guarantee of no cycles or of reaching everything from vertex 1 speaks of them
#: as directed edges, first end to second.
ONE_WAY = re.compile(r"\bone-way\b|\bdirected\b|\bdepends?\s+on\b|\bdependenc(?:y|ies)\b",
                     re.IGNORECASE)
#: A statement giving lines by their coefficients ("the line a_i x + b_i y + c_i = 0"):
#: a block of three integers is lines (:func:`~evalplus_ng.generate.programs.facts.planar`).
LINE_EQUATION = re.compile(r"x\s*\+\s*\S*\s*y\s*\+\s*\S+\s*=\s*0")
#: A guarantee that points are on no line ("neither your home nor the university lie on
#: the road"): covered where the plan keeps the points off the lines.
OFF_LINES = re.compile(r"\b(?:lie|lies|belong|belongs)\s+(?:on|to)\b", re.IGNORECASE)
#: Random swaps tried to move a row off a row number it may not name.
SWAP_TRIES = 20
#: A clause that denies something ("the segments don't have common points", "Victor and
#: Peter are not on any of the segments"): a guarantee on its own, even in a sentence
#: another clause of which :data:`COVERED` covers ("coordinates ... aren't the same").
DENIES = re.compile(r"\b(?:do|does|is|are|have|has|can|will|may)(?:\s+not|n't)\b|\bnever\b",
                    re.IGNORECASE)
#: Where a guarantee's sentence lists its clauses (not a comma of a number: "100,000").
CLAUSES = re.compile(r",\s+(?!\d)|;\s*")
#: A sentence that goes on with the guarantee of the one before it.
CONTINUED = re.compile(r"(in addition|additionally|also|moreover|furthermore)\b", re.IGNORECASE)
#: A sentence saying a block's rows come in an order ("the lines are given in the order of
#: strictly increasing xi"): covered where the plan keeps the rows so (:data:`RISING`,
#: :func:`~evalplus_ng.generate.programs.facts.rising`), else drawn rows would break it as
#: often as not.
ROWS_ORDERED = re.compile(r"\b(?:lines|rows|points|pairs)\b[^.]*\b(?:given|listed|sorted)\b"
                          r"[^.]*\b(?:order|increasing|decreasing|ascending|descending)\b",
                          re.IGNORECASE)
#: The field a sentence of :data:`ROWS_ORDERED` orders the rows by, where it says
#: increasing ("in the order of strictly increasing xi", "in ascending order of a_i").
RISING = re.compile(r"\b(?P<strictly>strictly\s+)?(?:increasing|ascending)\s+(?:order\s+of\s+)?"
                    r"(?P<name>[A-Za-z](?:_?[A-Za-z0-9]|_\{[^{}]*\})?)\b(?!\s+[a-z]{2,})",
                    re.IGNORECASE)
#: A sentence of the legend (before the Input section) that promises a divisibility among
#: the input's numbers ("It's known that sequence is k-periodic and k divides n+1"): no
#: fact checks one, and the grammar's draws break it as often as not.
LEGEND_DIVIDES = re.compile(r"(?=.*\b(?:guarantee|known|promise))(?=.*\b(?:divides|divisible|"
                            r"multiple of)\b)", re.IGNORECASE)


def _limit(sentence: str) -> int:
    """The largest number a sentence names (``2 ⋅ 10^5``, ``10^{6}``, ``100 000``)."""
    found = [10 ** int(power) for power in re.findall(r"10\^\{?(\d+)", sentence)]
    found += [int(digits.replace(" ", "")) for digits in re.findall(r"\d[\d ]*\d|\d",
                                                                    sentence)]
    return max(found, default=0)


def unchecked_guarantee(prompt: str, kept: Sequence[re.Pattern[str]] = ()) -> str | None:
    """A sentence of the Input section that guarantees what no plan checks ("it is
    guaranteed that an answer exists", "that the root has two children", rows given in
    an order: :data:`ROWS_ORDERED`), or one of the legend that promises a divisibility
    (:data:`LEGEND_DIVIDES`), if any: an
    input drawn from the grammar may break it, and the reference's answer to such an
    input is no test of anything (a right program may answer it otherwise). A sentence
    or clause one of ``kept`` matches is covered too: what the plan keeps beyond
    :data:`COVERED` (edges that connect everything, :data:`CONNECTS`, where it keeps a
    graph connected)."""

    def covered(text: str) -> bool:
        return bool(COVERED.search(text)) or any(pattern.search(text) for pattern in kept)

    section = input_section(prompt)
    legend = prompt[:prompt.find(section)] if section else ""
    for sentence in _sentences(legend):
        if LEGEND_DIVIDES.match(sentence):
            return sentence
    for sentence in _sentences(section):
        if ROWS_ORDERED.search(sentence) and ROWS_ORDERED not in kept:
            return sentence
    lost = powers_lost(section)
    guaranteeing = False
    for sentence in _sentences(section):
        # "It is guaranteed that ... . In addition, neither ... lies on ...": the second
        # sentence guarantees too
        guaranteeing = bool(re.search(r"guarantee|promise", sentence, re.IGNORECASE) or (
            guaranteeing and CONTINUED.match(sentence)))
        if not guaranteeing or degree_bound(sentence) is not None:
            continue  # a bound on the edges at each vertex: plan_for keeps it, or plans none
        if re.search(r"\bsum\b|total|exceed", sentence, re.IGNORECASE):
            if _limit(restore_powers(sentence.rstrip(". "), lost)) >= SUM_FLOOR:
                continue  # no input drawn here comes near it
            if TOTALS.search(sentence):
                continue  # a sum of one number or length: plan_for keeps it, or plans none
            return sentence
        if not covered(sentence):
            return sentence
        if any(DENIES.search(clause) and not covered(clause)
               for clause in CLAUSES.split(sentence)):
            return sentence
    return None


def _sentences(text: str) -> list[str]:
    """``text``'s sentences, each on one line (its whitespace runs made one space)."""
    return [" ".join(sentence.split()) for sentence in re.split(r"(?<=[.!?])\s+", text)]


def plan_for(task: ProgramTask) -> InputPlan:
    """The task's input plan, inferred from its public inputs; none where the statement
    guarantees what no plan checks (:func:`unchecked_guarantee`)."""
    examples = [test.input for test in task.base_tests]
    if not examples:
        return InputPlan(task.task_id, None, "the task has no public tests")
    # a guarantee of connectivity, of no cycles or of points off lines stands once the
    # plan keeps it (below)
    guarantee = unchecked_guarantee(task.prompt, (CONNECTS, NO_CYCLES, OFF_LINES, REACHES,
                                                  REACHES_ALL, ROWS_ORDERED))
    if guarantee is not None:
        return _unchecked(task.task_id, guarantee)
    stated = stated_input(task.prompt)
    section = input_section(task.prompt)
    # "the input consists of eight lines": a block no integer read counts, repeated as
    # many times as the statement says (the search looks for one only then)
    constant = any(spec.repeat is not None and not spec.repeat.name for spec in stated.lines)
    found = infer_all(examples, constant=constant)
    if not found:
        return InputPlan(task.task_id, None, NO_GRAMMAR)
    if all(align(inferred.grammar, stated).conflict for inferred in found):
        # the simplest readings all contradict the statement: search further for one that
        # does not, and plan only with such readings (a misread format makes inputs the
        # task never has: a road from a junction to itself read as two taxis' numbers)
        found = [inferred for plain in (False, True)
                 for inferred in map(partial(recounted, stated=stated), infer_all(
                     examples, candidates=MORE_CANDIDATES, constant=constant, plain=plain))
                 if not align(inferred.grammar, stated).conflict][:CANDIDATES]
        if not found:
            return InputPlan(task.task_id, None, NO_AGREEMENT)
    # "a string consisting of n digits" that the examples' digits read as one integer
    found = [worded(inferred, stated) for inferred in found]
    chosen, alignment = choose(found, stated)
    # "1 ≤ k ≤ n2": k ≤ n², a side kept by its formula like the others below
    stated = _lost_powers(stated, set(alignment.names.values()))
    # "0 ≤ m ≤ <image>" of a simple graph's edges: its most edges
    stated = _simple_edge_counts(stated, alignment.names, chosen.grammar)
    # "0 ≤ k ≤ n(n-1)/2": a side kept by its formula, or no plan (the examples' range of
    # k may break it: k = 1 where n = 1)
    sides = stated_sides(alignment, stated)
    if isinstance(sides, str):
        return InputPlan(task.task_id, None, sides)
    largest = size(chosen.grammar) + ALTERNATIVE_SLACK
    # where the statement confirms every line of the grammar, it settles the reading;
    # elsewhere an input must fit every reading the statement does not speak against
    confirmed = alignment.agreed >= len(list(grammar_lines(chosen.grammar)))
    alternatives = () if confirmed else tuple(
        other for other in found if other is not chosen
        and size(other.grammar) <= largest
        and not (aligned := align(other.grammar, stated)).conflict
        and aligned.agreed >= alignment.agreed)
    seeds = tuple(parse(chosen.grammar, text) for text in examples)
    # ties keep the readings the examples leave open consistent (a run of 2m tokens where
    # every example has m == 1 and two tokens, two counts equal in every example); once
    # the statement confirms every line they pin only what the examples happened to share
    # (n == 4 in both examples of a tree of n - 1 edges): sizes it leaves free
    facts = learn(chosen.grammar, seeds, () if confirmed else chosen.ties)
    facts = _said_connected(facts, task.prompt, stated)
    if not SHAPES.search(REPEATS_ALLOWED.sub(" ", section)):
        facts = _independent_tests(facts, chosen.grammar, alignment.names, stated)
    if stated.free:
        # "no other conditions for these points": what the examples showed beyond the
        # grammar (eight distinct points) held by chance; the statement's own bounds and
        # relations come below
        facts = replace(facts, relations=(), runs={}, blocks={}, apart=())
    kinds = {guarantee.kind for guarantee in stated.guarantees}
    if MULTIGRAPH.search(section) and not kinds & (SIMPLE_GRAPH - {NO_SELF_LOOPS}):
        # before the statement's relations: a stated ``a < b`` still holds; "the road
        # can't connect the junction with itself, but there can be more than one road
        # between two": repeated edges, and still no loop
        facts = multigraph(facts, chosen.grammar, loops=NO_SELF_LOOPS not in kinds)
        # an edge's ends differ where every example keeps them so (a taxi's "t c" read as a
        # block of pairs too: 7 7 is one); an end the statement bounds by a variable (``1
        # ≤ u ≤ n``, back with the statement's relations below) relates to no other
        # number by the examples' chance (``u < y``, the final junction)
        ends = {end for block in facts.blocks.values() if block.ends for end in block.ends}
        referred = {var for var in ends if (bound := stated.bound(
            alignment.names.get(var, ""))) is not None and bound.high_ref is not None}
        facts = replace(facts, relations=tuple(
            relation for relation in facts.relations if (
                relation.op != "!=" or not _broken(Facts(relations=(relation,)),
                                                   chosen.grammar, seeds))
            and not (relation.op != "!=" and relation.left in referred
                     and relation.right not in ends)))
    ranged = {**stated_ranges(alignment, stated, facts.ranges),
              **_die_faces(alignment.names, section, facts.ranges, stated)}
    facts = spread(replace(facts, ranges={**facts.ranges, **ranged},
                           words=stated_words(alignment, stated, facts.words)))
    # the statement's relations, each where every example keeps it, in place of what
    # the examples showed of the same two numbers by chance ("0 ≤ p ≤ n": p == n is an
    # input, though p < n in every example)
    for relation in stated_relations(alignment, stated):
        if relation.op == "!=" and any(known.op == "!=" and {known.left, known.right} == {
                relation.left, relation.right} for known in facts.relations):
            continue  # learnt already (kept where it was)
        kept = tuple(known for known in facts.relations
                     if {known.left, known.right} != {relation.left, relation.right})
        more = replace(facts, relations=(*kept, relation))
        if not _broken(more, chosen.grammar, seeds):
            facts = more
    facts = replace(facts, ranges=reached_ranges(alignment, stated, facts.ranges,
                                                 facts.relations))
    # "|x| ≤ 1000", "1 ≤ k ≤ 10^9": a coordinate below the number of points, k below n in
    # every example held by chance
    facts = unsaid(chosen.grammar, alignment, stated, ranged, facts, section)
    # the statement's formulas and sums of a list's items: an example breaking one means
    # the names are misread, and a plan keeping it would reject its own examples
    # "n - 1 ≤ m", "k ≤ n - 2": sides no relation says, each where every example keeps it
    # (in place of what the examples showed of the two by chance: m ≤ n)
    offsets = [side for side in ref_sides(alignment, stated)
               if not _broken(Facts(sides=(side,)), chosen.grammar, seeds)]
    said = item_sums(sided(facts, (*sides, *offsets), stated_relations(alignment, stated)),
                     alignment, stated)
    if said != facts:
        broken = _broken(said, chosen.grammar, seeds)
        if broken:
            return InputPlan(task.task_id, None, "an example breaks the statement's bound "
                                                 f"as read: {broken}")
        facts = said
    # what the statement says only (the examples would keep it by chance as often)
    one_way = bool(ONE_WAY.search(task.prompt))
    if NO_CYCLES.search(section):
        facts = parent_pointers(facts, chosen.grammar, seeds) or (
            acyclic(facts, chosen.grammar, seeds) if one_way else None) or facts
    if LINE_EQUATION.search(section):
        facts = planar(facts, chosen.grammar, seeds) or facts
    # "at most one road between each pair of districts" of roads with costs, "each
    # person's location is unique" of rows that say where each looks too: rows distinct
    # by their first two fields, not as wholes (two roads joining the same two districts
    # at different costs are distinct rows)
    places = bool(PLACES.search(section))
    if places or (any(g.kind == NO_MULTI_EDGES for g in stated.guarantees)
                  and not MULTIGRAPH.search(section)):
        facts = keyed(facts, chosen.grammar, seeds, places)
    same_point = SAME_POINT.search(section)
    if same_point:
        facts = beside(facts, chosen.grammar, seeds) or facts
        if not any(fact.beside for fact in facts.blocks.values()):
            return _unchecked(task.task_id, same_point.group(0))
    joined = any(fact.tree or fact.connected for fact in facts.blocks.values())
    if TREE.search(section) and any(edge_blocks(chosen.grammar)) and not joined:
        return InputPlan(task.task_id, None, NO_TREE)
    reaches_all = REACHES_ALL.search(section)
    if reaches_all and one_way and ("capital" not in reaches_all.group(0).lower()
                                    or CAPITAL_ONE.search(task.prompt)):
        facts = reaching(facts, chosen.grammar, seeds) or facts
    reaches = REACHES.search(section)
    if reaches:
        end = {name: var for var, name in alignment.names.items()}.get(reaches.group("end"))
        facts = (joining(facts, chosen.grammar, seeds, end) if end else None) or facts
    # "the lines are given in the order of strictly increasing xi"
    for sentence in _sentences(section):
        ordered = RISING.search(sentence) if ROWS_ORDERED.search(sentence) else None
        field_var = {name: var for var, name in alignment.names.items()}.get(
            base_name(ordered.group("name"))) if ordered else None
        if ordered and field_var:
            facts = rising(facts, chosen.grammar, seeds, field_var,
                           bool(ordered.group("strictly"))) or facts
    covering = [pattern for pattern, keeps in (
        (ROWS_ORDERED, any(fact.rising for fact in facts.blocks.values())),
        (REACHES, any(fact.joins for fact in facts.blocks.values())),
        (REACHES_ALL, any(fact.reached for fact in facts.blocks.values())),
        (CONNECTS, joined), (NO_CYCLES, any(fact.parents or fact.acyclic
                                            for fact in facts.blocks.values())),
        (OFF_LINES, any(fact.off for fact in facts.blocks.values()))) if keeps]
    guarantee = unchecked_guarantee(task.prompt, covering)
    if guarantee is not None:
        return _unchecked(task.task_id, guarantee)
    # "each student has no more than two archenemies": a fact of the one block of edges
    # that every example keeps, or no plan (an input drawn without it is no valid input)
    limits = [int(g.limit) for g in stated.guarantees if g.kind == MAX_DEGREE
              and g.limit is not None]
    if limits:
        bounded = bound_degree(facts, chosen.grammar, min(limits))
        if bounded is None or _broken(bounded, chosen.grammar, seeds):
            return InputPlan(task.task_id, None, NO_DEGREE)
        facts = bounded
    totals = _totals(section, alignment.names, chosen.grammar)
    if isinstance(totals, str):
        return _unchecked(task.task_id, totals)
    if totals:
        facts = replace(facts, totals=totals)
        broken = _broken(facts, chosen.grammar, seeds)
        if broken:
            return InputPlan(task.task_id, None, f"an example breaks a sum as read: {broken}")
    contract = {"grammar": describe(chosen.grammar), "facts": facts.describe(),
                "names": dict(sorted(alignment.names.items())),
                "alternatives": len(alternatives)}
    if _stated_only(chosen.grammar, facts, alignment.names, ranged,
                    stated_relations(alignment, stated)) and not alternatives:
        contract["stated"] = True
    geometric = bool(GEOMETRIC.search(section)) and _pointed(
        chosen.grammar, facts)
    return InputPlan(task.task_id, contract, "", chosen, alternatives, facts, seeds,
                     geometric)


def _broken(facts: Facts, grammar: Grammar, seeds: Sequence[Values]) -> str | None:
    """The first fact an example breaks (:func:`check`), None where every one keeps all."""
    return next((why for seed in seeds if (why := check(facts, grammar, seed))), None)


def _lost_powers(stated: Stated, names: set[str]) -> Stated:
    """``stated`` with each side given by a variable's power whose superscript was lost
    (``1 ≤ k ≤ n2``: ``k ≤ n²``, as ``105`` is ``10^5``) made an unread side with its
    formula (``n ** 2``), which a plan keeps as it keeps ``k ≤ n(n-1)/2``; a plan keeping
    the examples' ``k ≤ 4`` instead admits ``n = 1, k = 4``. Only where ``n`` names a line
    of the input as read and ``n2`` names no line the statement describes and has no
    number above it (it would be the subscripted ``n_2`` then; ``k ≤ n2`` alone bounds
    ``n2`` from below)."""
    declared = {bound.name for bound in stated.bounds if bound.high is not None} | {
        name for spec in stated.lines for name in spec.names}
    changed = []
    for bound in stated.bounds:
        refs = {"low": bound.low_ref, "high": bound.high_ref}
        unread = list(bound.unread)
        for side, ref in refs.items():
            power = re.fullmatch(r"([A-Za-z]+)(\d)", ref.name) if ref is not None else None
            if (ref is None or power is None or ref.name in names or ref.name in declared
                    or power.group(1) not in names):
                continue
            unread.append((side, f"{ref.scale} * {power.group(1)} ** {power.group(2)} "
                                 f"+ {ref.offset}"))
            refs[side] = None
        changed.append(replace(bound, low_ref=refs["low"], high_ref=refs["high"],
                               unread=tuple(unread)))
    return replace(stated, bounds=tuple(changed))


def _simple_edge_counts(stated: Stated, names: Mapping[str, str], grammar: Grammar) -> Stated:
    """``stated`` with the unread upper side of a block of edges' count read as the most
    edges a simple graph has, ``N(N - 1)/2`` of ``N`` vertices: a side drawn as a picture
    (``0 ≤ m ≤ <image>``), or no side at all where the count's line shows a picture in
    its place (``n and m (3 ≤ n ≤ 150 000, <image>)``). Only where the statement says the
    graph is simple (at most one edge between two vertices, and no loop or the ends'
    ``a_i ≠ b_i``, so ``m`` never passes that) and bounds the ends by a variable (``1 ≤
    x, y ≤ n``: ``N = n``). The picture may say less than the guarantees (``m ≤
    min(n(n-1)/2, 10^5)``); the plan's inputs stay far below such a cap."""
    kinds = {guarantee.kind for guarantee in stated.guarantees}
    if NO_MULTI_EDGES not in kinds:
        return stated
    unequal = {frozenset(g.names) for g in stated.guarantees if g.kind == NOT_EQUAL}
    vertices: dict[str, str] = {}  # a count's name: its formula of the vertices
    for block in edge_blocks(grammar):
        line = block.body[0]
        assert isinstance(line, Line)
        end, other = line.segments[0], line.segments[1]
        ends = frozenset(names.get(part.name, "") for part in (end, other)
                         if isinstance(part, Field))
        if NO_SELF_LOOPS not in kinds and ends not in unequal:
            continue
        count = names.get(block.count.var or "")
        bound = stated.bound(names.get(end.name, "")) if isinstance(end, Field) else None
        ref = bound.high_ref if bound is not None else None
        if (count is None or bound is None or ref is None or not ref.name or ref.scale != 1
                or bound.low not in (0, 1)):
            continue
        many = f"({ref.name} + {ref.offset} - {bound.low} + 1)"
        vertices[count] = f"{many} * ({many} - 1) / 2"
    bounds = [replace(bound, unread=tuple(
        (side, vertices[bound.name]) if (side, text) == ("high", "")
        and bound.name in vertices else (side, text) for side, text in bound.unread))
        for bound in stated.bounds]
    for count, formula in vertices.items():
        capped = stated.bound(count)
        pictured = any(count in spec.names and "<image>" in spec.text for spec in stated.lines)
        if pictured and (capped is None or (capped.high is None and capped.high_ref is None
                                            and not capped.unread)):
            bounds.append(Bound(count, unread=(("high", formula),)))
    return replace(stated, bounds=tuple(bounds))


def _independent_tests(facts: Facts, grammar: Grammar, names: Mapping[str, str],
                       stated: Stated) -> Facts:
    """``facts`` without the distinct rows the examples showed of the block of test cases
    (counted by the statement's test count): two test cases alike are an input too, where
    the Input section names no shape (``plan_for``: "no two lines coincide" keeps them)."""
    if not stated.test_count:
        return facts
    tests = {item.name for item in grammar if isinstance(item, Repeat)
             and item.count.var is not None and names.get(item.count.var) == stated.test_count
             and (item.count.offset, item.count.scale) == (0, 1)}
    if not any(name in facts.blocks for name in tests):
        return facts
    blocks = {name: replace(fact, distinct=False, unordered=False) if name in tests else fact
              for name, fact in facts.blocks.items()}
    return replace(facts, blocks=blocks)


def _said_connected(facts: Facts, prompt: str, stated: Stated) -> Facts:
    """``facts`` with a graph the examples showed connected kept so only where the
    statement says it is (:data:`CONNECTED_SAID` anywhere in it, or a guarantee of its
    Input section): a task that asks whether a graph is connected, or whose examples all
    happen to be, draws graphs in several parts too ("the graph is not guaranteed to be
    connected"; 9 tasks of CodeContests have hidden tests of graphs in parts where every
    example was connected)."""
    if CONNECTED_SAID.search(prompt) or CONNECTS.search(input_section(prompt)) or any(
            guarantee.kind == CONNECTED for guarantee in stated.guarantees):
        return facts
    if not any(fact.connected for fact in facts.blocks.values()):
        return facts
    return replace(facts, blocks={name: replace(fact, connected=None)
                                  for name, fact in facts.blocks.items()})


def _stated_only(grammar: Grammar, facts: Facts, names: Mapping[str, str],
                 ranged: Mapping[str, Range], said: Sequence[Any]) -> bool:
    """Whether the plan keeps nothing but what the statement says: lines of numbers only
    (no count, no list, no block), each named by the statement and ranging exactly over
    its stated bounds, and no relation the statement does not give. An input such a plan
    admits is one the statement admits, so a reference raising on it is wrong there
    (``0 ≤ n, m ≤ 2000``, a reference failing on ``0 1``), not the plan."""
    if not all(isinstance(item, Line) for item in grammar):
        return False
    fields = [part for item in grammar if isinstance(item, Line) for part in item.segments]
    if not all(isinstance(part, Field) and part.kind in (INT, FLOAT) and part.name in names
               and facts.ranges.get(part.name) == ranged.get(part.name) for part in fields):
        return False
    return (set(facts.relations) <= set(said) and not facts.runs and not facts.words
            and not facts.blocks and not facts.ties and not facts.apart)


def _totals(section: str, names: Mapping[str, str],
            grammar: Grammar) -> tuple[tuple[str, int], ...] | str:
    """The sums over the whole input the Input section caps below :data:`SUM_FLOOR`
    (:data:`TOTALS`), each as the number's variable (a word's length: ``|s|``) and its
    limit; or the sentence no plan keeps, where its name reads no one field of the
    grammar."""
    lost = powers_lost(section)
    fields = {part.name: part for line, _block, _test in grammar_lines(grammar)
              for part in line.segments if isinstance(part, Field)}
    out = []
    for sentence in _sentences(section):
        found = TOTALS.search(sentence)
        limit = _limit(restore_powers(sentence.rstrip(". "), lost)) if found else 0
        if found is None or limit >= SUM_FLOOR:
            continue
        wanted = base_name(found.group("name"))
        vars_ = [var for var, name in names.items() if name == wanted and var in fields]
        word = bool(found.group("length"))
        if len(vars_) != 1 or (fields[vars_[0]].kind == WORD) != word:
            return sentence
        out.append((length_name(vars_[0]) if word else vars_[0], limit))
    return tuple(out)


def _die_faces(names: Mapping[str, str], section: str, seen: Mapping[str, Range],
               stated: Stated) -> dict[str, Range]:
    """The range of each number a sentence says is a die roll and no bound caps ("two
    natural numbers Y and W — the results of Yakko's and Wakko's die rolls"): a die's six
    faces, ``1..6``, where the examples' values are among them (a die of other faces says
    how many: no range here)."""
    out: dict[str, Range] = {}
    for sentence in _sentences(section):
        if not DIE_ROLLS.search(sentence) or re.search(r"\bfaces?\b|\bsided\b|\bsides\b",
                                                       sentence, re.IGNORECASE):
            continue
        words = set(re.findall(r"[A-Za-z_][A-Za-z_0-9]*", sentence))
        for var, name in names.items():
            bound = stated.bound(name)
            if bound is not None and (bound.high is not None or bound.high_ref is not None
                                      or bound.unread):
                continue
            if name in words and var in seen and 1 <= seen[var].low <= seen[var].high <= 6:
                out[var] = Range(1, 6)
    return out


def _pointed(items: Sequence[Item], facts: Facts) -> bool:
    """Whether some block's rows or some scope's lines may be points."""
    return bool(point_blocks(items, facts) or point_fields(items, facts)) or any(
        isinstance(item, Repeat) and _pointed(item.body, facts) for item in items)


def _unchecked(task_id: str, guarantee: str) -> InputPlan:
    """No plan: the statement guarantees what the plan would not check."""
    return InputPlan(task_id, None,
                     f"the statement guarantees what no plan checks: {guarantee[:120]}")


class _Maker:
    """Draws one input's values from a grammar, item by item."""

    def __init__(self, plan: InputPlan, rng: random.Random, kind: str,
                 cap: int | None = None) -> None:
        self.facts = plan.facts
        self.rng = rng
        self.kind = kind
        self.budget = TOKENS[kind]
        #: The largest size a medium or large input draws.
        self.cap = TOKENS[kind] if cap is None else cap
        #: A narrow input's half-width (0: not narrow; see :data:`NARROW`).
        self.narrow = (rng.choice(NARROW_WIDTHS) if kind in (RANDOM, MEDIUM)
                       and rng.random() < NARROW else 0)
        #: Whether this input's points are drawn shaped (:data:`SHAPED`); drawn only where
        #: the plan has points, so that other plans' inputs stay as they were.
        self.shaped = (plan.geometric and plan.inferred is not None
                       and kind in (RANDOM, MEDIUM) and not self.narrow
                       and rng.random() < SHAPED)
        #: The blocks whose rows this input draws shaped, by name: their fields.
        self.point_rows = point_blocks(plan.inferred.grammar, plan.facts) \
            if self.shaped and plan.inferred is not None else {}
        #: A narrow input's words' few letters, by the alphabet they are drawn from
        #: (:meth:`letters`).
        self.few: dict[str, str] = {}
        #: Values a shaped drawing chose for fields not drawn yet; each is taken where it
        #: lies within the field's window when drawn, else the field is drawn as any.
        self.planned: dict[str, int] = {}
        #: Each number's bounding relations, ``(op, other, other_is_right)`` (``!=``
        #: bounds nothing): :meth:`window` runs once per value drawn.
        self.bounding: dict[str, list[tuple[str, str, bool]]] = {}
        #: Each number's sides (:class:`Side`), by name.
        self.sides: dict[str, list[Side]] = {}
        for side in plan.facts.sides:
            self.sides.setdefault(side.name, []).append(side)
        for relation in plan.facts.relations:
            if relation.op == "!=":
                continue
            self.bounding.setdefault(relation.left, []).append(
                (relation.op, relation.right, True))
            if relation.right != relation.left:
                self.bounding.setdefault(relation.right, []).append(
                    (relation.op, relation.left, False))

    def items(self, items: Sequence[Item], env: Mapping[str, Scalar]) -> Values:
        values = Values({}, {}, {})
        worded = False  # whether a word is among the values read
        if self.shaped:
            self.plan_points(items, env)
        for item in items:
            scope = in_scope(env, values.scalars)
            if isinstance(item, Line):
                for segment in item.segments:
                    if isinstance(segment, Field):
                        value = self.scalar(segment.name, segment.kind, scope)
                        values.scalars[segment.name] = value
                        worded = worded or isinstance(value, str)
                        if worded:  # words' lengths go after every value: made again
                            scope = in_scope(env, values.scalars)
                        else:  # what in_scope makes, one value more (its order kept)
                            scope[segment.name] = value
                    else:
                        length = segment.length.of(scope)
                        values.lists[segment.name] = self.run(segment, max(length, 0), scope,
                                                              values.lists)
            else:
                count = max(item.count.of(scope), 0)
                if count > self.budget:  # each iteration reads a token at least
                    raise Mismatch("too large")
                fact = self.facts.blocks.get(item.name)
                joined = fact and (fact.tree or fact.connected)
                if fact is not None and joined:
                    values.blocks[item.name] = self.apart(self.turned(item, self.graph(
                        item, int(scope[joined]), count, scope, fact.degree,
                        repeats=not fact.distinct), fact), fact)
                    continue
                if fact and fact.degree is not None:
                    values.blocks[item.name] = self.apart(self.turned(
                        item, self.bounded(item, count, fact.degree, scope), fact), fact)
                    continue
                rows: list[Values] = []
                seen: set[tuple[Any, ...]] = set()
                names = self.point_rows.get(item.name)
                shapes = self.shaped_rows(names, count, scope) if names else []
                fits = self.line_fits(item, fact, scope)
                for k in range(count):
                    for attempt in range(10):
                        if attempt == 0 and k < len(shapes):
                            self.planned.update(shapes[k])
                        row = self.items(item.body, scope)
                        key = self.row_key(row, fact)
                        if (fact is None or not fact.distinct or key not in seen) and fits(row):
                            break
                    seen.add(key)
                    rows.append(row)
                if fact is not None and fact.joins is not None:
                    rows = self.join(item, rows, fact, int(scope[fact.joins]))
                if fact is not None and fact.reached is not None:
                    rows = self.reach(item, rows, fact, int(scope[fact.reached]))
                if fact is not None:
                    rows = self.turned(item, rows, fact)
                if fact is not None and fact.rising is not None:
                    rows = self.rise(rows, fact.rising, scope)
                values.blocks[item.name] = self.apart(self.rooted(rows, fact), fact)
        return values

    def join(self, item: Repeat, rows: list[Values], fact: BlockFact, n: int,
             ) -> list[Values]:
        """``rows`` whose edges join vertex 1 to vertex ``n`` (:attr:`BlockFact.joins`):
        as drawn where they do, else with a path through distinct vertices in place of
        the first rows' ends, each edge either way round unless a relation orders the
        ends (a path as long as the rows and the vertices allow, short mostly)."""
        u, v = edge_ends(item)
        ordered = self.ordered(u, v)
        if linked([(row.scalars[u], row.scalars[v]) for row in rows], 1, n):
            return rows
        longest = min(len(rows), n - 1)
        if longest < 1:
            raise Mismatch(f"{len(rows)} edges cannot join 1 to {n}")
        steps = self.rng.randint(1, min(longest, self.rng.choice((1, 2, 4, longest))))
        middle = self.rng.sample(range(2, n), steps - 1)
        path = [1, *middle, n]
        out = [_copy(row) for row in rows]
        for row, a, b in zip(out, path, path[1:], strict=False):
            if ordered:
                a, b = min(a, b), max(a, b)
            elif self.rng.random() < 0.5:
                a, b = b, a
            row.scalars[u], row.scalars[v] = a, b
        keys = [self.row_key(row, fact) for row in out]
        if fact.distinct and len(set(keys)) < len(keys):
            raise Mismatch("a path's edge repeats a row")
        return out

    def reach(self, item: Repeat, rows: list[Values], fact: BlockFact, n: int,
              ) -> list[Values]:
        """``rows`` whose edges, each from its first end to its second, reach every vertex
        of ``1..n`` from vertex 1 (:attr:`BlockFact.reached`): as drawn where they do,
        else with a random tree out of vertex 1 (a path, a star or anything between;
        each parent before its child in increasing order where a relation orders the
        ends) in place of the first ``n - 1`` rows' ends, the rows then shuffled."""
        u, v = edge_ends(item)
        if reaches_all([(int(row.scalars[u]), int(row.scalars[v])) for row in rows], n):
            return rows
        if len(rows) < n - 1:
            raise Mismatch(f"{len(rows)} edges cannot reach {n} vertices from 1")
        later = list(range(2, n + 1))
        if not self.ordered(u, v):
            self.rng.shuffle(later)
        order = [1, *later]
        chain = self.rng.random()
        out = [_copy(row) for row in rows]
        for k in range(1, n):
            parent = order[k - 1] if self.rng.random() < chain else order[self.rng.randrange(k)]
            out[k - 1].scalars[u], out[k - 1].scalars[v] = parent, order[k]
        self.rng.shuffle(out)
        keys = [self.row_key(row, fact) for row in out]
        if fact.distinct and len(set(keys)) < len(keys):
            raise Mismatch("a tree's edge repeats a row")
        return out

    def turned(self, item: Repeat, rows: list[Values], fact: BlockFact) -> list[Values]:
        """``rows`` whose edges, each from its first end to its second, close no cycle
        (:attr:`BlockFact.acyclic`): each turned, where needed, to run forward in a random
        order of the vertices (unchanged where a relation orders the ends already, or the
        fact is not kept)."""
        if not fact.acyclic:
            return rows
        u, v = edge_ends(item)
        if self.ordered(u, v):
            return rows
        vertices = sorted({row.scalars[end] for row in rows for end in (u, v)}, key=exact)
        self.rng.shuffle(vertices)
        rank = {vertex: k for k, vertex in enumerate(vertices)}
        out = []
        for row in rows:
            a, b = row.scalars[u], row.scalars[v]
            if a == b:
                raise Mismatch(f"{item.name}: a loop is a cycle")
            if rank[a] > rank[b]:
                row = Values({**row.scalars, u: b, v: a}, dict(row.lists), dict(row.blocks))
            out.append(row)
        keys = [self.row_key(row, fact) for row in out]
        if fact.distinct and len(set(keys)) < len(keys):
            raise Mismatch("two edges turned the same way repeat a row")
        return out

    def ordered(self, u: str, v: str) -> bool:
        """Whether a relation orders an edge's ends (``u < v``, ``u <= v``)."""
        return any(r.left == u and r.right == v and r.op in ("<", "<=")
                   for r in self.facts.relations)

    def rise(self, rows: list[Values], rising: tuple[str, bool],
             env: Mapping[str, Scalar]) -> list[Values]:
        """``rows`` in increasing order of a field (:attr:`BlockFact.rising`); where the
        order is strict, each value tied with the one before moved just above it (while
        the field's window allows)."""
        name, strict = rising
        out = sorted(rows, key=lambda row: exact(row.scalars[name]))
        if not strict:
            return out
        window = self.window(name, env)
        for before, row in itertools.pairwise(out):
            value = row.scalars[name]
            if isinstance(value, int) and value <= int(before.scalars[name]):
                row.scalars[name] = int(before.scalars[name]) + 1
            elif exact(value) <= exact(before.scalars[name]):
                raise Mismatch(f"{name}: two rows tie")
            if window is None or exact(row.scalars[name]) > window[1]:
                raise Mismatch(f"{name}: no room for increasing rows")
        return out

    @staticmethod
    def row_key(row: Values, fact: BlockFact | None) -> tuple[Any, ...]:
        """What ``fact`` keeps distinct of ``row``: the fields of its key (as an unordered
        pair where it says so), else the whole row."""
        if fact is None or not fact.key:
            return tuple(sorted(row.scalars.items()))
        values = tuple(row.scalars[name] for name in fact.key)
        return tuple(sorted(map(str, values))) if fact.unordered else values

    def coordinate(self, low: int, high: int) -> int:
        """A number within ``[low, high]`` drawn as any integer of this input."""
        return int(self.number(low, high, INT))

    def span(self, names: Sequence[str], env: Mapping[str, Scalar]) -> tuple[int, int] | None:
        """The least and the greatest integer every one of ``names`` may take given
        ``env`` (the first above the second where none fits); None where one of them has
        no value at all."""
        windows = [self.window(name, env) for name in names]
        known = [window for window in windows if window is not None]
        if len(known) < len(windows):
            return None
        return (max(math.ceil(window[0]) for window in known),
                min(math.floor(window[1]) for window in known))

    def box(self, xs: Sequence[str], ys: Sequence[str],
            env: Mapping[str, Scalar]) -> tuple[int, int, int, int] | None:
        """The integers every one of ``xs`` and of ``ys`` may take given ``env`` (None:
        none)."""
        across, down = self.span(xs, env), self.span(ys, env)
        if across is None or down is None or across[0] > across[1] or down[0] > down[1]:
            return None
        return across[0], across[1], down[0], down[1]

    def plan_points(self, items: Sequence[Item], env: Mapping[str, Scalar]) -> None:
        """The points of a scope's lines (:func:`point_fields`) drawn shaped, as planned
        values of their fields."""
        pairs = point_fields(items, self.facts)
        box = self.box([x for x, _y in pairs], [y for _x, y in pairs], env) if pairs else None
        if box is None:
            return
        points = shaped_points(len(pairs), box, self.rng, self.coordinate)
        for (x, y), point in zip(pairs, self.arranged(pairs, points), strict=False):
            self.planned[x], self.planned[y] = point

    def arranged(self, pairs: Sequence[tuple[str, str]],
                 points: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """``points`` in the first order (of the first :data:`ARRANGEMENTS`, the
        transposed points' too) that keeps every relation between two of ``pairs``' fields
        (``x1 <= x2``, learnt from three examples of three points), else as they are: a
        shape the relations break falls back to values drawn as any."""
        names = [name for pair in pairs[:len(points)] for name in pair]
        relations = [(r.op, names.index(r.left), names.index(r.right))
                     for r in self.facts.relations if r.left in names and r.right in names]
        if not relations:
            return points
        transposed = [(y, x) for x, y in points]
        for order in itertools.chain(
                itertools.islice(itertools.permutations(points), ARRANGEMENTS),
                itertools.islice(itertools.permutations(transposed), ARRANGEMENTS)):
            values = [value for point in order for value in point]
            if all(holds(op, values[left], values[right]) for op, left, right in relations):
                return list(order)
        return points

    def shaped_rows(self, names: Sequence[str], count: int,
                    env: Mapping[str, Scalar]) -> list[dict[str, int]]:
        """Planned values of a block's rows of points ``x y`` (or circles ``x y r``, half
        of the time touching), as many as fit up to ``count`` (none below three rows)."""
        box = self.box(names[:1], names[1:2], env) if count >= 3 else None
        if box is None:
            return []
        if len(names) == 3 and self.rng.random() < 0.5:
            radius = self.span(names[2:], env)
            if radius is not None and radius[0] <= radius[1]:
                circles = touching_circles(count, box, radius, self.rng, self.coordinate)
                return [dict(zip(names, circle, strict=True)) for circle in circles]
        points = shaped_points(count, box, self.rng, self.coordinate)
        return [dict(zip(names[:2], point, strict=True)) for point in points]

    def line_fits(self, item: Repeat, fact: BlockFact | None,
                  env: Mapping[str, Scalar]) -> Callable[[Values], bool]:
        """Whether a row drawn next is a line of ``fact.lines``, none drawn before and off
        its points (a row that is not is drawn again); any row fits where the block's rows
        are no lines."""
        if fact is None or not (fact.lines or fact.beside):
            return lambda _row: True
        line = item.body[0]
        assert isinstance(line, Line)
        names = [part.name for part in line.segments]
        if not fact.lines:  # points off the points read before (beside)
            taken = {(env[x], env[y]) for x, y in fact.beside if x in env and y in env}
            return lambda row: (row.scalars[names[0]], row.scalars[names[1]]) not in taken
        points = [(env[x], env[y]) for x, y in fact.off if x in env and y in env]
        seen: set[tuple[int, int, int]] = set()
        return lambda row: line_problem([row.scalars[name] for name in names], points,
                                        seen) is None

    def rooted(self, rows: list[Values], fact: BlockFact | None) -> list[Values]:
        """``rows`` with ``fact.parents``' field a random forest of parent pointers: the
        rows in a random order, each a root or a child of one before it (of the one just
        before it, by a chance drawn per input: deep chains to flat stars), a share of
        them roots drawn per input (one tree to no edge at all)."""
        if fact is None or fact.parents is None:
            return rows
        name, root = fact.parents
        order = list(range(1, len(rows) + 1))
        self.rng.shuffle(order)
        chain, roots = self.rng.random(), self.rng.choice((0.0, 0.0, 0.1, 0.3, 1.0))
        for k, vertex in enumerate(order):
            parent = root if k == 0 or self.rng.random() < roots else (
                order[k - 1] if self.rng.random() < chain else order[self.rng.randrange(k)])
            rows[vertex - 1].scalars[name] = parent
        return rows

    def apart(self, rows: list[Values], fact: BlockFact | None) -> list[Values]:
        """``rows`` reordered, by swaps, so that no field of ``fact.unlike_row`` names its
        own row (as far as a few random swaps get: what is left, the plan rejects)."""
        if fact is None or not fact.unlike_row:
            return rows

        def fits(row: Values, number: int) -> bool:
            return all(row.scalars.get(name) != number for name in fact.unlike_row)

        for k in range(len(rows)):
            for _try in range(SWAP_TRIES):
                if fits(rows[k], k + 1):
                    break
                j = self.rng.randrange(len(rows))
                if fits(rows[j], k + 1) and fits(rows[k], j + 1):
                    rows[k], rows[j] = rows[j], rows[k]
        return rows

    def window(self, name: str, env: Mapping[str, Scalar]) -> tuple[float, float] | None:
        """The range of ``name`` given the values read before it, or None when empty."""
        bounds = self.facts.ranges.get(name, Range(0, 10))
        low, high = bounds.low, bounds.high
        for op, other, other_is_right in self.bounding.get(name, ()):
            if other not in env:
                continue
            value = exact(env[other])
            if op == "==":
                low, high = max(low, value), min(high, value)
            elif other_is_right:  # name OP other: other bounds it from above
                high = min(high, value if op == "<=" else value - 1)
            else:  # other OP name: from below
                low = max(low, value if op == "<=" else value + 1)
        for side in self.sides.get(name, ()):
            limit = side.limit(env)
            if limit is None:
                continue
            if side.op == "<=":
                high = min(high, limit)
            else:
                low = max(low, limit)
        return (low, high) if low <= high else None

    def number(self, low: float, high: float, kind: str, size: bool = False) -> Scalar:
        rng = self.rng
        if kind == INT:
            lo, hi = int(low), int(high)
            if self.kind == BOUND:
                if size:  # the largest sizes are the stress tier's
                    return rng.choice([lo, min(lo + 1, hi), min(lo + 2, hi)])
                return rng.choice([lo, hi, min(lo + 1, hi), max(hi - 1, lo)])
            if self.kind == LARGE and size:
                return max(lo, min(hi, self.cap))
            if self.kind == MEDIUM and size:
                top = max(lo, min(hi, self.cap))
                return lo + int(math.exp(rng.uniform(0, math.log(top - lo + 1)))) - 1
            if size:  # small sizes mostly: a size of 1 or 2 finds the edge cases
                return rng.randint(lo, min(hi, lo + rng.choice((1, 2, 4, 8))))
            if self.narrow:
                middle = min(max(0, lo), hi)
                return rng.randint(max(lo, middle - self.narrow), min(hi, middle + self.narrow))
            if hi - lo > 64 and rng.random() < SPECIAL:
                special = _special(lo, hi, rng)
                if special is not None:
                    return special
            if hi - lo > 64 and rng.random() < 0.6:
                # log-uniform: small values as often as large ones (a value may be a size
                # the grammar cannot see, a loop's bound: its largest are the stress tier's)
                if lo < 0 < hi and rng.random() < 0.5:  # small on either side of 0
                    magnitude = int(math.exp(rng.uniform(0, math.log(max(-lo, hi) + 1)))) - 1
                    return min(hi, max(lo, magnitude if rng.random() < 0.5 else -magnitude))
                return lo + int(math.exp(rng.uniform(0, math.log(hi - lo + 1)))) - 1
            return rng.randint(lo, hi)
        value = rng.uniform(low, high)
        return round(value, 2) if kind == FLOAT else value

    def tied(self, name: str, env: Mapping[str, Scalar]) -> int | None:
        for left, right in self.facts.ties:
            for a, b in ((left, right), (right, left)):
                if a.var == name and (b.var is None or b.var in env):
                    total = b.of(env) - a.offset
                    if total % a.scale == 0:
                        return total // a.scale
        return None

    def scalar(self, name: str, kind: str, env: Mapping[str, Scalar]) -> Scalar:
        self.budget -= 1
        if self.budget < 0:
            raise Mismatch("too large")
        if kind == WORD:
            return self.word(name, env)
        tied = self.tied(name, env)
        if tied is not None:
            return tied
        window = self.window(name, env)
        if window is None:
            raise Mismatch(f"{name}: no value fits")
        planned = self.planned.pop(name, None)
        if planned is not None and window[0] <= planned <= window[1]:
            return planned
        if kind == INT and self.kind in (RANDOM, MEDIUM) and self.rng.random() < RELATED:
            related = self.related(*window, env)
            if related is not None:
                return related
        return self.number(*window, kind, size=name in self.facts.counts)

    def related(self, low: float, high: float, env: Mapping[str, Scalar]) -> int | None:
        """An integer within ``[low, high]`` drawn from one read before it: equal to it,
        next to it, half of it or a divisor of it (None: no such number fits)."""
        known = [value for value in env.values()
                 if isinstance(value, int) and not isinstance(value, bool)]
        if not known:
            return None
        value = self.rng.choice(known)
        options = [value, value - 1, value + 1, value // 2, *_divisors(value, self.rng)]
        fitting = [option for option in options if low <= option <= high]
        return self.rng.choice(fitting) if fitting else None

    def run(self, seq: Seq, length: int, env: Mapping[str, Scalar],
            lists: Mapping[str, list[Scalar]] | None = None) -> list[Scalar]:
        """``length`` items of ``seq``; where a relation bounds them by a run of the same
        length read before (``l_i ≤ r_i``), each by its own item of that run."""
        self.budget -= length
        if self.budget < 0:
            raise Mismatch("too large")
        if seq.kind == WORD:
            return [self.word(seq.name, env) for _ in range(length)]
        fact = self.facts.runs.get(seq.name)
        if fact is not None and fact.permutation:
            items: list[Scalar] = list(range(1, length + 1))
            self.rng.shuffle(items)
            return items
        known = lists or {}
        beside = [other for _op, other, _right in self.bounding.get(seq.name, ())
                  if len(known.get(other, ())) == length]
        if beside and (fact is None or fact == RunFact()):
            paired: list[Scalar] = []
            for k in range(length):
                window = self.window(seq.name, {**env, **{o: known[o][k] for o in beside}})
                if window is None:
                    raise Mismatch(f"{seq.name}: no value fits item {k + 1}")
                paired.append(self.number(*window, seq.kind))
            return paired
        window = self.window(seq.name, env)
        if window is None:
            raise Mismatch(f"{seq.name}: no value fits")
        low, high = window
        if fact is not None and fact.distinct and seq.kind == INT:
            if high - low + 1 < length:
                raise Mismatch(f"{seq.name}: too few distinct values")
            chosen = self.rng.sample(range(int(low), int(high) + 1), length)
            out: list[Scalar] = list(chosen)
        elif fact is not None and fact.position is not None:
            out = [self.number(low, min(high, k + fact.position), seq.kind)
                   for k in range(length)]
        else:
            shared = self.rng.random() < 0.2  # runs of equal values find their own bugs
            first = self.number(low, high, seq.kind)
            out = [first if shared else self.number(low, high, seq.kind) for _ in range(length)]
        if fact is not None and seq.kind == INT and (
                fact.least_sum is not None or fact.most_sum is not None):
            out = self.summed(out, fact, low, high)
        if fact is not None and fact.order:
            out.sort()
        return out

    def summed(self, items: list[Scalar], fact: RunFact, low: float,
               high: float) -> list[Scalar]:
        """``items`` scaled down where they sum above :attr:`RunFact.most_sum`, one raised
        where they sum below :attr:`RunFact.least_sum` (integers; within ``[low, high]``)."""
        numbers = [int(item) for item in items]
        total = sum(numbers)
        most, least = fact.most_sum, fact.least_sum
        if most is not None and total > most:
            numbers = [max(int(low), value * most // total) for value in numbers]
            total = sum(numbers)
        if least is not None and total < least and numbers:
            k = self.rng.randrange(len(numbers))
            numbers[k] += least - total
            total = least
        if (most is not None and total > most) or any(not low <= v <= high for v in numbers):
            raise Mismatch("no items sum within the stated bounds")
        return list(numbers)

    def letters(self, alphabet: str) -> str:
        """The letters a word over ``alphabet`` is drawn from: in a narrow input two or
        three of them, the same for every word of the input over it (a pattern in a text,
        runs, matches: what words over 26 letters rarely have), else all."""
        if not self.narrow or len(alphabet) <= FEW_LETTERS[-1]:
            return alphabet
        if alphabet not in self.few:
            chosen = self.rng.sample(alphabet, self.rng.choice(FEW_LETTERS))
            self.few[alphabet] = "".join(sorted(chosen))
        return self.few[alphabet]

    def word(self, name: str, env: Mapping[str, Scalar]) -> str:
        fact = self.facts.words.get(name)
        alphabet = self.letters(fact.alphabet) if fact else "ab"
        if fact is not None and fact.length is not None:
            length = fact.length.of(env)
        elif fact is not None:  # a length is a size: small mostly, larger by the kind
            length = int(self.number(fact.shortest, fact.longest, INT, size=True))
        else:
            length = 1
        if fact is not None and fact.even and length % 2:
            length = length - 1 if length > fact.shortest else length + 1
        most = env.get(fact.most) if fact is not None and fact.most else None
        if isinstance(most, int) and length > most:
            # |t| ≤ |s|: as long as s at most, and as long as s now and then
            length = most if self.rng.random() < 0.5 else self.rng.randint(
                min(fact.shortest, most) if fact else 1, most)
        self.budget -= length
        if self.budget < 0 or length < 0:
            raise Mismatch("too large")
        return _shaped(alphabet, length, self.rng)

    def graph(self, item: Repeat, n: int, count: int, env: Mapping[str, Scalar],
              limit: int | None = None, repeats: bool = False) -> list[Values]:
        """``count`` edges over ``1..n`` joining every vertex: a random spanning tree (a
        path, a star or anything between), then extra edges, distinct ones, or where
        ``repeats`` (the rows need not be distinct) half the time some naming a pair
        named before (:data:`REPEATED`: a pair counted twice, a parallel edge); at most
        ``limit`` at any vertex (None: no bound)."""
        if n < 1 or count < n - 1:
            raise Mismatch(f"{item.name}: {count} edges cannot join {n} vertices")
        if count > self.budget:
            raise Mismatch("too large")
        labels = list(range(1, n + 1))
        self.rng.shuffle(labels)
        chain = self.rng.random()
        edges = _Edges(count, limit)
        for child in range(1, n):
            parent = child - 1 if self.rng.random() < chain else self.rng.randrange(child)
            if not edges.add(labels[parent], labels[child]):
                # a vertex full already: another before the child with room, if any
                room = [k for k in range(child) if edges.room(labels[k])]
                if not room or not edges.add(labels[self.rng.choice(room)], labels[child]):
                    raise Mismatch(f"{item.name}: no tree of {n} vertices within {limit}")
        again = REPEATED if repeats and self.rng.random() < 0.5 else 0.0
        edges.fill(range(1, n + 1), self.rng, again)
        if len(edges.pairs) < count:
            raise Mismatch(f"{item.name}: no {count} distinct edges over {n} vertices")
        return self.edge_rows(item, edges.pairs, env)

    def bounded(self, item: Repeat, count: int, limit: int,
                env: Mapping[str, Scalar]) -> list[Values]:
        """``count`` distinct edges, none from a vertex to itself, at most ``limit`` at any
        vertex, over the values the ends may take: mostly paths and cycles through the
        vertices in a random order, round after round while a vertex has room (so many
        vertices end ``limit`` edges: for 2, unions of cycles and paths), then random
        pairs."""
        line = item.body[0]
        assert isinstance(line, Line)
        ends = self.span([part.name for part in line.segments[:2]], env)
        if ends is None:
            raise Mismatch(f"{item.name}: no vertex fits")
        vertices = list(range(ends[0], ends[1] + 1))
        if count > self.budget or len(vertices) > self.budget:
            raise Mismatch("too large")
        edges = _Edges(count, limit)
        if vertices and self.rng.random() < 0.8:
            for _round in range(limit):
                order = list(vertices)
                self.rng.shuffle(order)
                while order:
                    # short paths and cycles, odd and even, and any length up to all
                    size = min(len(order), self.rng.choice(
                        (2, 3, 4, 5, self.rng.randint(2, max(2, len(order))), len(order))))
                    group, order = order[:size], order[size:]
                    closed = size >= 3 and self.rng.random() < 0.6
                    for a, b in zip(group, group[1:] + group[:1] if closed else group[1:],
                                    strict=False):
                        edges.add(a, b)
        edges.fill(vertices, self.rng)
        if len(edges.pairs) < count:
            raise Mismatch(f"{item.name}: no {count} edges within {limit} at each vertex")
        return self.edge_rows(item, edges.pairs, env)

    def edge_rows(self, item: Repeat, edges: list[tuple[int, int]],
                  env: Mapping[str, Scalar]) -> list[Values]:
        """The block's rows of ``edges``: each one's ends (in order where a relation says
        ``u < v``, else either way round), then its other fields drawn as any."""
        line = item.body[0]
        assert isinstance(line, Line)
        u, v = edge_ends(item)
        rest = [part for part in line.segments[2:] if isinstance(part, Field)]
        self.rng.shuffle(edges)
        ordered = self.ordered(u, v)
        out = []
        for a, b in edges:
            if ordered:
                a, b = min(a, b), max(a, b)
            elif self.rng.random() < 0.5:
                a, b = b, a
            row = Values({u: a, v: b}, {}, {})
            for part in rest:  # a weight: drawn as any field, after its ends
                row.scalars[part.name] = self.scalar(part.name, part.kind,
                                                     in_scope(env, row.scalars))
            out.append(row)
        return out


class _Edges:
    """Undirected edges, none a loop, distinct unless added ``again``, at most ``count``
    of them and at most ``limit`` at any vertex (None: any number)."""

    def __init__(self, count: int, limit: int | None) -> None:
        self.count = count
        self.limit = limit
        self.pairs: list[tuple[int, int]] = []
        self.taken: set[frozenset[int]] = set()
        self.degree: Counter[int] = Counter()

    def room(self, vertex: int) -> bool:
        return self.limit is None or self.degree[vertex] < self.limit

    def add(self, a: int, b: int, again: bool = False) -> bool:
        """Whether the edge was added (it fits every bound; named before only ``again``)."""
        if a == b or len(self.pairs) >= self.count \
                or (frozenset((a, b)) in self.taken and not again) \
                or not self.room(a) or not self.room(b):
            return False
        self.pairs.append((a, b))
        self.taken.add(frozenset((a, b)))
        self.degree.update((a, b))
        return True

    def fill(self, vertices: Sequence[int], rng: random.Random, again: float = 0.0) -> None:
        """Random pairs of ``vertices`` added until ``count`` (a few tries per edge), each
        with chance ``again`` a pair added before (either way round) instead."""
        for _ in range((self.count - len(self.pairs)) * 20):
            if len(self.pairs) >= self.count or not vertices:
                break
            if again and self.pairs and rng.random() < again:
                self.add(*rng.choice(self.pairs), again=True)
            else:
                self.add(rng.choice(vertices), rng.choice(vertices))


def _special(low: int, high: int, rng: random.Random) -> int | None:
    """A power of two, one less than one, or a power of ten within ``[low, high]`` (of
    either sign where the range has negatives), if any."""
    found = [value for k in range(1, 63) for value in (2 ** k, 2 ** k - 1)
             if low <= value <= high]
    found += [10 ** k for k in range(1, 19) if low <= 10 ** k <= high]
    found += [-value for value in found if low <= -value <= high]
    return rng.choice(found) if found else None


def _divisors(value: int, rng: random.Random) -> list[int]:
    """Two divisors of ``value`` (a small one and its large cofactor), from trial division
    up to :data:`DIVISOR_TRIALS` (none for values below 2)."""
    if value < 2:
        return []
    small = [d for d in range(2, min(math.isqrt(value), DIVISOR_TRIALS) + 1) if value % d == 0]
    chosen = rng.choice(small) if small else 1
    return [chosen, value // chosen]


def _shaped(alphabet: str, length: int, rng: random.Random) -> str:
    """A word of ``length`` letters of ``alphabet``, with the structure random letters
    rarely have in one case of two: all one letter, a block repeated (with one letter
    changed half the time), a palindrome, or a border (the same letters at both ends)."""
    shape = rng.random()
    if length == 0 or shape >= 0.5:
        return "".join(rng.choice(alphabet) for _ in range(length))
    if shape < 0.1:
        return rng.choice(alphabet) * length
    if shape < 0.3:
        block = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, min(4, length))))
        letters = list((block * (length // len(block) + 1))[:length])
        if rng.random() < 0.5:
            letters[rng.randrange(length)] = rng.choice(alphabet)
        return "".join(letters)
    if shape < 0.4:
        half = [rng.choice(alphabet) for _ in range((length + 1) // 2)]
        return "".join(half + half[:length // 2][::-1])
    edge = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, max(1, length // 3))))
    middle = "".join(rng.choice(alphabet) for _ in range(max(0, length - 2 * len(edge))))
    return (edge + middle + edge)[:length] if length >= 2 * len(edge) else edge[:length]


def _sized(plan: InputPlan, rng: random.Random, kind: str) -> Values:
    """A medium or large input: its sizes capped at the kind's budget, then at a quarter
    of it, and so on (:data:`CAPS`), until one fits the budget."""
    assert plan.inferred is not None
    for divisor in CAPS:
        try:
            return _Maker(plan, rng, kind, TOKENS[kind] // divisor).items(
                plan.inferred.grammar, {})
        except Mismatch as error:
            if str(error) != "too large":
                raise
    raise Mismatch("too large")


def _mutant(plan: InputPlan, rng: random.Random) -> Values | None:
    """A copy of one example with one number or word changed within its range, or now
    and then (:data:`MERGE`) one value of a field merged into another it holds."""
    assert plan.inferred is not None
    seed = rng.choice(plan.seeds)
    copy = _copy(seed)
    leaves: list[tuple[Values, str, int | None]] = []
    _leaves(plan.inferred.grammar, copy, leaves)
    if not leaves:
        return None
    values, name, index = rng.choice(leaves)
    current = _leaf(values, name, index)
    if rng.random() < MERGE:
        same = [leaf for leaf in leaves if leaf[1] == name]
        others = [value for value in dict.fromkeys(_leaf(*leaf) for leaf in same)
                  if value != current]
        if not others:
            return None
        into = rng.choice(others)
        for leaf in same:
            if _leaf(*leaf) == current:
                _set_leaf(*leaf, into)
        return copy
    maker = _Maker(plan, rng, rng.choice((BOUND, RANDOM)))
    bounds = plan.facts.ranges.get(name)
    if isinstance(current, str):
        new: Scalar = maker.word(name, {})
    elif bounds is None:
        return None
    else:
        new = maker.number(bounds.low, bounds.high, INT if isinstance(current, int) else FLOAT)
    _set_leaf(values, name, index, new)
    return copy


def _leaf(values: Values, name: str, index: int | None) -> Scalar:
    """The value of a leaf (:func:`_leaves`)."""
    return values.scalars[name] if index is None else values.lists[name][index]


def _set_leaf(values: Values, name: str, index: int | None, new: Scalar) -> None:
    if index is None:
        values.scalars[name] = new
    else:
        values.lists[name][index] = new


def _copy(values: Values) -> Values:
    return Values(dict(values.scalars), {k: list(v) for k, v in values.lists.items()},
                  {k: [_copy(inner) for inner in v] for k, v in values.blocks.items()})


def _leaves(items: Sequence[Item], values: Values,
            out: list[tuple[Values, str, int | None]]) -> None:
    for item in items:
        if isinstance(item, Line):
            for part in item.segments:
                if isinstance(part, Field):
                    out.append((values, part.name, None))
                else:
                    out.extend((values, part.name, k)
                               for k in range(len(values.lists[part.name])))
        else:
            for inner in values.blocks[item.name]:
                _leaves(item.body, inner, out)


#: The kinds in the order a run cycles through them (fixed, so a longer run starts with
#: a shorter one's inputs).
SCHEDULE = (BOUND, RANDOM, MUTATE, RANDOM, BOUND, MUTATE, MEDIUM, RANDOM, MUTATE, RANDOM,
            BOUND, RANDOM, MUTATE, MEDIUM, RANDOM, MUTATE, RANDOM, BOUND, RANDOM, LARGE)


def program_inputs(plan: InputPlan, seeds: Sequence[str], rng: random.Random,
                   count: int) -> list[ProgramInput]:
    """Up to ``count`` new distinct inputs (none of ``seeds``), each passing
    ``plan.violation``; the same ``rng`` state gives the same list."""
    if plan.inferred is None or count <= 0:
        return []
    grammar: Grammar = plan.inferred.grammar
    seen = set(seeds)
    out: list[ProgramInput] = []
    large_tries = 0
    for attempt in range(count * TRIES_PER_INPUT):
        if len(out) >= count:
            break
        kind = SCHEDULE[attempt % len(SCHEDULE)]
        if kind == LARGE:
            large_tries += 1
            if large_tries > LARGE_TRIES:
                continue
        try:
            values = (_mutant(plan, rng) if kind == MUTATE
                      else _sized(plan, rng, kind) if kind in (MEDIUM, LARGE)
                      else _Maker(plan, rng, kind).items(grammar, {}))
        except (Mismatch, KeyError, ValueError, IndexError):
            continue
        if values is None:
            continue
        text = render(grammar, values)
        if text in seen or plan.violation(text) is not None:
            continue
        seen.add(text)
        out.append(ProgramInput(text, kind))
    return out
