"""Input grammars of program tasks: inferred from examples, read back, facts kept, and new
inputs drawn from them (pure; literal examples of the forms real statements use)."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from evalplus_ng.generate.programs.facts import Facts, Range, RunFact, check, learn
from evalplus_ng.generate.programs.grammar import (
    Count,
    Field,
    Line,
    Mismatch,
    Repeat,
    Seq,
    describe,
    parse,
    render,
)
from evalplus_ng.generate.programs.infergrammar import infer, infer_all
from evalplus_ng.generate.programs.planner import plan_for, program_inputs
from evalplus_ng.generate.programs.points import on_grid, on_lines, shaped_points, touching_circles
from evalplus_ng.records import ProgramTask, ProgramTest

ARRAY = ["5\n1 3 2 3 4\n", "3\n7 7 7\n"]
TREE = ["5\n1 2\n1 3\n2 4\n2 5\n", "3\n1 2\n2 3\n"]
MULTI = ["2\n3\n1 2 3\n1\n5\n", "1\n2\n4 4\n"]

STATEMENT = """Title

Input

The first line contains a single integer n (1 ≤ n ≤ 100) — the length of the array.

The second line contains n integers a_1, a_2, ..., a_n (1 ≤ a_i ≤ 10^9).

Output

Print the answer.
"""


def task(examples: list[str], prompt: str = "") -> ProgramTask:
    return ProgramTask("t/1", prompt, "print(1)",
                       tuple(ProgramTest(text, "1\n", True) for text in examples))


def test_a_count_then_that_many_integers() -> None:
    inferred = infer(ARRAY)
    assert inferred is not None
    assert inferred.grammar == (Line((Field("x1", "int"),)),
                                Line((Seq("s1", "int", Count("x1")),)))
    values = parse(inferred.grammar, "2\n9 8\n")
    assert values.lists["s1"] == [9, 8]
    with pytest.raises(Mismatch):
        parse(inferred.grammar, "3\n9 8\n")


def test_a_block_of_n_minus_one_edges() -> None:
    inferred = infer(TREE)
    assert inferred is not None
    block = inferred.grammar[1]
    assert isinstance(block, Repeat) and block.count == Count("x1", -1)


def test_test_cases_are_a_block_of_several_lines() -> None:
    inferred = infer(MULTI)
    assert inferred is not None
    assert describe(inferred.grammar) == [
        {"line": [["x1", "int"]]},
        {"repeat": "r1", "count": "x1",
         "body": [{"line": [["x2", "int"]]}, {"line": [["s1", "int", "x2"]]}]}]


def test_render_gives_back_what_parse_read() -> None:
    inferred = infer(MULTI)
    assert inferred is not None
    for text in MULTI:
        assert render(inferred.grammar, parse(inferred.grammar, text)) == text


def test_an_ambiguous_length_is_pinned() -> None:
    """Every example has n == 2 and two tokens after it: a fixed line, n kept at 2."""
    inferred = infer(["2\n5 6\n", "2\n1 1\n"])
    assert inferred is not None
    assert (Count("x1"), Count(None, 2)) in inferred.ties


def test_examples_that_fit_no_grammar() -> None:
    assert infer([]) is None
    assert infer_all(["1\n", ""]) == []


def test_facts_held_by_every_example() -> None:
    inferred = infer(TREE)
    assert inferred is not None
    seeds = [parse(inferred.grammar, text) for text in TREE]
    facts = learn(inferred.grammar, seeds)
    assert facts.blocks["r1"].tree is not None
    assert check(facts, inferred.grammar, parse(inferred.grammar, "4\n1 2\n2 3\n1 4\n")) is None
    cycle = parse(inferred.grammar, "4\n1 2\n2 1\n3 4\n")
    assert check(facts, inferred.grammar, cycle) == "r1: a pair repeated in reverse"
    triangle = parse(inferred.grammar, "4\n1 2\n2 3\n3 1\n")  # 4 left alone
    assert check(facts, inferred.grammar, triangle) == "r1: not a tree over 1..x1"


def test_a_permutation_stays_one() -> None:
    examples = ["3\n2 3 1\n", "4\n4 1 3 2\n"]
    plan = plan_for(task(examples))
    assert plan.facts.runs["s1"].permutation
    assert plan.violation("3\n1 1 2\n") == "s1 is not a permutation"
    made = program_inputs(plan, examples, random.Random(0), 20)
    assert made
    for item in made:
        rows = item.text.split("\n")
        assert sorted(map(int, rows[1].split())) == list(range(1, int(rows[0]) + 1))


def test_statement_bounds_widen_the_learnt_ranges() -> None:
    plan = plan_for(task(ARRAY, STATEMENT))
    assert plan.contract is not None
    assert plan.contract["names"] == {"s1": "a", "x1": "n"}
    assert plan.facts.ranges["x1"].low == 1 and plan.facts.ranges["x1"].high == 100
    assert plan.violation("1\n1000000000\n") is None
    assert plan.violation("101\n" + "1 " * 100 + "1\n") is not None
    assert plan.violation("1\n0\n") is not None  # a_i >= 1


def test_new_inputs_are_valid_distinct_and_reproducible() -> None:
    plan = plan_for(task(ARRAY, STATEMENT))
    first = program_inputs(plan, ARRAY, random.Random(7), 60)
    again = program_inputs(plan, ARRAY, random.Random(7), 60)
    assert first == again
    texts = [item.text for item in first]
    assert len(set(texts)) == len(texts) == 60
    assert not set(texts) & set(ARRAY)
    assert all(plan.violation(text) is None for text in texts)
    assert {item.kind for item in first} >= {"bound", "random", "mutate"}
    assert any(text.startswith("1\n") for text in texts)  # the smallest size is tried


def test_no_grammar_no_inputs() -> None:
    plan = plan_for(task(["1\n", "\n"]))  # an empty example: no grammar reads it
    assert plan.inferred is None and plan.contract is None and plan.reason
    assert program_inputs(plan, [], random.Random(0), 5) == []
    assert plan.violation("1\n") is not None


GRAPH = """Input

The first line contains two integers n and m (2 ≤ n ≤ 50, 1 ≤ m ≤ 100).

Each of the next m lines contains two integers u and v (1 ≤ u, v ≤ n, u ≠ v).

It is guaranteed that the graph is connected.

Output

Print the answer.
"""


def test_a_connected_graph_stays_connected() -> None:
    examples = ["4 4\n1 2\n2 3\n3 4\n4 1\n", "3 2\n1 3\n3 2\n"]
    plan = plan_for(task(examples, GRAPH))
    block = plan.facts.blocks["r1"]
    assert block.connected == "x1" and block.ends == ("x3", "x4")
    assert plan.facts.ranges["x3"].high == 50  # any vertex may be an end
    assert plan.violation("4 3\n1 2\n2 3\n1 3\n") == "r1: not connected over 1..x1"  # 4 alone
    made = program_inputs(plan, examples, random.Random(1), 40)
    assert len(made) >= 20
    assert all(plan.violation(item.text) is None for item in made)


def test_a_connected_graph_whose_rows_may_repeat_names_a_pair_twice() -> None:
    """An example naming a pair twice: the rows are no set, and some drawn graphs repeat
    a pair (either way round), still connected."""
    examples = ["4 4\n1 2\n2 3\n3 4\n1 2\n", "3 2\n1 3\n3 2\n"]
    plan = plan_for(task(examples, GRAPH))
    block = plan.facts.blocks["r1"]
    assert block.connected == "x1" and not block.distinct
    made = program_inputs(plan, examples, random.Random(1), 60)
    assert all(plan.violation(item.text) is None for item in made)

    def repeats(text: str) -> bool:
        rows = [frozenset(line.split()) for line in text.splitlines()[1:]]
        return len(set(rows)) < len(rows)

    assert any(repeats(item.text) for item in made if item.kind != "mutate")


CTHULHU = """Input

The first line contains two integers — the number of vertices n and the number of edges m \
of the graph (1 ≤ n ≤ 100, 0 ≤ m ≤ <image>).

Each of the following m lines contains a pair of integers x and y, that show that an edge \
exists between vertices x and y (1 ≤ x, y ≤ n, x ≠ y). For each pair of vertices there will \
be at most one edge between them, no edge connects a vertex to itself.

Output

Print "NO", if the graph is not Cthulhu and "FHTAGN!" if it is.

Note

A tree is a connected undirected graph consisting of n vertices and n - 1 edges (n > 0).
"""
CTHULHU_EXAMPLES = ["6 6\n6 3\n6 4\n5 1\n2 5\n1 4\n5 4\n",
                    "6 5\n5 6\n4 6\n3 1\n5 1\n1 2\n"]


def test_a_graph_connected_in_every_example_is_drawn_in_parts_unless_said() -> None:
    """Both examples connected, and a statement that never says the graph is (a tree's
    definition is no guarantee): graphs in parts are inputs too; where it says so, none."""
    plan = plan_for(task(CTHULHU_EXAMPLES, CTHULHU))
    assert plan.inferred is not None, plan.reason
    assert not any(fact.connected for fact in plan.facts.blocks.values())
    parts = "4 2\n1 2\n3 4\n"
    assert plan.violation(parts) is None
    made = program_inputs(plan, CTHULHU_EXAMPLES, random.Random(2), 150)
    assert all(plan.violation(item.text) is None for item in made)
    said = plan_for(task(CTHULHU_EXAMPLES, CTHULHU.replace(
        "no edge connects a vertex to itself.", "no edge connects a vertex to itself. It "
        "is guaranteed that the graph is connected.")))
    assert said.violation(parts) is not None


def test_an_edge_count_bounded_by_an_image_in_a_simple_graph_is_its_most_edges() -> None:
    """"0 ≤ m ≤ <image>" with no loop and at most one edge between two vertices: m ≤
    n(n-1)/2, kept input by input; and an edge's end is no relation of the edge count
    (every example's ends differ from its m by chance: other lines, few pairs)."""
    plan = plan_for(task(CTHULHU_EXAMPLES, CTHULHU))
    assert plan.inferred is not None, plan.reason
    assert len(plan.facts.sides) == 1
    assert plan.violation("3 3\n1 2\n2 3\n3 1\n") is None
    assert plan.violation("3 4\n1 2\n2 3\n3 1\n1 3\n") is not None
    assert plan.violation("3 2\n1 2\n2 3\n") is None  # an end equal to m
    assert plan.violation("3 1\n2 2\n") is not None  # a loop
    without = CTHULHU.replace("For each pair of vertices there will be at most one edge "
                              "between them, no edge connects a vertex to itself.", "")
    assert plan_for(task(CTHULHU_EXAMPLES, without)).inferred is None
    # the picture in the count's place on its line, and "a_i ≠ b_i" for no loops
    friends = statement(
        "The first line of the input contain two integers n and m (3 ≤ n ≤ 150 000, "
        "<image>) — the number of members and the number of pairs of members that are "
        "friends.",
        "The i-th of the next m lines contains two distinct integers ai and bi (1 ≤ ai, bi "
        "≤ n, ai ≠ bi). No pair of members will appear more than once in the input.")
    pictured = plan_for(task(CTHULHU_EXAMPLES, friends))
    assert pictured.inferred is not None, pictured.reason
    assert pictured.facts.ranges["x2"].high > 1000
    assert pictured.violation("4 6\n1 2\n1 3\n1 4\n2 3\n2 4\n3 4\n") is None


def test_numbers_said_to_be_die_rolls_range_over_six_faces() -> None:
    """"two natural numbers Y and W — the results of die rolls": 1..6, though the one
    example showed 4 and 2; a die said to have other faces, or a bound, keeps its own."""
    rolls = """Input

The only line of the input file contains two natural numbers Y and W — the results of \
Yakko's and Wakko's die rolls.

Output

Print the probability.
"""
    plan = plan_for(task(["4 2\n"], rolls))
    assert (plan.facts.ranges["x1"], plan.facts.ranges["x2"]) == (Range(1, 6), Range(1, 6))
    assert plan.violation("6 1\n") is None and plan.violation("7 1\n") is not None
    faces = plan_for(task(["4 2\n"], rolls.replace("die rolls.", "die rolls (a die of 20 "
                                                                   "faces).")))
    assert faces.facts.ranges["x1"].high == 4
    capped = plan_for(task(["4 2\n"], rolls.replace("W —", "W (1 ≤ Y, W ≤ 5) —")))
    assert capped.facts.ranges["x1"] == Range(1, 5)


def test_a_tree_then_an_array_named_only_by_its_bound() -> None:
    """"n integers denoting the array a (0 ≤ a_i ≤ 10^9)": the list is a, bounded so
    (not the examples' a_i < n); and a tree's end that never equalled its edge's number
    did so by chance (its ends are vertices)."""
    tree = statement(
        "The first line contains two space-separated integers n and k (3 ≤ n ≤ 10^5, "
        "1 ≤ k ≤ 20).",
        "The next n-1 lines each contain two integers x and y (1 ≤ x, y ≤ n, x ≠ y), "
        "denoting an undirected edge between the two nodes x and y. These edges form a "
        "tree of n nodes.",
        "The next line contains n space-separated integers denoting the array a (0 ≤ a_i "
        "≤ 10^9).")
    examples = ["5 1\n1 2\n1 3\n5 2\n4 3\n0 3 2 4 4\n", "3 2\n3 2\n1 3\n1 1 2\n"]
    plan = plan_for(task(examples, tree))
    assert plan.inferred is not None, plan.reason
    assert plan.contract is not None and plan.contract["names"]["s1"] == "a"
    assert plan.facts.ranges["s1"] == Range(0, 10 ** 9)
    assert plan.violation("3 3\n1 3\n1 2\n7 8 9\n") is None
    assert plan.violation("3 3\n2 1\n1 3\n1 2 3\n") is None  # y == 1 on row 1
    assert not plan.facts.blocks["r1"].unlike_row


ERASE_EXAMPLES = ["4\nababcd\nabcba\na\nb\ndefi\nfed\nxyz\nx\n"]


def test_a_small_total_over_the_test_cases_and_a_word_no_longer_than_another() -> None:
    """"The first line contains string s" after the test count is a test case's own
    line; "the total length of strings s doesn't exceed 400" caps the sum of |s| over
    the input (a plan keeps it, no longer "what no plan checks"); "|t| ≤ |s|" lets t be
    as long as s may be, and never longer than its own s."""
    erase = statement(
        "The first line contains the single integer T (1 ≤ T ≤ 100) — the number of test "
        "cases.",
        "Next 2T lines contain test cases — two per test case. The first line contains string "
        "s consisting of lowercase Latin letters (1 ≤ |s| ≤ 400) — the initial string.",
        "The second line contains string t consisting of lowercase Latin letters (1 ≤ |t| ≤ "
        "|s|) — the string you'd like to build.",
        "It's guaranteed that the total length of strings s doesn't exceed 400.")
    plan = plan_for(task(ERASE_EXAMPLES, erase))
    assert plan.inferred is not None, plan.reason
    assert plan.contract is not None and plan.contract["names"] == {
        "x1": "T", "x2": "s", "x3": "t"}
    assert plan.facts.totals == (("|x2|", 400),)
    assert plan.facts.words["x3"].most == "|x2|"
    assert plan.violation("1\n" + "a" * 400 + "\n" + "b" * 300 + "\n") is None
    assert plan.violation("1\nab\nabc\n") is not None  # t longer than s
    assert plan.violation("2\n" + "a" * 300 + "\nb\n" + "a" * 101 + "\nb\n") is not None
    made = program_inputs(plan, ERASE_EXAMPLES, random.Random(5), 120)
    assert len(made) >= 60
    pairs = [item.text.split("\n")[1:3] for item in made]
    assert any(len(t) > 5 for _s, t in pairs)  # longer than any example's t
    assert all(plan.violation(item.text) is None for item in made)
    assert plan_for(task(ERASE_EXAMPLES, erase.replace("total length of strings s",
                                                       "total length of all strings"))
                    ).inferred is None


def test_a_bound_by_another_number_with_an_offset_is_a_side() -> None:
    """"n - 1 ≤ m": every example's m ≤ n was chance, and m ≥ n - 1 holds input by input
    (no relation says it: a side does)."""
    bosses = statement(
        "The first line contains two integers n and m (2 ≤ n ≤ 3 ⋅ 10^5, n - 1 ≤ m ≤ 3 ⋅ "
        "10^5) — the number of locations and passages, respectively.",
        "Then m lines follow, each containing two integers x and y (1 ≤ x, y ≤ n, x ≠ y) "
        "describing the endpoints of one of the passages.",
        "It is guaranteed that there is no pair of locations directly connected by two or "
        "more passages, and that any location is reachable from any other location.")
    examples = ["5 5\n1 2\n2 3\n3 1\n4 1\n5 2\n", "4 3\n1 2\n4 3\n3 2\n"]
    plan = plan_for(task(examples, bosses))
    assert plan.inferred is not None, plan.reason
    assert [str(side) for side in plan.facts.sides] == ["x2 >= 1 * x1 + -1"]
    assert plan.violation("4 6\n1 2\n1 3\n1 4\n2 3\n2 4\n3 4\n") is None  # m > n
    made = program_inputs(plan, examples, random.Random(4), 80)
    assert any(int(item.text.split()[1]) > int(item.text.split()[0]) for item in made)
    assert all(int(item.text.split()[1]) >= int(item.text.split()[0]) - 1 for item in made)


def test_test_cases_of_one_line_each_are_named_and_may_repeat() -> None:
    """"The only line for each test case contains two integers n and k": the block of
    test cases, each one line, named (no reading pins the count of test cases to the one
    example's 3); two test cases alike are an input."""
    lights = statement(
        "Each test contains multiple test cases. The first line contains the number of test "
        "cases t (1 ≤ t ≤ 10). Description of the test cases follows.",
        "The only line for each test case contains two integers n and k (2 ≤ k ≤ n ≤ "
        "10^5), which are the total number of lights and the length of subsegment.")
    examples = ["3\n3 2\n15 2\n40 15\n"]
    plan = plan_for(task(examples, lights))
    assert plan.contract is not None
    assert plan.contract["names"] == {"x1": "t", "x2": "n", "x3": "k"}
    assert plan.contract["alternatives"] == 0 and not plan.facts.ties
    assert plan.violation("2\n7 3\n7 3\n") is None
    assert plan.violation("1\n7 8\n") is not None
    made = program_inputs(plan, examples, random.Random(6), 60)
    assert any(item.text.split()[0] != "3" for item in made)


def test_repeated_roads_allowed_and_loops_forbidden_in_one_sentence() -> None:
    """"The road can't connect the junction with itself, but between a pair of junctions
    there can be more than one road": roads may repeat and come either way round, none
    joins a junction to itself, and no road's end relates to the junctions read before
    (every example's u < y was chance)."""
    volley = statement(
        "The first line contains two integers n and m (1 ≤ n ≤ 1000, 0 ≤ m ≤ 1000). The "
        "next line contains two integers x and y (1 ≤ x, y ≤ n). Next m lines contain the "
        "roads' description. Each road is described by a line containing three integers "
        "ui, vi, wi (1 ≤ ui, vi ≤ n, 1 ≤ wi ≤ 10^9) — the numbers of the junctions connected "
        "by the road and the length of the road. The road can't connect the junction with "
        "itself, but between a pair of junctions there can be more than one road.")
    examples = ["4 4\n1 3\n1 2 3\n1 4 1\n2 4 1\n2 3 5\n"]
    plan = plan_for(task(examples, volley))
    assert plan.inferred is not None, plan.reason
    assert plan.violation("4 2\n1 3\n4 2 3\n4 2 3\n") is None  # u > y, v < u, repeated
    assert plan.violation("4 1\n1 3\n2 2 3\n") is not None  # a loop


def test_a_mutated_example_may_merge_one_value_of_a_field_into_another() -> None:
    """Every 3 of ``1 3 2 3 4`` made 1 (or 2, or 4) at once: values repeat where one
    change at a time would need two steps."""
    plan = plan_for(task(ARRAY, STATEMENT))
    made = program_inputs(plan, ARRAY, random.Random(7), 200)
    merged = {item.text for item in made if item.kind == "mutate"} & {
        f"5\n1 {v} 2 {v} 4\n" for v in (1, 2, 4)}
    assert merged


def test_a_word_of_even_length_in_every_example_stays_even() -> None:
    plan = plan_for(task(["ab\n", "abba\n"]))
    assert plan.facts.words["x1"].even
    assert plan.violation("aba\n") == "x1: odd length 3"
    made = program_inputs(plan, ["ab\n", "abba\n"], random.Random(3), 10)
    assert made and all(len(item.text.strip()) % 2 == 0 for item in made)
    said = plan_for(task(["ab\n", "abba\n"], statement(
        "The only line contains a string s of even length (2 ≤ |s| ≤ 100).")))
    assert said.facts.words["x1"].even and said.contract is not None
    assert said.contract["facts"]["words"]["x1"]["even"] is True


def test_a_statement_silent_on_evenness_keeps_no_even_length() -> None:
    """477_c: both examples' patterns ("aa", "ab") have even length by chance; "a" is a
    pattern too."""
    plan = plan_for(task(TEXT_EXAMPLES, TEXT_AND_PATTERN))
    assert not plan.facts.words["x2"].even
    assert plan.violation("aaa\na\n") is None
    made = program_inputs(plan, TEXT_EXAMPLES, random.Random(3), 100)
    assert any(len(item.text.split()[1]) % 2 for item in made)


def test_runs_bounded_item_by_item_keep_no_shape_by_chance() -> None:
    """1187_f: "l_i ≤ r_i ≤ 10^9" with both examples' lists sorted: no order holds, and
    each r_i is at least its own l_i (121 of 300 inputs made before broke it)."""
    bounds = statement(
        "The first line contains the single integer n (1 ≤ n ≤ 2 ⋅ 10^5).",
        "The second line contains n integers l_1, l_2, ..., l_n (1 ≤ l_i ≤ 10^9).",
        "The third line contains n integers r_1, r_2, ..., r_n (l_i ≤ r_i ≤ 10^9).")
    examples = ["3\n1 1 1\n1 2 3\n", "3\n3 4 5\n4 5 6\n"]
    plan = plan_for(task(examples, bounds))
    assert plan.facts.runs["s1"] == plan.facts.runs["s2"] == RunFact()
    assert plan.violation("3\n5 1 2\n6 1 9\n") is None
    assert plan.violation("3\n5 1 2\n4 1 9\n") == "s1 <= s2 broken"  # l_1 > r_1
    made = program_inputs(plan, examples, random.Random(8), 200)
    pairs = [(list(map(int, rows[1].split())), list(map(int, rows[2].split())))
             for rows in (item.text.splitlines() for item in made)]
    assert pairs and all(all(a <= b for a, b in zip(ls, rs, strict=True)) for ls, rs in pairs)
    assert any(ls != sorted(ls) for ls, _ in pairs)
    assert any(any(a == b for a, b in zip(ls, rs, strict=True)) for ls, rs in pairs)


TEXT_AND_PATTERN = """Input

The first line contains string s (1 ≤ |s| ≤ 2000).

The second line contains string p (1 ≤ |p| ≤ 500).

Both strings will only consist of lower case English letters.

Output

Print the answer.
"""
TEXT_EXAMPLES = ["aaaaa\naa\n", "axbaxxb\nab\n"]


def _is_subsequence(small: str, large: str) -> bool:
    letters = iter(large)
    return all(letter in letters for letter in small)


def test_narrow_inputs_draw_their_words_from_a_few_letters() -> None:
    """Words over 26 letters almost never hold a pattern as a subsequence: in a narrow
    input both strings draw from the same two or three letters, so they do; every letter
    of the alphabet still comes."""
    plan = plan_for(task(TEXT_EXAMPLES, TEXT_AND_PATTERN))
    assert plan.facts.words["x1"].alphabet == "abcdefghijklmnopqrstuvwxyz"
    made = program_inputs(plan, TEXT_EXAMPLES, random.Random(2), 300)
    assert all(plan.violation(item.text) is None for item in made)
    pairs = [item.text.split() for item in made]
    few = [(s, p) for s, p in pairs if len(s) >= 4 and len(set(s + p)) in (2, 3)]
    assert len(few) >= 10
    assert sum(_is_subsequence(p, s) for s, p in few if len(p) >= 2) >= 5
    assert len({letter for s, p in pairs for letter in s + p}) == 26


ONE_STRING = """Input

The first line contains the initial string consisting of letters 'a' and 'b' only with \
length from 1 to 10^6.

Output

Print the minimum number of steps modulo 10^9 + 7.
"""


def test_a_length_said_of_no_name_bounds_the_only_word() -> None:
    """"The initial string ... with length from 1 to 10^6": the input's one word, though
    the sentence names it not, and the examples were of 2 and 3 letters."""
    plan = plan_for(task(["ab\n", "aab\n"], ONE_STRING))
    fact = plan.facts.words["x1"]
    assert (fact.alphabet, fact.shortest, fact.longest) == ("ab", 1, 10 ** 6)
    made = program_inputs(plan, ["ab\n", "aab\n"], random.Random(1), 100)
    assert max(len(item.text.strip()) for item in made) > 100
    assert plan.violation("b\n") is None


PAIRS_OF_ARRAY = """Input

The first line contains two integers n and k (1 ≤ n ≤ 10^5, 1 ≤ k ≤ 10^9). The second \
line contains the array containing n integers a1, a2, ..., an (-10^9 ≤ ai ≤ 10^9). The \
numbers in the array can coincide. All numbers are separated with spaces.

Output

Print the k-th pair.
"""
PAIRS_EXAMPLES = ["2 4\n2 1\n", "3 2\n3 1 5\n"]


def test_values_that_can_coincide_are_not_kept_distinct() -> None:
    """Both examples' arrays had distinct values; "the numbers in the array can coincide"
    says the opposite of a shape, so the plan keeps none and some arrays repeat a value."""
    plan = plan_for(task(PAIRS_EXAMPLES, PAIRS_OF_ARRAY))
    assert not plan.facts.runs["s1"].distinct
    assert plan.violation("3 2\n1 1 2\n") is None
    made = program_inputs(plan, PAIRS_EXAMPLES, random.Random(4), 100)
    assert any(len(set(array)) < len(array) for item in made
               if len(array := item.text.split("\n")[1].split()) >= 2)
    said = plan_for(task(PAIRS_EXAMPLES, PAIRS_OF_ARRAY.replace("can coincide",
                                                                "are pairwise distinct")))
    assert said.facts.runs["s1"].distinct


def test_a_bound_by_a_power_whose_superscript_was_lost_is_read_as_the_power() -> None:
    """"1 ≤ k ≤ n2" is k ≤ n² (as "105" is 10^5): the plan keeps k within each input's
    own n² (k = 4 with n = 1 is no input) and reaches past the examples' k ≤ 4."""
    lost = PAIRS_OF_ARRAY.replace("1 ≤ k ≤ 10^9", "1 ≤ k ≤ n2")
    plan = plan_for(task(PAIRS_EXAMPLES, lost))
    assert plan.inferred is not None, plan.reason
    assert plan.violation("1 4\n7\n") is not None
    assert plan.violation("1 1\n7\n") is None
    assert plan.violation("3 9\n1 2 3\n") is None
    assert plan.violation("3 10\n1 2 3\n") is not None
    made = program_inputs(plan, PAIRS_EXAMPLES, random.Random(3), 200)
    pairs = [tuple(map(int, item.text.split("\n")[0].split())) for item in made]
    assert all(k <= n * n for n, k in pairs)
    assert any(k > 4 for _, k in pairs)
    # "n2" named by the statement (n1 and n2 given) is a variable, not a power
    named = lost.replace("The first line contains two integers n and k",
                         "The first line contains two integers n and k. Let n2 be "
                         "a number (1 ≤ n2 ≤ 5)")
    assert plan_for(task(PAIRS_EXAMPLES, named)).facts.sides == ()


ROOKS = """Input

The only line of the input contains two integers n and k (1 ≤ n ≤ 200000; 0 ≤ k ≤ (n(n - 1))/(2)).

Output

Print the answer.
"""
ROOKS_EXAMPLES = ["3 2\n", "3 3\n", "4 0\n", "1337 42\n"]


def test_a_side_given_by_a_formula_bounds_every_input() -> None:
    """``k ≤ n(n-1)/2``: k reaches past the examples' k ≤ n (which held by chance) and
    stays within its own n's formula; ``1 1`` (k must be 0 for n = 1) is no input."""
    plan = plan_for(task(ROOKS_EXAMPLES, ROOKS))
    assert plan.contract is not None
    assert plan.contract["facts"]["sides"] == ["x2 <= x1 * (x1 - 1) / 2"]
    assert plan.violation("1 1\n") == "x2 <= x1 * (x1 - 1) / 2 broken"
    assert plan.violation("1 0\n") is None and plan.violation("5 10\n") is None
    made = program_inputs(plan, ROOKS_EXAMPLES, random.Random(4), 200)
    pairs = [tuple(map(int, item.text.split())) for item in made]
    assert pairs and all(k <= n * (n - 1) // 2 for n, k in pairs)
    assert any(k > n for n, k in pairs)
    assert any(n == 1 for n, _ in pairs)


def test_a_side_no_formula_reads_gives_no_plan() -> None:
    """``0 ≤ k ≤ <image>``: whatever the image said, the examples' range may break it."""
    plan = plan_for(task(ROOKS_EXAMPLES, ROOKS.replace("(n(n - 1))/(2)", "<image>")))
    assert plan.inferred is None and "no formula reads" in plan.reason


DIGITS = """Input

The first line contains two integers, n and k (0 ≤ k < n ≤ 10^5).

The second line contains a string consisting of n digits.

Output

Print the answer.
"""


def test_a_string_of_digits_is_a_word_not_a_number() -> None:
    """"a string consisting of n digits": ``108`` is three characters, so ``4 1 / 108``
    is no input and ``3 1 / 008`` is one; every string made is n digits long."""
    examples = ["3 1\n108\n", "3 2\n108\n"]
    plan = plan_for(task(examples, DIGITS))
    assert plan.contract is not None
    assert plan.contract["facts"]["words"]["x3"]["equals"] == "x1"
    assert plan.violation("4 1\n108\n") is not None
    assert plan.violation("3 1\n008\n") is None
    made = program_inputs(plan, examples, random.Random(3), 200)
    rows = [item.text.split() for item in made]
    assert rows and all(len(s) == int(n) and s.isdigit() and int(k) < int(n)
                        for n, k, s in rows)
    assert any(s.startswith("0") for _, _, s in rows)
    assert any(len(s) > 20 for _, _, s in rows)


PATH_ROADS = """Input

The first line contains two integers n and m (2 ≤ n ≤ 100, 1 ≤ m ≤ 100).

Each of the next m lines contains two integers u and v (1 ≤ u, v ≤ n, u ≠ v) — a road.

It is guaranteed that there is a path from city 1 to city n.

Output

Print the answer.
"""
PATH_EXAMPLES = ["4 2\n1 2\n2 4\n", "5 3\n1 3\n3 5\n2 4\n", "3 3\n3 2\n1 2\n1 3\n"]


def _joins(text: str) -> tuple[bool, bool]:
    """(1 reaches n, every vertex reached) over the edges of ``text`` as undirected."""
    head, *rows = text.split("\n")
    n = int(head.split()[0])
    parent = list(range(n + 1))

    def find(x: int) -> int:
        while parent[x] != x:
            x = parent[x]
        return x

    for row in filter(None, rows):
        a, b = map(int, row.split())
        parent[find(a)] = find(b)
    return find(1) == find(n), len({find(x) for x in range(1, n + 1)}) == 1


def test_a_path_from_1_to_n_the_statement_guarantees_is_kept() -> None:
    """"there is a path from city 1 to city n": every input keeps one, drawn where the
    random edges do not (the graph need not be connected); ``4 2 / 1 2 / 3 4`` is no
    input."""
    plan = plan_for(task(PATH_EXAMPLES, PATH_ROADS))
    assert plan.contract is not None, plan.reason
    assert plan.contract["facts"]["blocks"]["r1"]["joins"] == "x1"
    assert plan.violation("4 2\n1 2\n3 4\n") == "r1: no path from 1 to x1"
    assert plan.violation("4 2\n2 1\n4 2\n") is None
    made = program_inputs(plan, PATH_EXAMPLES, random.Random(5), 200)
    joins = [_joins(item.text) for item in made]
    assert joins and all(reach for reach, _ in joins)
    assert any(not whole for _, whole in joins)
    unsaid = plan_for(task(PATH_EXAMPLES, PATH_ROADS.replace("from city 1 to city n", "home")))
    assert unsaid.contract is None


RANGE = """Input

The only line contains two integers l and r (1 ≤ l ≤ r ≤ 100).

Output

Print the answer.
"""


def test_one_example_shows_no_relation_the_statement_does() -> None:
    """A lone example "4 2" says nothing of how its two numbers compare; "l ≤ r" does."""
    alone = plan_for(task(["4 2\n"]))
    assert alone.facts.relations == ()
    stated = plan_for(task(["3 9\n"], RANGE))
    assert [str(r) for r in stated.facts.relations] == [
        "Relation(left='x1', op='<=', right='x2')"]
    assert stated.violation("5 4\n") == "x1 <= x2 broken"
    made = program_inputs(stated, ["3 9\n"], random.Random(2), 30)
    assert made and all(int(a) <= int(b) for a, b in (i.text.split() for i in made))


COORDINATES = """Input

The first line contains one integer n (1 ≤ n ≤ 100) — the number of points.

Then n lines follow, each containing two integers xi and yi (|xi|, |yi| ≤ 1000).

Output

Print the answer.
"""


def test_a_point_is_not_kept_below_the_number_of_points() -> None:
    """Each example's coordinates happen to be below its ``n``: ``|x| ≤ 1000`` lets a
    point lie anywhere within, whatever ``n``."""
    examples = ["3\n0 1\n2 0\n1 1\n", "4\n3 3\n0 0\n1 2\n2 1\n"]
    plan = plan_for(task(examples, COORDINATES))
    assert plan.facts.relations == ()
    assert plan.facts.ranges["x2"].low == -1000 and plan.facts.ranges["x3"].high == 1000
    assert plan.violation("1\n-1000 1000\n") is None
    made = program_inputs(plan, examples, random.Random(5), 40)
    assert any(int(item.text.split()[1]) >= int(item.text.split()[0]) for item in made)
    # where the statement bounds them by n (1 ≤ x_i ≤ n), the order stays
    bounded = plan_for(task(examples, COORDINATES.replace("(|xi|, |yi| ≤ 1000)",
                                                      "(0 ≤ xi, yi ≤ n)")))
    assert plan.violation("1\n2 0\n") is None
    assert bounded.violation("1\n2 0\n") is not None


def test_a_vertex_is_not_kept_below_the_number_of_edges() -> None:
    """``1 ≤ u_i, v_i ≤ n`` read in each of ``m`` rows: ``u_i ≤ m`` in every example was
    chance (a vertex is no edge's number); ``u_i ≤ n`` stays, and so does a pointer the
    statement bounds by its own block's count (``1 ≤ p_i ≤ m`` over ``m`` rows)."""
    edges = statement(
        "The first line contains two integers n and m (2 ≤ n ≤ 100, 1 ≤ m ≤ 100).",
        "Each of the next m lines contains two integers u_i and v_i (1 ≤ u_i, v_i ≤ n, "
        "u_i ≠ v_i).")
    examples = ["5 4\n1 2\n3 4\n2 1\n4 3\n", "6 3\n1 2\n2 1\n1 3\n"]
    plan = plan_for(task(examples, edges))
    assert {(r.left, r.right) for r in plan.facts.relations} >= {("x3", "x1"), ("x4", "x1")}
    assert not any("x2" in (r.left, r.right) for r in plan.facts.relations
                   if {r.left, r.right} & {"x3", "x4"})
    assert plan.violation("5 2\n4 5\n5 4\n") is None
    assert plan.violation("5 2\n6 5\n1 2\n") is not None  # 6 is no vertex
    pointers = edges.replace("(1 ≤ u_i, v_i ≤ n, u_i ≠ v_i)", "(1 ≤ u_i, v_i ≤ m)")
    assert plan_for(task(examples, pointers)).violation("5 2\n4 5\n5 4\n") is not None


def test_a_bound_past_two_to_the_53_stays_exact() -> None:
    """``n < 10^18`` is ``n <= 10^18 - 1``: as a float it would round up to ``10^18``."""
    statement = STATEMENT.replace("(1 ≤ n ≤ 100)", "(1 ≤ n < 10^18)").replace(
        "The second line contains n integers a_1, a_2, ..., a_n (1 ≤ a_i ≤ 10^9).\n", "")
    plan = plan_for(task(["5\n", "7\n"], statement))
    assert plan.facts.ranges["x1"].high == 10**18 - 1
    assert plan.violation(f"{10**18 - 1}\n") is None
    assert plan.violation(f"{10**18}\n") is not None
    made = program_inputs(plan, ["5\n", "7\n"], random.Random(0), 40)
    assert all(int(item.text) < 10**18 for item in made)
    assert any(int(item.text) == 10**18 - 1 for item in made)


def test_a_guarantee_no_plan_checks_leaves_the_task_without_a_plan() -> None:
    """"An answer exists" cannot be drawn from a grammar: the task gets no new input."""
    promise = STATEMENT.replace(
        "Output\n", "It is guaranteed that the answer exists.\n\nOutput\n")
    plan = plan_for(task(ARRAY, promise))
    assert plan.contract is None
    assert plan.reason == ("the statement guarantees what no plan checks: It is "
                           "guaranteed that the answer exists.")
    checked = STATEMENT.replace(
        "Output\n", "It is guaranteed that all a_i are distinct and that the sum of n "
                    "over all test cases does not exceed 2 ⋅ 10^5.\n\nOutput\n")
    assert plan_for(task(ARRAY, checked)).contract is not None
    # a small sum is kept as a total over the input, where its name reads a field
    small_sum = checked.replace("2 ⋅ 10^5", "400")
    summed = plan_for(task(ARRAY, small_sum))
    assert summed.contract is not None and summed.facts.totals == (("x1", 400),)
    assert plan_for(task(ARRAY, small_sum.replace("sum of n", "sum of k"))).contract is None
    # a statement whose superscripts were lost ("a_i ≤ 109", "sum ... 105") means 10^5
    lost = checked.replace("10^9", "109").replace("2 ⋅ 10^5", "105")
    assert plan_for(task(ARRAY, lost)).contract is not None
    kept = plan_for(task(ARRAY, checked.replace("2 ⋅ 10^5", "105")))  # 105 where none is
    assert kept.contract is not None and kept.facts.totals == (("x1", 105),)


def test_a_denial_listed_beside_a_covered_clause_is_still_unchecked() -> None:
    """"It's guaranteed, that the segments don't have common points, ... coordinates of
    Victor and Peter aren't the same" (32_e): one clause is covered ("the same"), the
    others deny what no plan checks; a denial the facts keep stands."""
    listed = STATEMENT.replace(
        "Output\n", "It's guaranteed, that the a_i don't divide each other, the a_i "
                    "aren't the same.\n\nOutput\n")
    plan = plan_for(task(ARRAY, listed))
    assert plan.contract is None and "don't divide each other" in plan.reason
    kept = listed.replace("the a_i don't divide each other", "the a_i are not equal")
    assert plan_for(task(ARRAY, kept)).contract is not None
    thousands = STATEMENT.replace(
        "Output\n", "It is guaranteed that the a_i are distinct, 1,000 at most.\n\nOutput\n")
    assert plan_for(task(ARRAY, thousands)).contract is not None


def test_a_sentence_going_on_with_a_guarantee_guarantees_too() -> None:
    """"It is guaranteed that no two roads are the same. In addition, neither point lies
    on a road" (498_a): the second sentence is a promise no plan checks."""
    distinct = STATEMENT.replace(
        "Output\n", "It is guaranteed that all a_i are distinct.\n\nOutput\n")
    assert plan_for(task(ARRAY, distinct)).contract is not None
    continued = distinct.replace(
        "distinct.\n", "distinct. In addition, no a_i divides the sum of the others.\n")
    plan = plan_for(task(ARRAY, continued))
    assert plan.contract is None
    assert plan.reason.endswith("In addition, no a_i divides the sum of the others.")
    unrelated = distinct.replace("distinct.\n", "distinct. The numbers are given in one line.\n")
    assert plan_for(task(ARRAY, unrelated)).contract is not None


def statement(*paragraphs: str) -> str:
    """An input section of one paragraph per line, as statements come."""
    return "Input\n\n" + "\n\n".join(paragraphs) + "\n\nOutput\n\nPrint the answer.\n"


BUG = statement(
    "The first line contains integers n and p (3 ≤ n ≤ 1000; 0 ≤ p ≤ n).",
    "Each of the next n lines contains two integers xi, yi (1 ≤ xi, yi ≤ n). "
    "It is guaranteed that xi ≠ i, yi ≠ i, xi ≠ yi.")
BUG_EXAMPLES = ["4 2\n2 3\n1 4\n1 4\n2 1\n", "6 3\n2 3\n3 1\n4 5\n6 1\n6 4\n1 2\n"]


def test_a_field_that_never_names_its_own_row_never_does() -> None:
    """Coder i names two others: x_i == i is an input the task never has."""
    plan = plan_for(task(BUG_EXAMPLES, BUG))
    assert plan.facts.blocks["r1"].unlike_row == ("x3", "x4")
    assert plan.violation("3 0\n2 3\n1 3\n1 2\n") is None
    assert plan.violation("3 0\n1 3\n1 3\n1 2\n") == "x3 == 1 on row 1"
    made = program_inputs(plan, BUG_EXAMPLES, random.Random(3), 60)
    assert len(made) >= 40
    for item in made:
        rows = [tuple(map(int, line.split())) for line in item.text.splitlines()[1:]]
        assert all(number not in row for number, row in enumerate(rows, 1))


def test_a_field_that_names_its_own_row_once_learns_nothing() -> None:
    plan = plan_for(task(["4 2\n1 3\n1 4\n1 4\n2 1\n", *BUG_EXAMPLES[1:]], BUG))
    block = plan.facts.blocks.get("r1")
    assert block is None or "x3" not in block.unlike_row


def test_a_number_bounded_by_another_reaches_as_far_as_it() -> None:
    """"0 ≤ p ≤ n" with n up to 1000: p goes past the examples' 2, never past its n."""
    plan = plan_for(task(BUG_EXAMPLES, BUG))
    assert plan.facts.ranges["x2"].low == 0 and plan.facts.ranges["x2"].high == 1000
    assert plan.violation("3 3\n2 3\n1 3\n1 2\n") is None
    assert plan.violation("3 4\n2 3\n1 3\n1 2\n") == "x2 <= x1 broken"
    made = program_inputs(plan, BUG_EXAMPLES, random.Random(4), 60)
    assert max(int(item.text.split()[1]) for item in made) > 3


TAXI = statement(
    "The first line contains two integers n and m (1 ≤ n ≤ 1000, 0 ≤ m ≤ 1000). "
    "The next line contains two integers x and y (1 ≤ x, y ≤ n). "
    "Next m lines describe the roads. Each road is three integers ui, vi, wi "
    "(1 ≤ ui, vi ≤ n, 1 ≤ wi ≤ 10^9). "
    "The next n lines contain n pairs of integers ti and ci (1 ≤ ti, ci ≤ 10^9).")
DISTINCT = statement(
    "The first line contains two integers n and k (1 ≤ n ≤ 10^5, 0 ≤ k ≤ 10). "
    "The next n lines contain one integer ai each (1 ≤ ai ≤ n). All ai are different.")


def test_a_reading_the_statement_contradicts_is_searched_past() -> None:
    """A lone example where n == 5 and the simplest readings take "5 2" for anything but
    n and k: the search goes on to the reading the statement gives."""
    plan = plan_for(task(["5 2\n1\n2\n3\n5\n4\n"], DISTINCT))
    assert plan.contract is not None
    assert plan.contract["grammar"] == [
        {"line": [["x1", "int"], ["x2", "int"]]},
        {"repeat": "r1", "count": "x1", "body": [{"line": [["x3", "int"]]}]}]


def test_no_reading_the_statement_agrees_with_no_plan() -> None:
    """Three roads where m == 2 (y == 3 counts them): no reading found is the
    statement's, and no tie makes one so (the lone example where n == m is read, below)."""
    example = "4 2\n1 3\n1 2 3\n1 4 1\n2 4 1\n2 7\n7 2\n1 2\n7 7\n"
    plan = plan_for(task([example], TAXI))
    assert plan.inferred is None and plan.contract is None
    assert "as the statement's input section says" in plan.reason


SPLIT = statement(
    "The first line contains two integers n and k (1 ≤ n ≤ 100000, 1 ≤ k ≤ n).",
    "The second line contains a string s of lowercase Latin letters (1 ≤ |s| ≤ 100000).")
SPLIT_EXAMPLES = ["6 4\nabcab\n", "5 2\nzzxy\n", "7 3\nqwe\n"]


def test_inputs_have_structure_random_draws_rarely_have() -> None:
    """Numbers from those read before them (k dividing n), words that repeat a block or
    read the same backwards, sizes in the thousands as well as tiny ones."""
    plan = plan_for(task(SPLIT_EXAMPLES, SPLIT))
    made = program_inputs(plan, SPLIT_EXAMPLES, random.Random(5), 200)
    assert all(plan.violation(item.text) is None for item in made)
    pairs = [(int(n), int(k), s) for n, k, s in (item.text.split() for item in made)]
    assert any(1 < k < n and n % k == 0 for n, k, _s in pairs)
    words = [s for _n, _k, s in pairs if len(s) >= 5]
    assert any(s == s[::-1] and len(set(s)) > 1 for s in words)
    assert any(len(set(s)) > 1 and any(s[p:] == s[:-p] for p in (2, 3, 4)) for s in words)
    assert any(item.kind == "medium" for item in made)
    assert max(n for n, _k, _s in pairs) > 100 and min(n for n, _k, _s in pairs) <= 2


SWAPS = statement(
    "The first line contains a string s (2 ≤ |s| ≤ 10^5) of lowercase English letters.",
    "The second line contains a single integer q (1 ≤ q ≤ 10^5).",
    "The i-th of the next q lines contains two integers x_i and y_i (1 ≤ x_i, y_i ≤ |s|).")
SWAPS_EXAMPLES = ["abcd\n1\n1 3\n", "abba\n2\n1 4\n2 1\n", "zzzzzz\n2\n6 2\n3 1\n"]


def test_a_position_in_a_word_read_before_stays_within_it() -> None:
    """x_i ≤ |s|: a word's length is a number its scope's values relate to."""
    plan = plan_for(task(SWAPS_EXAMPLES, SWAPS))
    assert "x3 <= |x1|" in plan.contract["facts"]["relations"]  # type: ignore[index]
    assert plan.violation("ab\n1\n3 1\n") == "x3 <= |x1| broken"
    made = program_inputs(plan, SWAPS_EXAMPLES, random.Random(6), 80)
    assert len(made) >= 40
    for item in made:
        word, _q, *rows = item.text.splitlines()
        assert all(int(v) <= len(word) for row in rows for v in row.split())


EDGES = statement(
    "The first line contains an integer n (2 ≤ n ≤ 100).",
    "Each of the next n - 1 lines contains two integers u and v (1 ≤ u, v ≤ n).")
SAME_SIZE = ["3\n1 2\n2 3\n", "3\n1 3\n3 2\n"]


def test_a_size_every_example_shares_is_free_once_the_statement_confirms_the_reading() -> None:
    """Both examples have n == 3: alone, they leave "two fixed lines" open, and n stays 3;
    the statement's "n - 1 lines" settles the reading, and n ranges over its bounds."""
    alone = plan_for(task(SAME_SIZE))
    assert alone.facts.ties
    assert all(item.text.startswith("3\n")
               for item in program_inputs(alone, SAME_SIZE, random.Random(8), 30))
    stated = plan_for(task(SAME_SIZE, EDGES))
    assert stated.facts.ties == ()
    made = program_inputs(stated, SAME_SIZE, random.Random(8), 60)
    assert len({item.text.split()[0] for item in made}) > 3
    assert all(stated.violation(item.text) is None for item in made)


WEIGHTED = statement(
    "The first line contains an integer n (2 ≤ n ≤ 1000).",
    "Each of the next n - 1 lines contains three integers u, v, c (1 ≤ u, v ≤ n, "
    "1 ≤ c ≤ 10^9, u ≠ v). It is guaranteed that the graph is a tree.")
WEIGHTED_EXAMPLES = ["3\n1 2 5\n1 3 2\n", "5\n1 2 10\n2 3 3\n2 4 1\n1 5 1\n"]


def test_a_weighted_tree_stays_a_tree() -> None:
    """Edges with a weight after their ends: the ends still form a tree (a random block
    of rows made cycles and lone vertices, and false kills)."""
    plan = plan_for(task(WEIGHTED_EXAMPLES, WEIGHTED))
    assert plan.facts.blocks["r1"].tree == "x1"
    assert plan.violation("3\n1 2 5\n2 1 4\n") is not None  # a repeated edge, 3 alone
    made = program_inputs(plan, WEIGHTED_EXAMPLES, random.Random(9), 60)
    assert len(made) >= 40
    for item in made:
        n, *rows = item.text.splitlines()
        edges = [tuple(map(int, row.split())) for row in rows]
        assert len(edges) == int(n) - 1 and all(1 <= c <= 10**9 for _u, _v, c in edges)
        seen = {1}
        for _ in edges:  # every vertex reached from 1 along n - 1 edges: a tree
            seen |= {b for a, b, _c in edges if a in seen} | {a for a, b, _c in edges if b in seen}
        assert seen == set(range(1, int(n) + 1))


def test_a_tree_the_grammar_cannot_see_leaves_no_plan() -> None:
    """A statement whose edges form a tree, read from examples no tree fact fits (a
    parent 0 for the root): no plan, rather than random rows."""
    # however the statement words it (1281_e: 2k houses, 2k - 1 roads "define a tree
    # structure"; its plan drew repeated roads, and a right program failed on them)
    for words in ("the graph is a tree", "the given roads define a tree structure",
                  "the edges specify a tree", "the roads make a valid tree"):
        worded = WEIGHTED.replace("the graph is a tree", words)
        plan = plan_for(task(["3\n0 1\n1 2\n1 3\n", "2\n0 1\n1 2\n"], worded))
        assert plan.inferred is None and "tree" in plan.reason, words


GAZE = statement(
    "The first line contains an integer n (1 ≤ n ≤ 100).",
    "Each of the next n lines contains four integers x, y, u, v "
    "(-10^9 ≤ x, y, u, v ≤ 10^9; (x, y) ≠ (u, v)).")
GAZE_EXAMPLES = ["2\n0 0 1 1\n1 1 0 0\n", "1\n3 5 3 4\n"]


def test_two_points_of_a_line_never_the_same_stay_apart() -> None:
    """A person at (x, y) looks at another point (u, v): x == u and y == v together never
    (each alone may be)."""
    plan = plan_for(task(GAZE_EXAMPLES, GAZE))
    assert plan.violation("1\n3 5 3 5\n") == "(x2, x3) == (x4, x5)"
    assert plan.violation("1\n3 5 3 6\n") is None
    made = program_inputs(plan, GAZE_EXAMPLES, random.Random(10), 60)
    assert made
    for item in made:
        for row in item.text.splitlines()[1:]:
            x, y, u, v = map(int, row.split())
            assert (x, y) != (u, v)


POINTS = statement(
    "The first line contains an integer n (1 ≤ n ≤ 1000) — the number of points.",
    "Each of the next n lines contains two integers x_i and y_i (-10^9 ≤ x_i, y_i ≤ 10^9).")
POINTS_EXAMPLES = ["3\n0 0\n5 -7\n100 3\n", "2\n-1000000000 999\n4 4\n"]


def _points(text: str) -> list[tuple[int, int]]:
    numbers = [int(token) for token in text.split()]
    return list(zip(numbers[1::2], numbers[2::2], strict=True))


def test_some_inputs_are_narrow_where_points_line_up() -> None:
    """Numbers all within a few units of 0 in a quarter of the random inputs: points on
    one vertical line, three on a line, coordinates of both signs near the origin; the
    range's ends and far values still come."""
    plan = plan_for(task(POINTS_EXAMPLES, POINTS))
    made = program_inputs(plan, POINTS_EXAMPLES, random.Random(5), 300)
    assert all(plan.violation(item.text) is None for item in made)
    sets = [_points(item.text) for item in made]
    narrow = [points for points in sets
              if len(points) >= 3 and all(abs(x) <= 10 and abs(y) <= 10 for x, y in points)]
    assert len(narrow) >= 10
    # (the points of the examples are distinct: the plan keeps them so)
    assert any(len({x for x, _y in points}) < len(points) for points in narrow)
    assert any((b[0] - a[0]) * (c[1] - a[1]) == (b[1] - a[1]) * (c[0] - a[0])
               for points in narrow for a, b, c in itertools.combinations(points, 3)
               if a[0] != b[0] != c[0] != a[0])  # on one slanted line
    values = [v for points in sets for point in points for v in point]
    assert any(-1000 < v < 0 for v in values) and any(0 < v < 1000 for v in values)
    assert max(abs(v) for v in values) >= 10 ** 8


def test_special_numbers_of_a_range_are_drawn() -> None:
    """Powers of two, one less than them, powers of ten: where bit and digit bugs live."""
    plan = plan_for(task(ARRAY, STATEMENT))
    made = program_inputs(plan, ARRAY, random.Random(11), 300)
    values = {int(v) for item in made for v in item.text.split()[1:]}
    # past 1,000 a uniform or log-uniform draw hits none of these by chance
    assert any(v >= 1000 and (v + 1) & v == 0 for v in values)  # 2^k - 1
    assert any(v >= 1000 and v & (v - 1) == 0 for v in values)  # 2^k
    assert any(v >= 1000 and str(v).strip("0") == "1" for v in values)  # 10^k


def test_a_plan_admits_what_it_admitted_again_and_never_caches_a_rejection() -> None:
    plan = plan_for(task(ARRAY, STATEMENT))
    assert plan.violation("2\n9 8\n") is None
    assert "2\n9 8\n" in plan.admitted
    assert plan.violation("2\n9 8\n") is None
    assert plan.violation("3\n9 8\n") is not None
    assert "3\n9 8\n" not in plan.admitted
    assert plan.violation("3\n9 8\n") is not None


ENEMIES = statement(
    "The first line contains two integers n and m (2 ≤ n ≤ 100, 1 ≤ m ≤ 100).",
    "Next m lines describe the rivalries. Each rivalry is described as two numbers "
    "ai and bi (1 ≤ ai, bi ≤ n, ai ≠ bi). It is guaranteed that each knight has no more "
    "than two rivals.")
ENEMIES_EXAMPLES = ["4 3\n1 2\n3 2\n4 3\n", "7 4\n1 3\n2 6\n6 5\n5 2\n", "3 1\n2 3\n"]


def _degrees(text: str) -> tuple[int, list[tuple[int, int]], dict[int, int]]:
    (n, _m), *edges = (tuple(map(int, row.split())) for row in text.splitlines())
    degree: dict[int, int] = {}
    for a, b in edges:
        degree[a] = degree.get(a, 0) + 1
        degree[b] = degree.get(b, 0) + 1
    return n, edges, degree  # type: ignore[return-value]


def test_each_vertex_at_most_k_edges_is_kept_and_drawn_up_to_k() -> None:
    """"Each knight has no more than two rivals": a fact of the block of edges (216_b had
    no plan for it); inputs keep it, and many reach it (unions of cycles and paths)."""
    plan = plan_for(task(ENEMIES_EXAMPLES, ENEMIES))
    assert plan.contract is not None
    assert plan.facts.blocks["r1"].degree == 2
    assert plan.facts.ranges["x3"].high == 100  # any vertex may end an edge
    assert plan.violation("5 3\n1 2\n2 3\n3 1\n") is None
    assert plan.violation("5 3\n1 2\n1 3\n4 1\n") == "r1: 3 edges at 1, at most 2"
    made = program_inputs(plan, ENEMIES_EXAMPLES, random.Random(12), 80)
    assert len(made) >= 40
    full = 0
    for item in made:
        n, edges, degree = _degrees(item.text)
        assert max(degree.values()) <= 2
        assert len({frozenset(edge) for edge in edges}) == len(edges)
        assert all(a != b and 1 <= a <= n and 1 <= b <= n for a, b in edges)
        full += sum(1 for d in degree.values() if d == 2) >= 3
    assert full >= 10
    for words in ("the degree of each vertex does not exceed 2",
                  "each knight has at most two rivals", "every knight has not more than 2 rivals"):
        worded = ENEMIES.replace("each knight has no more than two rivals", words)
        assert plan_for(task(ENEMIES_EXAMPLES, worded)).facts.blocks["r1"].degree == 2, words


def test_a_degree_bound_no_block_keeps_leaves_no_plan() -> None:
    """Examples the bound does not hold on, or no block of edges: the statement's word
    cannot be kept, and the task gets no plan (rather than inputs breaking it)."""
    one = ENEMIES.replace("no more than two", "no more than one")
    plan = plan_for(task(ENEMIES_EXAMPLES, one))  # vertex 2 has two rivals in the first
    assert plan.contract is None and "at each vertex" in plan.reason
    plan = plan_for(task(ARRAY, STATEMENT.replace(
        "Output\n", "It is guaranteed that each vertex has at most 2 neighbours.\n\nOutput\n")))
    assert plan.contract is None and "at each vertex" in plan.reason


def test_a_tree_with_a_degree_bound_is_drawn_within_it() -> None:
    """A tree whose vertices have at most two edges is a path: the spanning tree drawn
    keeps the bound."""
    bounded = WEIGHTED.replace("the graph is a tree", "the graph is a tree and the degree "
                               "of each vertex does not exceed 2")
    examples = ["3\n1 2 5\n2 3 2\n", "4\n1 2 10\n4 3 3\n2 4 1\n"]
    plan = plan_for(task(examples, bounded))
    assert plan.facts.blocks["r1"].tree == "x1" and plan.facts.blocks["r1"].degree == 2
    made = program_inputs(plan, examples, random.Random(13), 40)
    assert len(made) >= 20
    for item in made:
        rows = [tuple(map(int, row.split())) for row in item.text.splitlines()[1:]]
        ends = [end for a, b, _c in rows for end in (a, b)]
        assert all(ends.count(end) <= 2 for end in ends)


EIGHT = statement(
    "The input consists of four lines, the i-th line contains two integers xi and yi "
    "(0 ≤ xi, yi ≤ 100). You do not have any other conditions for these points.")
EIGHT_EXAMPLES = ["0 0\n5 5\n0 5\n5 0\n", "1 2\n3 4\n2 3\n7 1\n"]


def test_a_constant_number_of_lines_is_a_block_of_that_many() -> None:
    """"The input consists of four lines" (334_b: eight): no integer counts them; the
    grammar is one block of four points, each in the stated range, any of them equal."""
    plan = plan_for(task(EIGHT_EXAMPLES, EIGHT))
    assert plan.inferred is not None
    assert plan.inferred.grammar == (
        Repeat("r1", Count(None, 4), (Line((Field("x1", "int"), Field("x2", "int"))),)),)
    assert plan.facts.ranges["x1"].high == 100 and not plan.facts.blocks
    assert plan.violation("1 1\n1 1\n1 1\n100 0\n") is None  # points may coincide
    assert plan.violation("1 1\n1 1\n1 1\n") is not None
    assert plan.violation("1 1\n1 1\n1 1\n101 0\n") is not None
    made = program_inputs(plan, EIGHT_EXAMPLES, random.Random(14), 100)
    assert len(made) >= 60
    points = [[tuple(map(int, row.split())) for row in item.text.splitlines()] for item in made]
    assert all(len(four) == 4 for four in points)
    assert sum(len(set(four)) < 4 for four in points) >= 5
    assert sum(all(v <= 10 for point in four for v in point) for four in points) >= 5


#: Test cases of a tree each: n, then n lines "l r", then n - 1 edges (the first test case
#: has n == 2: its block of edges is read once there).
FOREST = statement(
    "The first line contains an integer t (1 ≤ t ≤ 250) — the number of test cases.",
    "The first line of each test case contains a single integer n (2 ≤ n ≤ 10^5).",
    "The i-th of the following n lines contains two integers l_i and r_i "
    "(1 ≤ l_i ≤ r_i ≤ 10^9).",
    "Each of the next n-1 lines contains two integers u and v (1 ≤ u, v ≤ n, u ≠ v). "
    "It is guaranteed that the given graph is a tree.",
    "It is guaranteed that the sum of n over all test cases doesn't exceed 2 ⋅ 10^5.")
FOREST_EXAMPLE = ("3\n2\n1 6\n3 8\n1 2\n3\n1 3\n4 6\n7 9\n1 2\n2 3\n"
                  "4\n3 14\n2 12\n10 17\n3 17\n3 2\n4 1\n1 3\n")


def test_a_test_case_of_two_blocks_learnt_where_the_second_is_read_once() -> None:
    """The body of a test case is learnt on the first one, where the n - 1 edges of n == 2
    are one line: a block all the same, since a later test case repeats it."""
    inferred = infer([FOREST_EXAMPLE])
    assert inferred is not None
    assert describe(inferred.grammar) == [
        {"line": [["x1", "int"]]},
        {"repeat": "r1", "count": "x1", "body": [
            {"line": [["x2", "int"]]},
            {"repeat": "r2", "count": "x2", "body": [{"line": [["x3", "int"], ["x4", "int"]]}]},
            {"repeat": "r3", "count": "x2-1",
             "body": [{"line": [["x5", "int"], ["x6", "int"]]}]}]}]
    # n == 2 held in the first test case only: no pin keeps it
    assert all(Count("x2") not in tie for tie in inferred.ties)
    # a block read once in every test case is no block: n - 1 edges when n == 2 in all
    for found in infer_all(["2\n2\n1 6\n3 8\n1 2\n2\n1 3\n4 6\n2 1\n"]):
        body = found.grammar[1].body  # type: ignore[union-attr]
        assert not any(isinstance(item, Repeat) and item.count.offset == -1 for item in body)


def test_each_test_case_keeps_its_own_tree() -> None:
    plan = plan_for(task([FOREST_EXAMPLE], FOREST))
    assert plan.contract is not None
    assert plan.facts.blocks["r3"].tree == "x2"
    assert plan.violation("1\n3\n1 1\n1 1\n1 1\n1 2\n2 1\n") is not None  # an edge twice
    made = program_inputs(plan, [FOREST_EXAMPLE], random.Random(3), 40)
    assert len(made) >= 30
    for item in made:
        rows = [list(map(int, line.split())) for line in item.text.splitlines()]
        at, cases = 1, rows[0][0]
        for _ in range(cases):
            n = rows[at][0]
            ranges = rows[at + 1:at + 1 + n]
            edges = rows[at + 1 + n:at + 2 * n]
            at += 2 * n
            assert all(1 <= low <= high <= 10**9 for low, high in ranges)
            seen = {1}
            for _ in edges:
                seen |= {b for a, b in edges if a in seen} | {a for a, b in edges if b in seen}
            assert len(edges) == n - 1 and seen == set(range(1, n + 1))
        assert at == len(rows)


def test_every_pin_holds_on_the_examples_it_was_learnt_from() -> None:
    """Pins learnt where some examples were not looking (``k`` then ``k`` tokens, pinned to
    the line's length; a block empty in one example; the first test case alone) went into
    plans that rejected their own public examples (846_e, 1149_b, 1277_e)."""
    for examples in (["3\n1 5\n1 7\n"],  # k == 1, and n - 1 == 2 tokens on the line
                     ["3\n2 4\n5 6\n", "1\n"],  # no lines in the second example
                     [FOREST_EXAMPLE, "1\n2\n1 6\n1 2\n"]):
        for found in infer_all(examples):
            for text in examples:
                assert check(Facts(ties=found.ties), found.grammar,
                             parse(found.grammar, text)) is None, (examples, found)


MULTIGRAPH = statement(
    "The first line contains a pair of integers n and m (1 ≤ n ≤ 50, 0 ≤ m ≤ 2500) — the "
    "amount of vertices and edges.",
    "The following lines contain pairs of numbers xi and yi (1 ≤ xi, yi ≤ n) — the "
    "vertices connected by edges. The graph may contain multiple edges and loops.")


def test_a_graph_that_may_repeat_edges_keeps_no_shape_of_a_lone_example() -> None:
    """One example, a path: m == n - 1 == 2 and a tree by chance. The statement reads its
    edges as m lines (no pin to 2) that may repeat and loop: inputs are any such graph."""
    plan = plan_for(task(["3 2\n1 2\n2 3\n"], MULTIGRAPH))
    assert plan.contract is not None and plan.contract["names"]["x2"] == "m"
    assert plan.inferred is not None and not plan.alternatives
    assert plan.violation("2 3\n1 1\n1 2\n2 1\n") is None  # a loop, an edge twice
    assert plan.violation("2 1\n1 3\n") is not None  # 3 is no vertex
    made = program_inputs(plan, ["3 2\n1 2\n2 3\n"], random.Random(1), 30)
    assert len(made) == 30
    assert any(int(item.text.split()[1]) != int(item.text.split()[0]) - 1 for item in made)
    # "no multiple edges" besides keeps what the example showed
    simple = MULTIGRAPH.replace("and loops.", "and loops. However, there are no multiple "
                                              "edges of the same color.")
    assert plan_for(task(["3 2\n1 2\n2 3\n"], simple)).violation(
        "2 3\n1 1\n1 2\n2 1\n") is not None


def test_a_graph_the_statement_says_may_have_loops_keeps_no_learnt_shape() -> None:
    """"It is possible that the graph has loops and multiple edges" (20_c kept the
    example's graph connected, its edges distinct): no shape of the example stays."""
    possible = MULTIGRAPH.replace("The graph may contain multiple edges and loops.",
                                  "It is possible that the graph has loops and multiple "
                                  "edges between pair of vertices.")
    plan = plan_for(task(["3 3\n1 2\n2 3\n3 1\n"], possible))
    assert plan.violation("3 2\n1 1\n1 1\n") is None  # a loop twice, 2 and 3 alone


COSTS = statement(
    "The first line contains two integers n and m (2 ≤ n ≤ 100, 1 ≤ m ≤ 1000).",
    "Each of the next m lines contains three integers x_i, y_i and w_i (1 ≤ x_i, y_i ≤ n, "
    "x_i ≠ y_i, 1 ≤ w_i ≤ 1000) — a road between x_i and y_i of cost w_i. It is "
    "guaranteed that there is at most one road between each pair of cities.")
COSTS_EXAMPLES = ["4 3\n1 2 5\n2 3 5\n4 1 7\n", "3 3\n1 2 1\n2 3 1\n3 1 4\n"]


def test_at_most_one_road_between_two_cities_whatever_their_costs() -> None:
    """Roads with costs (1486_e, 1433_g, 229_b): rows distinct as wholes let one pair of
    cities have two roads of different costs, an input the task never has."""
    plan = plan_for(task(COSTS_EXAMPLES, COSTS))
    assert plan.facts.blocks["r1"].key == ("x3", "x4")
    assert plan.violation("4 3\n1 2 5\n2 3 5\n1 2 6\n") == "r1: two rows share x3, x4"
    assert plan.violation("4 3\n1 2 5\n2 3 5\n2 1 6\n") is not None  # reversed
    assert plan.violation("3 3\n1 2 5\n2 3 5\n3 1 5\n") is None  # one cost, three roads
    made = program_inputs(plan, COSTS_EXAMPLES, random.Random(3), 60)
    assert len(made) >= 40
    assert all(plan.violation(item.text) is None for item in made)
    # a multigraph's roads ("there can be several roads between two cities, but no two of
    # the same cost") stay distinct as wholes only
    several = COSTS.replace("It is guaranteed that there is at most one road between each "
                            "pair of cities.", "Note that there can be multiple edges between "
                            "two cities. However, there are no multiple edges of the same "
                            "cost, and no multiple edges in the rows.")
    multi = plan_for(task(COSTS_EXAMPLES, several))
    assert multi.facts.blocks["r1"].key == ()
    assert multi.violation("3 3\n1 2 5\n2 3 5\n1 2 6\n") is None


def test_a_number_bounded_by_constants_may_equal_its_row_number() -> None:
    """20_c: the weights of the one example (``1 ≤ w_i ≤ 10^6``) never equalled their
    row's number; the statement would have said so ("w_i ≠ i")."""
    examples = ["4 3\n1 2 2\n2 3 3\n4 1 1\n", "3 3\n1 2 2\n2 3 1\n3 1 2\n"]
    plan = plan_for(task(examples, COSTS))
    assert plan.facts.blocks["r1"].unlike_row == ()
    assert plan.violation("3 3\n2 1 1\n3 2 2\n1 3 3\n") is None  # w_i == i, v_i == i


LINKS = statement(
    "The first line contains three integers n, m, k (1 ≤ n ≤ 100, 0 ≤ m ≤ 100, 1 ≤ k ≤ 10^9).",
    "Each of next m lines contains two integers a and b (1 ≤ a, b ≤ n, a ≠ b). It is "
    "guaranteed that any two clues are linked by no more than one direct link.")


def test_what_the_statement_says_of_one_edge_holds_of_every_edge() -> None:
    """156_d: one example of one edge learns no relation and no distinct rows; the
    statement's ``a ≠ b`` and "no more than one direct link" still hold (drawn inputs had
    self-loops, and a right rewrite failed on one)."""
    examples = ["4 1 1000000000\n1 4\n", "3 0 100\n"]
    plan = plan_for(task(examples, LINKS))
    assert plan.violation("3 1 5\n2 2\n") == "x4 != x5 broken"
    assert plan.violation("3 2 5\n1 2\n2 1\n") is not None
    assert plan.violation("3 2 5\n2 1\n3 2\n") is None  # either way round
    made = program_inputs(plan, examples, random.Random(2), 60)
    assert all(plan.violation(item.text) is None for item in made)
    assert not any(line.split()[0] == line.split()[1]
                   for item in made for line in item.text.splitlines()[1:])


def test_a_stated_inequality_replaces_an_order_the_examples_showed() -> None:
    """Every example's edge had ``a < b``; the statement says ``a ≠ b`` only: an edge
    either way round is an input (1486_e, 274_b, 1169_b: ``u < v`` kept)."""
    examples = ["4 2 7\n1 4\n2 3\n", "5 3 7\n1 2\n2 5\n3 4\n"]
    plan = plan_for(task(examples, LINKS))
    assert plan.violation("4 2 7\n4 1\n3 1\n") is None
    made = program_inputs(plan, examples, random.Random(4), 60)
    assert any(int(line.split()[0]) > int(line.split()[1])
               for item in made for line in item.text.splitlines()[1:])


GUN = statement(
    "The first line contains three integers n, x0 and y0 (1 ≤ n ≤ 1000, -100 ≤ x0, y0 ≤ "
    "100) — the number of stormtroopers and the coordinates of the gun.",
    "Next n lines contain two integers each xi, yi (-100 ≤ xi, yi ≤ 100). It is guaranteed "
    "that no stormtrooper stands at the same point with the gun.")


def test_no_point_of_a_block_at_the_point_read_before_it() -> None:
    """514_b: "no stormtrooper stands at the same point with the gun" read as covered by
    its "the same"; drawn inputs put one at the gun (four right rewrites failed there)."""
    examples = ["4 0 0\n1 1\n2 2\n2 0\n-1 -1\n", "2 1 2\n1 1\n1 0\n"]
    plan = plan_for(task(examples, GUN))
    assert plan.facts.blocks["r1"].beside == (("x2", "x3"),)
    assert plan.violation("2 1 2\n1 2\n3 4\n") is not None
    assert plan.violation("2 1 2\n2 1\n3 4\n") is None
    made = program_inputs(plan, examples, random.Random(6), 80)
    assert len(made) >= 60
    for item in made:
        n, x0, y0 = map(int, item.text.split()[:3])
        rows = item.text.split("\n")[1:n + 1]
        assert all(tuple(map(int, row.split())) != (x0, y0) for row in rows), item.text
    # no block of points to keep off it: no plan
    lone = GUN.replace("Next n lines contain two integers each xi, yi",
                       "Next n lines contain three integers each xi, yi, zi")
    assert plan_for(task(["1 0 0\n1 1 1\n"], lone)).contract is None


PERSONS = statement(
    "The first line contains an integer n (1 ≤ n ≤ 1000).",
    "Each of the next n lines contains four integers x_i, y_i, u_i, v_i (|x_i|, |y_i|, "
    "|u_i|, |v_i| ≤ 10) — where the i-th person stands and the point they look at. Each "
    "person's location is unique.")


def test_a_unique_location_is_the_first_two_fields_of_a_longer_row() -> None:
    """1468_f: rows of four numbers, a person's place and where they look; two persons at
    one place is no input though the rows differ."""
    examples = ["2\n0 0 1 1\n1 0 0 0\n", "3\n0 0 0 1\n0 1 0 0\n2 2 2 3\n"]
    plan = plan_for(task(examples, PERSONS))
    fact = plan.facts.blocks["r1"]
    assert fact.key == ("x2", "x3") and not fact.unordered
    assert plan.violation("2\n0 0 1 1\n0 0 2 2\n") is not None
    assert plan.violation("2\n1 2 0 0\n2 1 0 0\n") is None  # (1, 2) and (2, 1): two places
    made = program_inputs(plan, examples, random.Random(5), 80)
    assert all(plan.violation(item.text) is None for item in made)
    assert all(len({tuple(line.split()[:2]) for line in item.text.splitlines()[1:]})
               == int(item.text.split()[0]) for item in made)


def test_a_guarantee_that_edges_connect_everything_stands_where_a_tree_is_kept() -> None:
    """"The wires connect the banks so that all can be hacked" over n - 1 wires: a tree,
    which the plan keeps; over edges no tree or connected graph was learnt of, no plan."""
    connect = WEIGHTED.replace(
        "It is guaranteed that the graph is a tree.",
        "It is guaranteed that the wires connect the banks in such a way that all the banks "
        "can be reached.")
    plan = plan_for(task(WEIGHTED_EXAMPLES, connect))
    assert plan.contract is not None and plan.facts.blocks["r1"].tree == "x1"
    assert plan.violation("4\n1 2 5\n2 1 4\n3 4 1\n") is not None
    loose = plan_for(task(["3\n0 1\n1 2\n1 3\n", "2\n0 1\n1 2\n"], connect))
    assert loose.contract is None and "connect the banks" in loose.reason


MANAGERS = statement(
    "The first line contains integer n (1 ≤ n ≤ 2000) — the number of employees.",
    "The next n lines contain the integers pi (1 ≤ pi ≤ n or pi = -1). Every pi denotes "
    "the immediate manager for the i-th employee.",
    "It is guaranteed, that no employee will be the immediate manager of him/herself "
    "(pi ≠ i). Also, there will be no managerial cycles.")
MANAGERS_EXAMPLES = ["5\n-1\n1\n2\n1\n-1\n"]


def _depth(parents: list[int]) -> int:
    """The most rows on a path up to a root (a cycle fails the test)."""
    most = 0
    for start in range(1, len(parents) + 1):
        vertex, depth = start, 0
        while vertex != -1:
            vertex, depth = parents[vertex - 1], depth + 1
            assert depth <= len(parents), "a cycle"
        most = max(most, depth)
    return most


def test_no_cycles_keeps_a_block_of_parent_pointers_a_forest() -> None:
    """"There will be no managerial cycles" (116_c had no plan): the one block of row
    numbers and -1 is parent pointers; inputs keep them a forest, from one chain to no
    edge at all, and ``p == n`` is one (the example's ``p < n`` was chance)."""
    plan = plan_for(task(MANAGERS_EXAMPLES, MANAGERS))
    assert plan.contract is not None
    assert plan.facts.blocks["r1"].parents == ("x2", -1)
    assert plan.violation("3\n3\n3\n-1\n") is None
    assert plan.violation("1\n-1\n") is None
    assert plan.violation("3\n2\n3\n1\n") == "x2: row 1 leads back to itself"
    assert plan.violation("2\n2\n2\n") is not None  # a row its own manager
    assert plan.violation("2\n-1\n0\n") == "x2: 0 is no row"
    made = program_inputs(plan, MANAGERS_EXAMPLES, random.Random(15), 120)
    assert len(made) >= 100
    depths = []
    for item in made:
        n, *parents = map(int, item.text.split())
        assert len(parents) == n and all(p == -1 or 1 <= p <= n for p in parents)
        depths.append((_depth(parents), n))
    assert any(depth == n >= 4 for depth, n in depths)  # one chain
    assert any(depth == 1 and n >= 3 for depth, n in depths)  # no edge at all
    assert any(n == 1 for _depth_, n in depths)


def test_no_cycles_no_block_keeps_leaves_no_plan() -> None:
    """Where no block of the examples reads as parent pointers (edges, an array), "no
    cycles" stays a guarantee no plan checks."""
    plan = plan_for(task(ARRAY, STATEMENT.replace(
        "Output\n", "It is guaranteed that there are no circular dependencies.\n\nOutput\n")))
    assert plan.contract is None and "circular" in plan.reason
    plan = plan_for(task(["4\n2\n3\n1\n-1\n"], MANAGERS))  # rows 1, 2, 3 a cycle
    assert plan.contract is None and "managerial cycles" in plan.reason


JOBS = statement(
    "The first line contains two integers n (1 ≤ n ≤ 1000) and m (0 ≤ m ≤ 1000) — the "
    "number of jobs and of dependencies.",
    "Each of the next m lines contains two integers u and v (u ≠ v): job u depends on "
    "job v. Jobs are numbered from 1 to n. All pairs are distinct. It is guaranteed that "
    "there are no circular dependencies.")
JOBS_EXAMPLES = ["4 3\n1 2\n1 3\n4 1\n", "3 1\n2 3\n"]


def _acyclic(edges: list[tuple[int, int]]) -> bool:
    """Whether the directed edges close no cycle (removing sinks until none is left)."""
    left = list(edges)
    while left:
        sources = {a for a, _b in left} - {b for _a, b in left}
        if not sources:
            return False
        left = [(a, b) for a, b in left if a not in sources]
    return True


def test_no_circular_dependencies_keeps_a_block_of_directed_edges_acyclic() -> None:
    """"No circular dependencies" of one-way edges (909_e had no plan): the one block of
    pairs closes no directed cycle; inputs keep it so, their edges turned by a random
    order of the vertices (not by their numbers), and ends up to ``n``."""
    plan = plan_for(task(JOBS_EXAMPLES, JOBS))
    assert plan.contract is not None
    assert plan.facts.blocks["r1"].acyclic
    assert plan.violation("3 3\n1 2\n2 3\n1 3\n") is None
    assert plan.violation("3 3\n1 2\n2 3\n3 1\n") == "r1: the edges close a cycle"
    assert plan.violation("5 1\n5 4\n") is None  # ends up to n, not the examples' 4
    made = program_inputs(plan, JOBS_EXAMPLES, random.Random(21), 120)
    assert len(made) >= 100
    ways: Counter[bool] = Counter()
    for item in made:
        (n, m), *rows = (tuple(map(int, line.split())) for line in item.text.splitlines())
        edges = [(a, b) for a, b in rows]
        assert len(edges) == m and len(set(edges)) == m and _acyclic(edges)
        assert all(a != b and 1 <= a <= n and 1 <= b <= n for a, b in edges)
        if m >= 2:
            ways.update(a < b for a, b in edges)
    assert ways[True] >= 5 and ways[False] >= 5


def test_no_cycles_of_two_way_edges_is_no_directed_fact() -> None:
    """"The graph has no cycles" of roads both ways is a forest, not acyclic directed
    edges: no plan keeps it by turning edges."""
    roads = JOBS.replace("job u depends on job v", "a road joins u and v").replace(
        "there are no circular dependencies", "the roads form no cycles").replace(
        "dependencies", "roads")
    plan = plan_for(task(JOBS_EXAMPLES, roads))
    assert plan.contract is None and "no cycles" in plan.reason


CAPITAL = (
    "There are n cities; the city numbered 1 is the capital. Some cities are joined by "
    "one-way roads.\n\n" + statement(
        "The first line contains one integer t (1 ≤ t ≤ 100) — the number of test cases. "
        "Each test case is preceded by an empty line.",
        "The first line of each test case contains two integers n (2 ≤ n ≤ 1000) and m "
        "(1 ≤ m ≤ 1000).",
        "This is followed by m lines describing the roads. Each road is characterized by "
        "two integers u and v (1 ≤ u, v ≤ n, u ≠ v) — a road from u to v. There is at most "
        "one road from u to v.",
        "It is guaranteed that there is a path from the capital to all cities."))
CAPITAL_EXAMPLES = ["2\n\n4 4\n1 2\n2 3\n3 1\n1 4\n\n3 2\n1 3\n3 2\n"]


def _reached(n: int, edges: list[tuple[int, int]]) -> bool:
    seen, stack = {1}, [1]
    while stack:
        at = stack.pop()
        for a, b in edges:
            if a == at and b not in seen:
                seen.add(b)
                stack.append(b)
    return seen == set(range(1, n + 1))


def test_a_path_from_the_capital_to_all_cities_keeps_one_way_edges_reaching_all() -> None:
    """"There is a path from the capital to all cities" (the city numbered 1 the capital,
    the roads one-way; 1472_g had no plan): the block of roads reaches every city from 1
    along the roads' directions; the test cases, each after an empty line, are read as
    the statement says (``n``, ``m``, ``u``, ``v`` named, no reading pinned by the one
    example)."""
    plan = plan_for(task(CAPITAL_EXAMPLES, CAPITAL))
    assert plan.contract is not None
    assert plan.contract["names"] == {"x1": "t", "x2": "n", "x3": "m", "x4": "u", "x5": "v"}
    assert plan.facts.blocks["r2"].reached == "x2" and not plan.alternatives
    assert plan.violation("1\n\n3 2\n1 2\n2 3\n") is None
    assert plan.violation("1\n\n3 2\n1 2\n3 2\n") == (
        "r2: not every vertex of 1..x2 reached from 1")
    assert plan.violation("1\n\n3 3\n1 2\n2 3\n1 2\n") is not None  # a road twice
    made = program_inputs(plan, CAPITAL_EXAMPLES, random.Random(22), 120)
    assert len(made) >= 60
    cases = 0
    for item in made:
        lines = item.text.split("\n")
        at = 1
        for _case in range(int(lines[0])):
            assert lines[at] == ""
            n, m = map(int, lines[at + 1].split())
            edges = [(int(a), int(b)) for a, b in (lines[at + 2 + k].split() for k in range(m))]
            assert len(set(edges)) == m and all(a != b for a, b in edges)
            assert _reached(n, edges)
            cases += n > 4
            at += 2 + m
    assert cases >= 20  # more cities than the examples had


def test_a_path_from_the_capital_of_two_way_roads_stays_unchecked() -> None:
    """Of roads that go both ways the guarantee says the graph is connected, which the
    directed fact does not keep: no plan."""
    plan = plan_for(task(CAPITAL_EXAMPLES, CAPITAL.replace("one-way roads", "roads")))
    assert plan.contract is None and "path from the capital" in plan.reason


ROADS = statement(
    "The first line contains two space-separated integers x1, y1 (-10^6 ≤ x1, y1 ≤ 10^6) — "
    "the coordinates of your home.",
    "The second line contains two integers separated by a space x2, y2 (-10^6 ≤ x2, y2 ≤ "
    "10^6) — the coordinates of the university you are studying at.",
    "The third line contains an integer n (1 ≤ n ≤ 300) — the number of roads in the city. "
    "The following n lines contain 3 space-separated integers (-10^6 ≤ ai, bi, ci ≤ 10^6; "
    "|ai| + |bi| > 0) — the coefficients of the line aix + biy + ci = 0, defining the i-th "
    "road. It is guaranteed that no two roads are the same. In addition, neither your home "
    "nor the university lie on the road (i.e. they do not belong to any one of the lines).")
ROADS_EXAMPLES = ["1 1\n-1 -1\n3\n1 0 0\n0 1 0\n1 1 -3\n", "1 1\n-1 -1\n2\n0 1 0\n1 0 0\n"]


def test_rows_that_are_lines_are_lines_off_the_points_read_before() -> None:
    """"The line a_i x + b_i y + c_i = 0 ... neither your home nor the university lie on
    the road" (498_a had no plan): each row a line (``a``, ``b`` not both 0), no two the
    same line (``2 0 0`` is ``1 0 0``), none through either point."""
    plan = plan_for(task(ROADS_EXAMPLES, ROADS))
    assert plan.contract is not None
    fact = plan.facts.blocks["r1"]
    assert fact.lines and fact.off == (("x1", "x2"), ("x3", "x4"))
    assert plan.violation("1 1\n-1 -1\n2\n1 0 0\n0 1 0\n") is None
    assert plan.violation("1 1\n-1 -1\n2\n0 0 0\n0 1 0\n") == "r1: 0 0 0 is no line"
    assert plan.violation("1 1\n-1 -1\n2\n1 0 0\n1 1 -2\n") == (
        "r1: 1 1 -2 passes through (1, 1)")
    assert plan.violation("1 1\n-1 -1\n3\n0 1 0\n1 0 0\n1 0 0\n") is not None
    made = program_inputs(plan, ROADS_EXAMPLES, random.Random(16), 60)
    assert len(made) >= 40
    for item in made:
        (x1, y1), (x2, y2), _n, *rows = (tuple(map(int, r.split())) for r in
                                         item.text.splitlines())
        assert all((a, b) != (0, 0) and a * x1 + b * y1 + c and a * x2 + b * y2 + c
                   for a, b, c in rows)
    # an example's home on a road: the points the statement means are others
    plan = plan_for(task(["1 1\n-1 -1\n2\n1 0 -1\n1 0 0\n", *ROADS_EXAMPLES], ROADS))
    assert plan.contract is None and "lie on the road" in plan.reason


def _collinear(a: tuple[int, ...], b: tuple[int, ...], c: tuple[int, ...]) -> bool:
    return (b[0] - a[0]) * (c[1] - a[1]) == (b[1] - a[1]) * (c[0] - a[0])


def _lined_up(points: list[tuple[int, int]]) -> bool:
    """Three of the points on one line, slanted or not."""
    return any(_collinear(a, b, c) for a, b, c in itertools.combinations(points, 3))


def _sharing(points: list[tuple[int, int]]) -> bool:
    """Three of the points on one ``x`` or on one ``y``."""
    return any(max(Counter(point[axis] for point in points).values(), default=0) >= 3
               for axis in (0, 1))


def _wide(points: list[tuple[int, int]]) -> bool:
    """Not a narrow input: some coordinate farther than 10 from 0."""
    return any(abs(v) > 10 for point in points for v in point)


def test_points_are_drawn_on_lines_and_grids_with_coordinates_anywhere() -> None:
    """Independent coordinates over 10^9 almost never put three points on one line or one
    ``x``; shaped inputs do, far from the origin (not only the narrow ones), and every one
    keeps the plan (distinct points, the ranges)."""
    plan = plan_for(task(POINTS_EXAMPLES, POINTS))
    assert plan.geometric
    made = program_inputs(plan, POINTS_EXAMPLES, random.Random(5), 300)
    assert all(plan.violation(item.text) is None for item in made)
    wide = [points for points in (_points(item.text) for item in made) if _wide(points)]
    assert sum(_lined_up(points) for points in wide) >= 20
    assert sum(_sharing(points) for points in wide) >= 10
    assert sum(len(points) >= 20 and _sharing(points) for points in wide) >= 5  # medium


POLYLINE = statement(
    "The first line contains two integers a and b (-10^9 ≤ a, b ≤ 10^9) — the coordinates "
    "of the first point.",
    "The second line contains two integers c and d (-10^9 ≤ c, d ≤ 10^9) — the coordinates "
    "of the second point.",
    "The third line contains two integers e and f (-10^9 ≤ e, f ≤ 10^9) — the coordinates "
    "of the third point.")
POLYLINE_EXAMPLES = ["1 -1\n1 1\n1 2\n", "-1 -1\n-1 3\n4 3\n", "1 1\n2 3\n3 2\n",
                     "5 0\n-2 7\n0 -4\n", "0 9\n-3 -5\n8 1\n"]


def test_points_of_fixed_lines_are_shaped_too() -> None:
    """Three points, one a line (a polyline): shaped, they share an ``x`` or a ``y`` or lie
    on one slanted line, anywhere in the range."""
    plan = plan_for(task(POLYLINE_EXAMPLES, POLYLINE))
    assert plan.geometric
    made = program_inputs(plan, POLYLINE_EXAMPLES, random.Random(3), 300)
    assert all(plan.violation(item.text) is None for item in made)
    triples = [list(zip(numbers[::2], numbers[1::2], strict=True))
               for numbers in ([int(v) for v in item.text.split()] for item in made)]
    wide = [points for points in triples if _wide(points)]
    assert sum(_sharing(points) for points in wide) >= 20
    assert sum(_lined_up(points) and not _sharing(points) for points in wide) >= 6


CIRCLES = statement(
    "The first line of input contains one integer n (1 ≤ n ≤ 10), denoting the number of "
    "circles.",
    "The following n lines each contains three space-separated integers x, y and r "
    "(-10^4 ≤ x, y ≤ 10^4, 1 ≤ r ≤ 10^4), describing a circle whose center is (x, y) and "
    "the radius is r.")
CIRCLES_EXAMPLES = ["3\n0 0 1\n2 0 1\n4 0 1\n", "3\n0 0 2\n3 0 2\n6 0 2\n",
                    "3\n0 0 2\n2 0 2\n1 1 2\n", "4\n-5 7 30\n100 -200 5\n3 9 2\n0 0 1\n"]


def _touch(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """Whether circles ``(x, y, r)`` touch, outside or inside (concentric ones do not)."""
    return a[:2] != b[:2] and (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 in (
        (a[2] + b[2]) ** 2, (a[2] - b[2]) ** 2)


def test_circles_are_drawn_touching() -> None:
    """Centres ``r1 + r2`` (or ``|r1 - r2|``) apart, with radii in the hundreds: what
    independent draws over 10^4 never give."""
    plan = plan_for(task(CIRCLES_EXAMPLES, CIRCLES))
    assert plan.geometric
    made = program_inputs(plan, CIRCLES_EXAMPLES, random.Random(4), 300)
    assert all(plan.violation(item.text) is None for item in made)

    def touching(text: str) -> bool:
        numbers = [int(v) for v in text.split()[1:]]
        circles = list(zip(numbers[::3], numbers[1::3], numbers[2::3], strict=True))
        return any(_touch(a, b) and max(a[2], b[2]) > 10
                   for a, b in itertools.combinations(circles, 2))

    assert sum(touching(item.text) for item in made) >= 5


def test_inputs_without_points_are_drawn_as_before() -> None:
    """A statement that speaks of no points, or a grammar of no rows that may be points:
    no plan is geometric, and its inputs draw nothing more from the random stream."""
    assert not plan_for(task(POINTS_EXAMPLES, POINTS.replace("points", "pairs"))).geometric
    assert not plan_for(task(ARRAY, STATEMENT.replace("length of the array",
                                                      "number of points"))).geometric
    assert not plan_for(task(TREE, POINTS)).geometric  # a tree's rows are vertices


def test_shaped_points_stay_in_their_box_and_apart() -> None:
    rng = random.Random(0)
    for count in (3, 5, 40, 300):
        for box in ((-10**9, 10**9, -10**9, 10**9), (0, 3, -2, 2), (5, 5, -100, 100)):
            points = shaped_points(count, box, rng, rng.randint)
            assert len(set(points)) == len(points) <= count
            assert all(box[0] <= x <= box[1] and box[2] <= y <= box[3] for x, y in points)
            room = (box[1] - box[0] + 1) * (box[3] - box[2] + 1)
            assert len(points) >= min(count, room) // 2


def test_points_on_lines_line_up() -> None:
    rng = random.Random(1)
    box = (-10**6, 10**6, -10**6, 10**6)
    drawn = [on_lines(12, box, rng, rng.randint) for _ in range(50)]
    assert all(len(set(points)) == len(points) <= 12 for points in drawn)
    assert all(-10**6 <= v <= 10**6 for points in drawn for point in points for v in point)
    # a line through two far random points may hold only them: most still line up
    assert sum(_lined_up(points) for points in drawn) >= 40


def test_a_grid_shares_its_columns_and_rows() -> None:
    rng = random.Random(2)
    for _ in range(50):
        points = on_grid(9, (-10**6, 10**6, -10**6, 10**6), rng, rng.randint)
        assert len(set(points)) == len(points) == 9 and _sharing(points)


def test_touching_circles_touch() -> None:
    rng = random.Random(3)
    circles = touching_circles(30, (-10**4, 10**4, -10**4, 10**4), (1, 100), rng, rng.randint)
    assert len(set(circles)) == len(circles) == 30
    assert all(1 <= r <= 100 for _x, _y, r in circles)
    assert sum(_touch(a, b) for a, b in itertools.combinations(circles, 2)) >= 20


CHANCE = statement(
    "The first line contains two integers n and k (1 ≤ n ≤ 100, 1 ≤ k ≤ 10^9).",
    "The second line contains n integers a_1, a_2, ..., a_n (1 ≤ a_i ≤ 10^7).")
CHANCE_EXAMPLES = ["3 7\n1 2 3\n", "2 5\n1 2\n"]


def test_what_the_statement_would_have_said_is_not_learnt_by_chance() -> None:
    """Two numbers the statement bounds by numbers alone and relates nowhere (``k < n``
    in neither example, ``n != k`` in both) and a list whose items it bounds by numbers
    (``1 2 3``: a sorted permutation by chance) keep no relation and no shape."""
    plan = plan_for(task(CHANCE_EXAMPLES, CHANCE))
    assert plan.facts.relations == ()
    assert dict(plan.facts.runs) == {"s1": RunFact()}
    assert plan.violation("2 2\n7 7\n") is None
    assert plan.violation("3 1\n9 4 100\n") is None
    made = program_inputs(plan, CHANCE_EXAMPLES, random.Random(1), 60)
    runs = [[int(v) for v in item.text.split("\n")[1].split()] for item in made]
    assert any(run != sorted(run) for run in runs) and any(len(set(run)) < len(run)
                                                         for run in runs)
    # the statement names a shape: the examples' shape stands
    said = CHANCE.replace("(1 ≤ a_i ≤ 10^7).", "(1 ≤ a_i ≤ 10^7), all distinct.")
    assert plan_for(task(CHANCE_EXAMPLES, said)).violation("2 2\n7 7\n") is not None
    # a number bounded by another keeps what the examples showed of it
    bounded = CHANCE.replace("1 ≤ k ≤ 10^9", "1 ≤ k ≤ 10^9, k ≤ n").replace(
        "(1 ≤ a_i ≤ 10^7)", "(1 ≤ a_i ≤ n)")
    kept = plan_for(task(["3 2\n1 2 3\n", "2 1\n1 2\n"], bounded))
    assert kept.violation("2 3\n1 2\n") is not None
    assert kept.violation("3 1\n3 3 1\n") is not None


def test_a_divisibility_the_legend_promises_leaves_no_plan() -> None:
    """"It's known that ... k divides n+1" stands before the Input section, and no fact
    checks a divisibility: drawn inputs would break it as often as not."""
    legend = "Title\n\nIt's known that sequence is k-periodic and k divides n+1.\n\n"
    plan = plan_for(task(CHANCE_EXAMPLES, legend + CHANCE))
    assert plan.contract is None and "k divides n+1" in plan.reason
    told = "Title\n\nIt's known that Bob divides the cake fairly among n friends.\n\n"
    assert plan_for(task(CHANCE_EXAMPLES, told + CHANCE)).contract is None
    assert plan_for(task(CHANCE_EXAMPLES, "Title\n\nBob divides the cake.\n\n" + CHANCE)
                    ).contract is not None


def test_rows_the_statement_orders_come_in_that_order() -> None:
    """"The lines are given in the order of strictly increasing xi" (489_e): every input's
    rows so, narrow ones too (ties moved apart); rows out of order or tied are no input.
    An order no fact keeps (decreasing) leaves no plan: rows drawn one by one break it
    half the time."""
    ordered = statement(
        "The first line contains integer n (1 ≤ n ≤ 1000).",
        "Then n lines follow, each contains a pair of integers xi, bi (1 ≤ xi, bi ≤ 10^6). "
        "No two rest points have the same xi, the lines are given in the order of strictly "
        "increasing xi.")
    examples = ["2\n1 5\n3 2\n", "3\n2 2\n4 1\n9 9\n"]
    plan = plan_for(task(examples, ordered))
    assert plan.contract is not None, plan.reason
    assert plan.contract["facts"]["blocks"]["r1"]["rising"] == ("x2", True)
    assert plan.violation("2\n4 7\n1 7\n") == "r1: rows not in strictly increasing x2"
    assert plan.violation("2\n4 7\n4 8\n") is not None
    made = program_inputs(plan, examples, random.Random(6), 200)
    columns = [[int(row.split()[0]) for row in item.text.splitlines()[1:]] for item in made]
    assert made and all(all(a < b for a, b in itertools.pairwise(xs)) for xs in columns)
    assert sum(len(xs) > 2 for xs in columns) > 20
    falling = plan_for(task(examples, ordered.replace("strictly increasing", "decreasing")))
    assert falling.contract is None and "decreasing xi" in falling.reason
    unordered = ordered.replace(", the lines are given in the order of strictly increasing xi",
                                "")
    assert plan_for(task(examples, unordered)).contract is not None


def test_test_cases_may_repeat_unless_the_statement_says_otherwise() -> None:
    """Rows of numbers bounded by numbers alone were distinct in every example by chance
    (``t`` test cases of one ``n`` each: the same ``n`` twice is an input); "no two
    coincide" keeps them distinct."""
    cases = statement(
        "The first line contains t (1 ≤ t ≤ 100) — the number of test cases.",
        "Each of the next t lines contains two integers n and k (1 ≤ n, k ≤ 10^9).")
    examples = ["2\n5 1\n7 2\n", "3\n1 1\n2 6\n3 3\n"]
    plan = plan_for(task(examples, cases))
    assert plan.violation("2\n4 4\n4 4\n") is None
    said = cases.replace("10^9).", "10^9). It is guaranteed that no two lines coincide.")
    kept = plan_for(task(examples, said))
    assert kept.violation("2\n4 4\n4 4\n") is not None


def test_a_lone_example_whose_counts_coincide_is_read_as_the_statement_counts() -> None:
    """95_c: one example with ``n == m == 4`` and ``y == 3`` before roads of three
    numbers. The first readings take the roads as runs of ``y`` numbers or count them by
    ``n``; the plan reads m roads of three fields, then n pairs, as the statement says."""
    taxis = statement(
        "The first line contains two integers n and m (1 ≤ n ≤ 1000, 0 ≤ m ≤ 1000).",
        "The next line contains two integers x and y (1 ≤ x, y ≤ n).",
        "Next m lines contain the roads' description. Each road is described by a group of "
        "three integers ui, vi, wi (1 ≤ ui, vi ≤ n, 1 ≤ wi ≤ 10^9).",
        "The next n lines contain n pairs of integers ti and ci (1 ≤ ti, ci ≤ 10^9).")
    example = "4 4\n1 3\n1 2 3\n1 4 1\n2 4 1\n2 3 5\n2 7\n7 2\n1 2\n7 7\n"
    plan = plan_for(task([example], taxis))
    assert plan.contract is not None, plan.reason
    assert [item.get("count") for item in plan.contract["grammar"]] == [None, None, "x2", "x1"]
    assert plan.contract["names"]["x2"] == "m" and plan.contract["facts"]["ties"] == []
    made = program_inputs(plan, [example], random.Random(7), 100)
    shapes = set()
    for item in made:
        rows = item.text.splitlines()
        n, m = map(int, rows[0].split())
        assert len(rows) == 2 + m + n and all(len(r.split()) == 3 for r in rows[2:2 + m])
        shapes.add(n == m)
    assert shapes == {True, False}


def test_a_stated_sum_of_a_lists_items_bounds_every_input() -> None:
    """1349_d: "1 ≤ a_1+a_2+...+a_n ≤ 300000": ``2 / 0 0`` is no input (the reference
    raised on it), one item may hold the whole sum, and no input sums above it."""
    biscuits = statement(
        "The first line contains one integer n (2 ≤ n ≤ 100000).",
        "The second line contains n non-negative integers a_1,a_2,...,a_n (1 ≤ "
        "a_1+a_2+...+a_n ≤ 300000).")
    examples = ["2\n1 2\n", "5\n8 4 2 0 1\n", "5\n0 0 0 0 35\n"]
    plan = plan_for(task(examples, biscuits))
    assert plan.violation("2\n0 0\n") == "s1: items sum below 1"
    assert plan.violation("2\n300000 1\n") == "s1: items sum above 300000"
    assert plan.violation("2\n0 300000\n") is None
    made = program_inputs(plan, examples, random.Random(9), 200)
    sums = [sum(map(int, item.text.split()[1:])) for item in made]
    assert sums and all(1 <= total <= 300_000 for total in sums)
    assert any(max(map(int, item.text.split()[1:])) > 1000 for item in made)
