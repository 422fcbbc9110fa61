"""What a statement's Input section says: bounds, lines, alphabets, guarantees."""

from __future__ import annotations

from fractions import Fraction

import pytest

from evalplus_ng.generate.programs.statement import (
    CONNECTED,
    DISTINCT,
    ITEM_SUM,
    MAX_DEGREE,
    NO_MULTI_EDGES,
    NO_SELF_LOOPS,
    NOT_EQUAL,
    PERMUTATION,
    SOME,
    SUM,
    TREE,
    Bound,
    Guarantee,
    LineSpec,
    Ref,
    base_name,
    degree_bound,
    input_section,
    stated_input,
)


def prompt(section: str) -> str:
    return f"Some story.\n\nInput\n\n{section}\n\nOutput\n\nPrint 1 ≤ x ≤ 5.\n"


def test_the_section_is_between_the_input_and_output_lines() -> None:
    assert input_section(prompt("The only line contains n.")) == "The only line contains n."
    assert input_section("no headings here") == ""
    assert stated_input("no headings").bounds == ()


def test_names_drop_index_subscripts_and_keep_naming_ones() -> None:
    for token in ("a_i", "a_{i}", "ai", "a[i]", "a_{i, j}"):
        assert base_name(token) == "a", token
    assert base_name("tij") == "t"
    assert base_name("s_x") == "s_x"
    assert base_name("d_1") == "d1"
    assert base_name("n") == "n"


def test_a_chain_of_unicode_bounds_on_the_first_line() -> None:
    stated = stated_input(prompt(
        "The first line contains two integers n and m (1 ≤ n ≤ 2·10^5, 0 ≤ m ≤ 10^{18})."))
    assert stated.lines[0].names == ("n", "m")
    assert stated.lines[0].ordinal == 1
    assert stated.bound("n") == Bound("n", 1, 200_000, line=0)
    assert stated.bound("m") == Bound("m", 0, 10**18, line=0)


def test_shared_bounds_and_strict_operators() -> None:
    stated = stated_input(prompt(
        "The only line contains integers a and b (1 ≤ a, b ≤ 10^9) and x (0 ≤ x < 2^{30})."))
    a, b = stated.bound("a"), stated.bound("b")
    assert a is not None and b is not None and (a.low, a.high) == (b.low, b.high) == (1, 10**9)
    assert stated.bound("x").high == 2**30 - 1  # type: ignore[union-attr]


def test_a_chain_of_variables_gives_refs_and_the_numbers_through_it() -> None:
    stated = stated_input(prompt(
        "The first line contains three integers k, n and q (1 ≤ k < n ≤ 10^5, 1 ≤ q ≤ 5 ⋅ 10^5)."
        "\nEach of the next q lines contains two integers l and r (1 ≤ l ≤ r ≤ n)."))
    k = stated.bound("k")
    assert k is not None and (k.low, k.high) == (1, 10**5 - 1)
    assert k.high_ref == Ref("n", Fraction(1), Fraction(-1))
    n = stated.bound("n")
    assert n is not None and (n.low, n.high, n.low_ref) == (2, 10**5, Ref("k", offset=Fraction(1)))
    left, right = stated.bound("l"), stated.bound("r")
    assert left is not None and (left.low, left.high_ref) == (1, Ref("r"))
    assert right is not None and (right.low, right.high_ref) == (1, Ref("n"))
    assert right.admits(7, {"n": 10}) and not right.admits(11, {"n": 10})
    assert stated.lines[1].repeat == Ref("q")
    assert stated.lines[1].names == ("l", "r")


def test_a_side_no_linear_form_says_is_kept_as_a_formula() -> None:
    """``k ≤ n(n-1)/2``, ``t ≤ n + m``, ``a_i ≤ 2^k - 1``: sides the plan must keep, so the
    bound says them as formulas; a strict one moves inward."""
    stated = stated_input(prompt(
        "The only line contains n, k, m, t (1 ≤ n ≤ 200000; 0 ≤ k ≤ (n(n - 1))/(2), "
        "1 ≤ m ≤ 30, 5 ≤ t < n + m).\nThe next line contains n integers a_1, …, a_n "
        "(0 ≤ a_i ≤ 2^k - 1)."))
    k = stated.bound("k")
    assert k is not None and (k.low, k.high, k.high_ref) == (0, None, None)
    assert k.unread == (("high", "n * (n - 1) / 2"),)
    assert stated.bound("t").unread == (("high", "(n + m) - 1"),)  # type: ignore[union-attr]
    assert stated.bound("a").unread == (("high", "2 ** k - 1"),)  # type: ignore[union-attr]
    assert stated.bound("n").unread == ()  # type: ignore[union-attr]
    assert stated.bound("m").unread == ()  # type: ignore[union-attr]


def test_a_side_nothing_reads_is_marked_unread() -> None:
    """``0 ≤ m ≤ <image>``: the image was the side; ``min(n, m)``: the ref keeps one of
    its two variables, so the formula says the side."""
    lost = stated_input(prompt(
        "The first line contains n and m (1 ≤ n ≤ 100, 0 ≤ m ≤ <image>)."))
    m = lost.bound("m")
    assert m is not None and m.low == 0 and m.unread == (("high", ""),)
    both = stated_input(prompt(
        "The first line contains n, m, k (1 ≤ n, m ≤ 100, 1 ≤ k ≤ min(n, m))."))
    assert both.bound("k").unread == (("high", "min(n, m)"),)  # type: ignore[union-attr]
    one = stated_input(prompt("The first line contains n, k (1 ≤ k ≤ min(n, 10^5))."))
    assert one.bound("k").unread == ()  # type: ignore[union-attr]
    edges = stated_input(prompt(
        "The first line contains n, m (2 ≤ n ≤ 10^5, n - 1 ≤ m ≤ min(n(n-1)/2, 2·10^5))."))
    m = edges.bound("m")
    assert m is not None and (m.high, m.low_ref) == (200_000, Ref("n", offset=Fraction(-1)))
    assert m.unread == (("high", "min(n * (n - 1) / 2, 2 * 10 ** 5)"),)


def test_a_string_of_n_digits_is_a_string_of_that_length() -> None:
    stated = stated_input(prompt("The first line contains two integers, n and k (0 ≤ k < n "
                                 "≤ 10^5).\n\nThe second line contains a string "
                                 "consisting of n digits."))
    assert stated.lines[1] == LineSpec((), 2, None, Ref("n"), "string")


def test_lines_of_pairs_name_the_pair() -> None:
    """"The next n lines contain n pairs of integers ti and ci": t and c on each line."""
    stated = stated_input(prompt("The first line contains n (1 ≤ n ≤ 1000). The next n "
                                 "lines contain n pairs of integers ti and ci (1 ≤ ti, ci ≤ "
                                 "10^9), which describe the taxi drivers."))
    assert stated.lines[1].names == ("t", "c") and stated.lines[1].repeat == Ref("n")


def test_a_sum_of_a_lists_items() -> None:
    stated = stated_input(prompt("The second line contains n non-negative integers a_1,a_2,"
                                 "...,a_n (1 ≤ a_1+a_2+...+a_n ≤ 3·10^5)."))
    assert Guarantee(ITEM_SUM, ("a",), 300_000, 1) in stated.guarantees
    strict = stated_input(prompt("The line contains b_1, …, b_m (b_1 + b_2 + … + b_m < 100)."))
    assert Guarantee(ITEM_SUM, ("b",), 99) in strict.guarantees


def test_a_bullet_is_no_side() -> None:
    """"* 1 ≤ N ≤ 10^6" under a list: the star is the bullet's, not a product's."""
    stated = stated_input(prompt("The first and only line contains integer N.\n\n"
                                 "  * 1 ≤ N ≤ 10^6"))
    assert stated.bound("N") == Bound("N", 1, 10**6, line=0)


def test_lost_superscripts_are_powers_only_where_the_section_writes_none() -> None:
    lost = stated_input(prompt(
        "The first line contains integer n (1 ≤ n ≤ 105). The second line contains n "
        "integers a1, a2, ..., an ( - 109 ≤ ai ≤ 109), and k (1 ≤ k ≤ 2·105)."))
    assert lost.bound("n") == Bound("n", 1, 10**5, line=0)
    assert (lost.bound("a", indexed=True).low, lost.bound("a", indexed=True).high) == (  # type: ignore[union-attr]
        -(10**9), 10**9)
    assert lost.bound("k").high == 2 * 10**5  # type: ignore[union-attr]
    kept = stated_input(prompt("The first line contains n (1 ≤ n ≤ 105) and m (1 ≤ m ≤ 10^5)."))
    assert kept.bound("n").high == 105  # type: ignore[union-attr]
    wide = stated_input(prompt("The first line contains t (1 ≤ t ≤ 1024) and q (1 ≤ q ≤ 1018)."))
    assert wide.bound("t").high == 1024  # type: ignore[union-attr]
    assert wide.bound("q").high == 10**18  # type: ignore[union-attr]


def test_thousands_written_with_spaces() -> None:
    stated = stated_input(prompt("The first line contains n (3 ≤ n ≤ 150 000)."))
    assert stated.bound("n") == Bound("n", 3, 150_000, line=0)


def test_a_list_line_names_its_values_and_length() -> None:
    stated = stated_input(prompt(
        "The first line contains a single integer n (2 ≤ n ≤ 10^4).\n"
        "The second line contains n - 1 integers p_2, p_3, ..., p_n (1 ≤ p_i < i).\n"
        "The third line contains n distinct integers c_1, c_2, …, c_n (1 ≤ c_i ≤ n).\n"
        "The last line contains n integers ki (1 ≤ ki ≤ 10^9)."))
    second, third, last = stated.lines[1:]
    assert (second.names, second.list_length, second.ordinal) == (
        ("p",), Ref("n", offset=Fraction(-1)), 2)
    assert (third.names, third.list_length) == (("c",), Ref("n"))
    assert (last.names, last.ordinal, last.list_length) == (("k",), -1, Ref("n"))
    assert Guarantee(DISTINCT, ("c",)) in stated.guarantees
    c = stated.bound("c", indexed=True)
    assert c is not None and (c.low, c.high_ref, c.line) == (1, Ref("n"), 2)


def test_absolute_values_and_lengths_between_bars() -> None:
    stated = stated_input(prompt(
        "The first line contains a string s (1 ≤ |s| ≤ 10^5).\n"
        "Each of the next n lines contains x_i and y_i (|x_i|, |y_i| ≤ 10^9)."))
    assert stated.bound("s", length=True) == Bound("s", 1, 10**5, length=True, line=0)
    x = stated.bound("x")
    assert x is not None and (x.low, x.high, x.length) == (-(10**9), 10**9, False)


def test_prose_bounds() -> None:
    stated = stated_input(prompt(
        "The first line contains a single integer n (1 ≤ n ≤ 100).\n"
        "The second line contains n positive integers a_1, a_2, ..., a_n.\n"
        "The third line contains n integers b_1, b_2, ..., b_n (b_i is either 0 or 1).\n"
        "The last line contains a string t. Its length is at most 50."))
    assert stated.bound("a").low == 1  # type: ignore[union-attr]
    assert (stated.bound("b").low, stated.bound("b").high) == (0, 1)  # type: ignore[union-attr]
    assert stated.bound("t", length=True).high == 50  # type: ignore[union-attr]


def test_a_union_is_not_a_bound() -> None:
    stated = stated_input(prompt(
        "The first line contains integer n (1 ≤ n ≤ 2000). The next n lines contain the "
        "integers pi (1 ≤ pi ≤ n or pi = -1)."))
    assert stated.bound("p") is None


def test_subtask_limits_are_left_out() -> None:
    stated = stated_input(prompt(
        "The single line contains a single integer n.\n"
        "The input limitations for getting 30 points are:\n  * 2 ≤ n ≤ 50\n"
        "The input limitations for getting 100 points are:\n  * 2 ≤ n ≤ 109"))
    assert stated.bound("n") is None
    assert stated.lines[0].names == ("n",)


def test_alphabets() -> None:
    cases = {
        "The only line contains a string s consisting of lowercase English letters.":
            ("s", "abcdefghijklmnopqrstuvwxyz"),
        "The first line contains a string s. It contains small English letters 'a', 'b' "
        "and characters '?' only.": ("", "?ab"),
        "Each character is an uppercase Latin letter.": ("", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
        "The first line contains sequence s1s2... sn containing only characters \"*\", \"?\" "
        "and digits \"0\", \"1\" or \"2\".": ("", "*012?"),
        "The board consists only of characters '.' and '#'.": ("", "#."),
        "All strings consist of the first six lowercase English letters.": ("", "abcdef"),
    }
    for sentence, (name, chars) in cases.items():
        stated = stated_input(prompt(sentence))
        assert stated.alphabet(name) == chars, sentence


def test_graph_guarantees() -> None:
    stated = stated_input(prompt(
        "The first line contains two integers n and m (2 ≤ n ≤ 10^5, 1 ≤ m ≤ 10^5).\n"
        "Each of the next m lines contains u_i and v_i (1 ≤ u_i, v_i ≤ n, u_i ≠ v_i).\n"
        "It is guaranteed that the given graph is connected. There are no multiple edges and "
        "no self-loops."))
    assert {Guarantee(CONNECTED), Guarantee(NO_MULTI_EDGES), Guarantee(NO_SELF_LOOPS),
            Guarantee(NOT_EQUAL, ("u", "v"))} <= stated.guarantees
    tree = stated_input(prompt("It is guaranteed that the given edges form a tree."))
    assert Guarantee(TREE) in tree.guarantees
    loose = stated_input(prompt("The graph may contain multiple edges and loops."))
    assert not loose.guarantees


def test_test_cases_and_their_sum() -> None:
    stated = stated_input(prompt(
        "The first line contains an integer t (1 ≤ t ≤ 10^4) — the number of test cases.\n"
        "The first line of each test case contains an integer n (1 ≤ n ≤ 2 ⋅ 10^5).\n"
        "The second line contains n integers p_1, p_2, ..., p_n — a permutation.\n"
        "It is guaranteed that the sum of n over all test cases does not exceed 2 ⋅ 10^5."))
    assert stated.test_count == "t"
    first, per_case, second = stated.lines
    assert not first.per_test and per_case.per_test and second.per_test
    assert Guarantee(SUM, ("n",), 200_000) in stated.guarantees
    assert Guarantee(PERMUTATION, ("p",)) in stated.guarantees


def test_two_variables_of_one_name_are_told_apart() -> None:
    stated = stated_input(prompt(
        "The first line contains a single integer t (1 ≤ t ≤ 500).\n"
        "Each of the next n lines contains a_i and t_i (1 ≤ t_i ≤ 10^6)."))
    assert stated.bound("t", indexed=False).high == 500  # type: ignore[union-attr]
    assert stated.bound("t", indexed=True).high == 10**6  # type: ignore[union-attr]
    assert stated.bound("t", line=1).high == 10**6  # type: ignore[union-attr]


def test_integers_given_one_per_line_are_a_block_of_lines() -> None:
    stated = stated_input(prompt(
        "The first line contains an integer q (1 ≤ q ≤ 10^3).\n\n"
        "After that q integers are given, one per line: a_1, a_2, …, a_q "
        "(2 ≤ a_i ≤ 2^{25} - 1)."))
    spec = stated.lines[1]
    assert spec.names == ("a",) and spec.repeat is not None and spec.repeat.name == "q"
    assert spec.list_length is None
    assert stated.bound("a") is not None and stated.bound("a").high == 2**25 - 1  # type: ignore[union-attr]


def test_a_line_naming_its_numbers_after_a_dash() -> None:
    """"two integers — the number of vertices n and the number of edges m": the names
    come after the dash, each introduced by its description, or listed there."""
    stated = stated_input(prompt(
        "The first line contains two integers — the number of vertices n and the number of "
        "edges m of the graph (1 ≤ n ≤ 100, 0 ≤ m ≤ <image>).\n\n"
        "The next m lines contain three integers — a_i, b_i (1 ≤ a_i < b_i ≤ n) and c_i "
        "(1 ≤ c_i ≤ m)."))
    assert [line.names for line in stated.lines] == [("n", "m"), ("a", "b", "c")]
    # "0 ≤ m ≤ <image>": the side the statement lost to an image leaves the other
    edges = stated.bound("m", indexed=False)
    assert edges is not None and edges.low == 0 and edges.high is None
    # the phrase names one number more than it counts: no names
    assert stated_input(prompt(
        "The first line contains two integers — the sizes n, m and k.")).lines[0].names == ()


def test_a_count_in_digits_names_the_numbers_of_its_chain() -> None:
    """"3 space-separated integers (-10^6 ≤ ai, bi, ci ≤ 10^6)" (498_a) counts its numbers
    as "three integers" does: the chain names them."""
    stated = stated_input(prompt(
        "The third line contains an integer n (1 ≤ n ≤ 300). The following n lines contain 3 "
        "space-separated integers (-10^6 ≤ ai, bi, ci ≤ 10^6; |ai| + |bi| > 0) — the "
        "coefficients of the line aix + biy + ci = 0."))
    assert [line.names for line in stated.lines] == [("n",), ("a", "b", "c")]


@pytest.mark.parametrize("rows", [
    # 1433_g: the names in the sentence after the count
    "The next m lines describe roads. The i-th road is given as three integers x_i, y_i and "
    "w_i (1 ≤ x_i, y_i ≤ n; 1 ≤ w_i ≤ 1000).",
    # 1187_e
    "Each of the next m lines describes an edge. Edge i is denoted by three integers x_i, y_i "
    "and w_i (1 ≤ x_i, y_i ≤ n, 1 ≤ w_i ≤ 1000).",
    # 505_d: a parenthesis between the subject and its verb
    "The following m lines describe the roads. The i-th of them (1 ≤ i ≤ m) contains three "
    "integers x_i, y_i and w_i (1 ≤ x_i, y_i ≤ n, 1 ≤ w_i ≤ 1000).",
    # 20_c
    "Following m lines contain one edge each in form xi, yi and wi (1 ≤ xi, yi ≤ n, 1 ≤ wi "
    "≤ 1000), where xi, yi are edge endpoints.",
    # 229_b: "containing" is the verb, the names come from the bounds' chain
    "Then m lines follow, containing three integers each: the i-th line contains numbers of "
    "cities xi and yi (1 ≤ xi, yi ≤ n), and the cost wi (1 ≤ wi ≤ 1000).",
])
def test_the_names_of_a_block_of_rows_however_they_are_introduced(rows: str) -> None:
    stated = stated_input(prompt(
        "The first line contains two integers n and m (2 ≤ n ≤ 100, 1 ≤ m ≤ 1000). " + rows))
    assert [line.names for line in stated.lines] == [("n", "m"), ("x", "y", "w")]
    assert stated.lines[1].repeat == Ref("m")


def test_a_pair_of_named_things_is_two_numbers() -> None:
    """977_e, 999_e: "road i is given as a pair of cities u_i, v_i"."""
    stated = stated_input(prompt(
        "The first line contains two integers n and m (2 ≤ n ≤ 100, 0 ≤ m ≤ 1000). The "
        "following m lines contain roads: road i is given as a pair of cities u_i, v_i (1 ≤ "
        "u_i, v_i ≤ n, u_i ≠ v_i)."))
    assert [line.names for line in stated.lines] == [("n", "m"), ("u", "v")]


def test_a_bound_on_the_edges_at_each_vertex() -> None:
    for sentence, limit in (
            ("It is guaranteed that each student has no more than two archenemies.", 2),
            ("The degree of each vertex does not exceed 3.", 3),
            ("Each node has degree at most 4.", 4)):
        assert Guarantee(MAX_DEGREE, (), limit) in stated_input(prompt(sentence)).guarantees
    for sentence in ("It is guaranteed that the out-degree of each vertex is at most k.",
                     "Each string has at most 5 characters.",
                     "There is at most one edge between any two nodes."):
        assert degree_bound(sentence) is None, sentence


def test_a_constant_number_of_lines() -> None:
    stated = stated_input(prompt(
        "The input consists of eight lines, the i-th line contains two space-separated "
        "integers xi and yi (0 ≤ xi, yi ≤ 10^6). You do not have any other conditions."))
    (spec,) = stated.lines
    assert spec.names == ("x", "y") and spec.repeat == Ref("", Fraction(1), Fraction(8))
    assert stated.free and not stated_input(prompt("The only line contains n.")).free


def test_each_of_a_constant_number_of_lines_named_in_the_sentence_after() -> None:
    """"Each of the three lines of the input contains two integers. The i-th line contains
    integers xi and yi": a block of three lines, each named x and y."""
    stated = stated_input(prompt(
        "Each of the three lines of the input contains two integers. The i-th line contains "
        "integers xi and yi ( - 109 ≤ xi, yi ≤ 109) — the coordinates of the i-th point."))
    (spec,) = stated.lines
    assert spec.names == ("x", "y") and spec.repeat == Ref("", Fraction(1), Fraction(3))
    assert stated.bound("x") == Bound("x", -10**9, 10**9, indexed=True, line=0)


def test_names_in_the_format_a_line_is_written_in() -> None:
    """"the coordinates of the points written as "x y"": the line's names; a format of
    literal text names nothing."""
    stated = stated_input(prompt(
        "The first line contains n (1 ≤ n ≤ 200). Next n lines contain the coordinates of the "
        'points written as "x y" (without the quotes) (|x|, |y| ≤ 1000).'))
    assert stated.lines[1].names == ("x", "y") and stated.lines[1].repeat == Ref("n")
    literal = stated_input(prompt(
        'The first line contains n (1 ≤ n ≤ 200). Next n lines contain the queries in the '
        'format "add value" (1 ≤ value ≤ 10).'))
    assert literal.lines[1].names == ()


def test_lines_described_in_the_sentence_after() -> None:
    """"Next m lines describe the roads. Each road is described as two numbers a_i and
    b_i": the lines' names."""
    stated = stated_input(prompt(
        "The first line contains two integers n and m (2 ≤ n ≤ 100, 1 ≤ m ≤ 100).\n"
        "Next m lines describe the roads. Each road is described as two numbers ai and bi "
        "(1 ≤ ai, bi ≤ n)."))
    assert stated.lines[1].names == ("a", "b") and stated.lines[1].repeat == Ref("m")


def test_the_following_lines_are_a_block_of_some_count() -> None:
    """"The following lines contain pairs of numbers x_i and y_i": lines follow, how many
    the statement does not say (the grammar's count stands)."""
    stated = stated_input(prompt(
        "The first line contains two integers n and m (1 ≤ n ≤ 50, 0 ≤ m ≤ 2500).\n\n"
        "The following lines contain pairs of numbers xi and yi (1 ≤ xi, yi ≤ n)."))
    spec = stated.lines[1]
    assert spec.repeat == SOME and spec.names == ("x", "y")
    # lines that name nothing describe no line of their own
    assert stated_input(prompt(
        "The first line contains an integer t. The next lines contain descriptions of the "
        "test cases.")).lines[1:] == ()
    # "the following m lines" keeps its count
    counted = stated_input(prompt("The following m lines contain two integers u and v."))
    assert counted.lines[0].repeat == Ref("m")
