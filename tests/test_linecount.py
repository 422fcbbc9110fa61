"""Line counting by rewriting the code: same results, counts a tracer would give."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import pytest

from evalplus_ng import linecount


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
    source = "def f(n):\n    return sum([x for x in range(n)]) + sum(map(lambda v: v, range(n)))\n"
    function, _ = _counted(source, "f", budget=1_500)
    assert function(700) == 2 * sum(range(700))
    with pytest.raises(Over):
        function(800)
