"""Formulas of a statement's bounds that are no linear form of one variable.

``0 ≤ k ≤ n(n-1)/2``, ``5 ≤ t ≤ n + m``, ``0 ≤ a_i ≤ 2^k - 1``: the side is arithmetic
over the input's variables. A :class:`Formula` keeps it as a Python expression over the
variables' names (``n*(n-1)/2``), checked to hold nothing but numbers, names, ``+ - * /
// % **`` and ``min``/``max``, and evaluates it exactly (fractions) where every name has a
value. Pure.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

#: The largest exponent a formula raises to (``2^k`` with ``k ≤ 60``): a larger power is
#: no bound an input meets, and computing it costs.
MAX_EXPONENT = 64

_BINARY = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow)


def _allowed(node: ast.AST) -> bool:
    if isinstance(node, ast.Expression):
        return _allowed(node.body)
    if isinstance(node, ast.Constant):
        return isinstance(node.value, int | float) and not isinstance(node.value, bool)
    if isinstance(node, ast.Name):
        return True
    if isinstance(node, ast.UnaryOp):
        return isinstance(node.op, ast.USub | ast.UAdd) and _allowed(node.operand)
    if isinstance(node, ast.BinOp):
        return isinstance(node.op, _BINARY) and _allowed(node.left) and _allowed(node.right)
    if isinstance(node, ast.Call):
        return (isinstance(node.func, ast.Name) and node.func.id in ("min", "max")
                and not node.keywords and len(node.args) >= 2
                and all(_allowed(arg) for arg in node.args))
    return False


def _value(node: ast.AST, env: Mapping[str, Fraction]) -> Fraction:
    if isinstance(node, ast.Constant):
        return Fraction(str(node.value))
    if isinstance(node, ast.Name):
        return env[node.id]
    if isinstance(node, ast.UnaryOp):
        inner = _value(node.operand, env)
        return -inner if isinstance(node.op, ast.USub) else inner
    if isinstance(node, ast.Call):
        values = [_value(arg, env) for arg in node.args]
        return min(values) if node.func.id == "min" else max(values)  # type: ignore[attr-defined]
    assert isinstance(node, ast.BinOp)
    left, right = _value(node.left, env), _value(node.right, env)
    op = node.op
    if isinstance(op, ast.Add):
        return left + right
    if isinstance(op, ast.Sub):
        return left - right
    if isinstance(op, ast.Mult):
        return left * right
    if isinstance(op, ast.Div):
        return left / right
    if isinstance(op, ast.FloorDiv):
        return Fraction(left // right)
    if isinstance(op, ast.Mod):
        return left % right
    if right.denominator != 1 or abs(right) > MAX_EXPONENT:
        raise ValueError(f"exponent {right} out of reach")
    return left ** int(right)


@lru_cache(maxsize=1024)
def _parsed(text: str) -> tuple[ast.expr, frozenset[str]]:
    """A formula's tree and the variables it reads (cached: a plan evaluates one formula
    for every value it draws)."""
    body = ast.parse(text, mode="eval").body
    calls = {id(node.func) for node in ast.walk(body) if isinstance(node, ast.Call)}
    names = frozenset(node.id for node in ast.walk(body)
                      if isinstance(node, ast.Name) and id(node) not in calls)
    return body, names


class _Rename(ast.NodeTransformer):
    def __init__(self, names: Mapping[str, str]) -> None:
        self.names = names

    def visit_Name(self, node: ast.Name) -> ast.Name:
        return ast.Name(self.names.get(node.id, node.id), node.ctx)

    def visit_Call(self, node: ast.Call) -> ast.Call:
        return ast.Call(node.func, [self.visit(arg) for arg in node.args], [])


@dataclass(frozen=True)
class Formula:
    """An arithmetic expression over variables' names (``text``, Python syntax)."""

    text: str

    @staticmethod
    def parse(text: str) -> Formula | None:
        """The formula ``text`` writes in Python syntax (None: it is not one)."""
        try:
            tree = ast.parse(text.strip(), mode="eval")
        except (SyntaxError, ValueError):
            return None
        if not _allowed(tree):
            return None
        return Formula(ast.unparse(tree))

    def names(self) -> frozenset[str]:
        """The variables it reads."""
        return _parsed(self.text)[1]

    def renamed(self, names: Mapping[str, str]) -> Formula:
        """The same formula with each variable ``v`` read as ``names[v]`` (where given)."""
        tree = ast.parse(self.text, mode="eval")
        return Formula(ast.unparse(_Rename(names).visit(tree)))

    def value(self, env: Mapping[str, object]) -> Fraction | None:
        """Its value where ``env`` gives every variable it reads a number (None: it does
        not, or the value is undefined: a division by zero, a power out of reach)."""
        body, names = _parsed(self.text)
        known: dict[str, Fraction] = {}
        for name in names:
            number = env.get(name)
            if isinstance(number, bool) or not isinstance(number, int | float | Fraction):
                return None
            known[name] = Fraction(number)
        try:
            return _value(body, known)
        except (ZeroDivisionError, ValueError, KeyError, TypeError, OverflowError):
            return None

    def __str__(self) -> str:
        return self.text
