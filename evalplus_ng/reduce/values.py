"""Value requirement: the classes the ground truth's intermediate values fall in.

Branch coverage sees only statements that branch: ``return sorted(a, reverse=(a[0] +
a[-1]) % 2 == 0)`` is one arc whatever the input. A wrong sample often goes wrong
where one of those inner values is at a boundary: a sum that is zero, a comparison
that is false, a count that is one, an empty intermediate list. Here every
comparison, boolean operator, arithmetic operator and call of the ground truth
records the class of the value it produced (:func:`value_class`: true/false,
negative/zero/positive, empty/one/many; a ``range`` too, so a loop over it running
zero, one or many times is a class); each (place in the code, class) is a goal.
A MINI that meets them all shows each inner value at each boundary the full suite
shows it at (condition coverage and boundary values in one).

The ground truth is our own trusted code: it runs in this process, rewritten once
(the records go to a set in its own global namespace, under :data:`RECORD`). An input
whose run records more than :data:`RECORD_BUDGET` values is stopped there and keeps
the goals met so far: the count, not a clock, bounds the work, so the goals are the
same on every machine.
"""

from __future__ import annotations

import ast
import contextlib
import copy
from collections.abc import Sequence
from typing import Any

from evalplus_ng.types import Args

#: Name of the recording helper in the rewritten code's namespace.
RECORD = "__evalplus_ng_value__"
#: Bumped whenever which values are recorded, or their classes, change (cache keys).
VALUES_VERSION = 2
#: Values recorded per input at most (a tenth of a second of recording or so).
RECORD_BUDGET = 200_000


class _Spent(BaseException):
    """Raised inside the ground truth when an input's recording budget is spent (a
    ``BaseException``: the code's own ``except Exception`` does not catch it)."""


def value_class(value: Any) -> str | None:
    """The boundary class of one intermediate value, or ``None`` for values without one."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        if value != value:  # NaN has no sign
            return "nan"
        return "neg" if value < 0 else "zero" if value == 0 else "pos"
    if value is None:
        return "none"
    if isinstance(value, (str, bytes, list, tuple, dict, set, frozenset, range)):
        size = len(value)
        return "empty" if size == 0 else "one" if size == 1 else "many"
    return None


class _Recorder(ast.NodeTransformer):
    """Wraps each recorded expression ``e`` at line L, column C as ``RECORD('L:C', e)``."""

    _RECORDED = (ast.Compare, ast.BoolOp, ast.BinOp, ast.UnaryOp, ast.Call)

    def visit_match_case(self, node: ast.match_case) -> ast.match_case:
        # Patterns hold constants, not expressions: only the guard and body are rewritten.
        if node.guard is not None:
            node.guard = self.visit(node.guard)
        node.body = [self.visit(statement) for statement in node.body]
        return node

    def generic_visit(self, node: ast.AST) -> ast.AST:
        node = super().generic_visit(node)
        if isinstance(node, self._RECORDED):
            site = ast.Constant(f"{node.lineno}:{node.col_offset}")
            wrapped = ast.Call(ast.Name(RECORD, ast.Load()), [site, node], [])
            return ast.copy_location(wrapped, node)
        return node


def instrument(source: str) -> ast.Module:
    """``source`` with every recorded expression passing through :data:`RECORD`."""
    tree = ast.parse(source)
    _Recorder().visit(tree)  # rewrites the module's statements in place
    return ast.fix_missing_locations(tree)


def value_goals(source: str, entry_point: str, inputs: Sequence[Args]) -> list[frozenset[str]]:
    """For each input, the goals ``'L:C:class'`` the ground truth's intermediate values meet
    on it (arguments deep-copied first; an input on which the code raises keeps what was
    recorded before the raise)."""
    seen: set[tuple[str, str]] = set()
    left = [RECORD_BUDGET]

    def record(site: str, value: Any) -> Any:
        left[0] -= 1
        if left[0] < 0:
            raise _Spent
        found = value_class(value)
        if found is not None:
            seen.add((site, found))
        return value

    namespace: dict[str, Any] = {"__name__": "__ground_truth__", RECORD: record}
    exec(compile(instrument(source), "<ground truth>", "exec"), namespace)
    function = namespace[entry_point]
    goals: list[frozenset[str]] = []
    for args in inputs:
        seen.clear()
        left[0] = RECORD_BUDGET
        with contextlib.suppress(Exception, _Spent):
            function(*copy.deepcopy(list(args)))
        goals.append(frozenset(f"{site}:{found}" for site, found in seen))
    return goals
