"""Cost requirement: how hard each input makes the fixed ground truth work.

Work is the number of Python lines the ground truth executes on an input (counted
by :mod:`evalplus_ng.sandbox.linecount`: the same on every machine, so the MINI it helps
choose is reproducible). The ground truth is our own trusted code and runs in this
process, like the coverage requirement's.

A MINI chosen only for branches and mutants keeps small inputs, and a naive or
quadratic solution passes it; the costliest inputs are what makes such a solution
time out on the full suite, so they are a goal of their own (:func:`cost_goals`).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from evalplus_ng.sandbox.linecount import COUNTER, counted, instrument, namespace
from evalplus_ng.types import Args

#: Lines after which a call stops being counted (the plus tier's inputs stay far below).
LINE_BUDGET = 10_000_000


class _Over(BaseException):
    """The call executed more than :data:`LINE_BUDGET` lines (not an Exception: code
    that catches every Exception must not swallow it)."""


def _over() -> None:
    raise _Over


def executed_lines(source: str, entry_point: str, inputs: Sequence[Args]) -> list[int]:
    """Lines ``entry_point`` of ``source`` executes on each input (capped at
    :data:`LINE_BUDGET`; a call that raises counts what ran before the raise)."""
    ns = namespace(LINE_BUDGET, _over)
    ns["__name__"] = "__ground_truth__"
    exec(instrument(source, "<ground truth>"), ns)
    call = counted(ns[entry_point], ns, _over)
    counts: list[int] = []
    for args in inputs:
        arguments: list[Any] = copy.deepcopy(list(args))
        try:
            call(*arguments)
        except _Over:
            counts.append(LINE_BUDGET)
            continue
        except Exception:
            pass
        counts.append(min(int(ns[COUNTER]), LINE_BUDGET))
    return counts


def cost_goals(lines: Mapping[int, int], base: Sequence[int],
               factor: float) -> dict[int, set[str]]:
    """Test -> cost goals: ``"costliest"``, met by the tests on which the ground truth
    executes the most lines, when that is at least ``factor`` times what any base test
    costs (else the base tests, which every profile keeps, already cost as much)."""
    if not lines:
        return {}
    top = max(lines.values())
    base_top = max((lines.get(t, 0) for t in base), default=0)
    if top < factor * max(base_top, 1):
        return {}
    return {t: {"costliest"} for t, n in lines.items() if n == top}
