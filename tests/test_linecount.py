"""Line counting by rewriting the code: same results, counts a tracer would give."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import pytest

from evalplus_ng.sandbox import linecount


class Over(BaseException):
    pass


def _over() -> None:
    raise Over


def _counted(source: str, name: str, budget: int = 10**9) -> tuple[Callable[..., Any],
                                                                   dict[str, Any]]:
    namespace = linecount.namespace(budget, _over)
    exec(linecount.instrument(source, "<test>"), namespace)
    return linecount.counted(namespace[name], namespace, _over), namespace


def _traced_lines(function: Callable[..., Any], *args: Any) -> int:
    count = 0

    def local(frame: Any, event: str, arg: Any) -> Any:
        nonlocal count
        if event == "line":
            count += 1
        return local

    sys.settrace(lambda frame, event, arg: local)
    try:
        function(*args)
    finally:
        sys.settrace(None)
    return count


# Every kind of statement and expression the rewriting touches.
SOURCE = '''
"""A module docstring."""
from __future__ import annotations


class Box:
    """A class docstring."""
    scale = 2

    def __init__(self, items):
        self.items = [x * self.scale for x in items if x]

    def total(self):
        return sum(self.items)


def gen(n):
    i = 0
    while i < n:
        yield i
        i += 1
    else:
        pass


def f(n, items):
    """A function docstring."""
    out = []
    for i in range(n):
        if i % 3 == 0:
            out.append(i)
        elif i % 3 == 1:
            continue
        else:
            try:
                out.append(10 // (i - 5))
            except ZeroDivisionError:
                out.append(None)
            finally:
                pass
    key = lambda v: -v
    ranked = sorted((v for v in items), key=key)
    table = {k: v for k, v in zip(items, ranked)}

    def inner(x):
        nonlocal out
        return x + len(out)

    match n:
        case 0:
            label = "zero"
        case _:
            label = "many"
    with open(__file__ if False else "/dev/null") as handle:
        handle.read()
    return [out, ranked, table, inner(1), Box(items).total(), list(gen(3)), label,
            f.__doc__]
'''


def test_rewritten_code_computes_what_the_original_computes() -> None:
    plain: dict[str, Any] = {}
    exec(compile(SOURCE, "<test>", "exec"), plain)
    function, namespace = _counted(SOURCE, "f")
    for n in (0, 1, 7, 12):
        assert function(n, [3, 1, 2]) == plain["f"](n, [3, 1, 2])
    assert namespace["__doc__"] == "A module docstring."


def test_counts_follow_a_line_tracer() -> None:
    source = "def f(n):\n    total = 0\n    for i in range(n):\n        total += i\n" \
             "    return [x for x in range(n)], (lambda: total)()\n"
    function, namespace = _counted(source, "f")
    plain: dict[str, Any] = {}
    exec(compile(source, "<test>", "exec"), plain)
    for n in (0, 10, 1000):
        function(n)
        assert abs(namespace[linecount.COUNTER] - _traced_lines(plain["f"], n)) <= 3


def test_a_call_over_its_budget_stops_and_the_count_restarts_each_call() -> None:
    source = "def f(n):\n    while n:\n        n -= 1\n    return 'done'\n"
    function, _ = _counted(source, "f", budget=2_000)
    assert function(900) == "done"
    with pytest.raises(Over):
        function(1_100)
    assert function(900) == "done"  # counted from zero again


def test_code_that_swallows_the_budget_exception_is_still_over() -> None:
    source = ("def f(n):\n    try:\n        while True:\n            n += 1\n"
              "    except BaseException:\n        return n\n")
    function, _ = _counted(source, "f", budget=500)
    with pytest.raises(Over):
        function(0)


def test_comprehensions_and_lambdas_count_each_iteration() -> None:
    # Each comprehension iteration and lambda call is one; so is each item the first
    # ``sum`` adds up (a list); the second adds a lazy map's items, priced where made.
    source = "def f(n):\n    return sum([x for x in range(n)]) + sum(map(lambda v: v, range(n)))\n"
    function, _ = _counted(source, "f", budget=2_200)
    assert function(700) == 2 * sum(range(700))
    with pytest.raises(Over):
        function(800)


def test_priced_operations_give_the_same_results_as_the_plain_code() -> None:
    source = (
        "def f(xs, s, n):\n"
        "    out = [3 in xs, 99 not in xs, 'b' in s, xs[1:3], xs[::-1], s[:2], s[::2]]\n"
        "    out += [sorted(xs), min(xs), max(xs, key=lambda v: -v), sum(xs), list(s)]\n"
        "    out += [xs.count(2), xs.index(3), s.count('a'), ','.join(s), s.upper()]\n"
        "    ys = list(xs)\n"
        "    ys.remove(2)\n"
        "    ys.insert(0, 9)\n"
        "    out += [ys, ys.pop(0), [0] * n, (1, 2) + (3,), n ** 2, 2 ** 70, 1 << 70,\n"
        "            3 * 2 ** 80, pow(3, 5), pow(3, 200, 7), 1.5 ** 2, 2 * 1.5]\n"
        "    return out\n")
    plain: dict[str, Any] = {}
    exec(source, plain)
    function, _ = _counted(source, "f")
    for args in (([3, 2, 5, 2], "abca", 4), ([2, 3], "", 0)):
        assert function(*args) == plain["f"](*args)


def test_a_function_of_the_code_s_own_named_like_a_priced_built_in_is_not_priced() -> None:
    # ``sum`` and ``count`` here are the code's own: only their lines count.
    source = ("def sum(xs):\n    return 0\n"
              "class Bag:\n    def count(self, x):\n        return 1\n"
              "def f(n):\n    return sum(range(n)) + Bag().count(n)\n")
    function, namespace = _counted(source, "f", budget=100)
    assert function(10**12) == 1
    assert namespace[linecount.COUNTER] < 10


def test_work_one_line_hides_is_priced_before_it_runs() -> None:
    cases = {
        "def f(n):\n    return sum(range(n))\n": 10**12,
        "def f(n):\n    return 3 ** n\n": 10**15,
        "def f(n):\n    return 1 << n\n": 10**15,
        "def f(n):\n    return len([0] * n)\n": 10**13,
        "def f(n):\n    return len(list(range(n)))\n": 2**63,
        "def f(n):\n    from itertools import combinations\n"
        "    return len(list(combinations(range(60), n)))\n": 30,
        "def f(n):\n    import math\n    return math.factorial(n).bit_length()\n": 10**9,
        "def f(n):\n    xs = list(range(30_000))\n"
        "    return sum(xs.index(x) for x in xs[-n:])\n": 100,
    }
    for source, huge in cases.items():
        function, _ = _counted(source, "f", budget=200_000)
        with pytest.raises(Over):  # at once: untraced, each would run for hours or fail
            function(huge)


def test_prices_follow_the_operands() -> None:
    from evalplus_ng.sandbox import ccost

    assert ccost.added_cost(3) == 0 and ccost.binop_cost("*", 3, 4) == 0
    assert ccost.added_cost(2**640) == 11  # words of the big result
    assert ccost.added_cost([0] * 40) == 10 and ccost.added_cost("ab" * 100) == 0
    assert ccost.binop_cost("*", 2**640, 3) == 11  # a big times a small: linear
    assert ccost.power_cost(2, 10) == 0 and ccost.power_cost(1, 10**30) == 0
    assert ccost.power_cost(2, 64_000) > ccost.power_cost(2, 32_000) > 0
    assert ccost.power_cost(3, 2**200) == ccost.HUGE
    assert ccost.contains_cost(3, [1, 2, 3, 4]) == 3  # compared up to where it is found
    assert ccost.contains_cost(9, [1, 2, 3, 4]) == 4 and ccost.contains_cost(9, {9}) == 0
    assert ccost.slice_cost(list(range(100)), slice(10, 50)) == 10  # 40 items copied / 4
    assert ccost.call_cost(sum, (range(2**64),), {}) == ccost.HUGE
    assert ccost.call_cost(sorted, ([3, 1, 2],), {}) == 3
    assert ccost.call_cost([1, 2].count, (1,), {}) == 2
    assert ccost.call_cost(len, ([1, 2],), {}) == 0  # not priced: constant time
