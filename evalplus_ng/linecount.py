"""Count executed lines cheaply: the code is rewritten to count as it runs.

A tracer (``sys.settrace``) calls a Python function on every line, which makes
the traced code several times slower. Here the source is rewritten once
instead: every run of consecutive statements starts by adding its length to a
global counter (and stopping the call once the counter passes the budget), a
loop adds one more per iteration for its header, and each iteration of a
comprehension and each call of a lambda count one. The count is a pure
function of the code path, the same on every machine, and follows what a line
tracer would count (one per statement executed, a loop header once per
iteration); the counted code runs at about half the speed of the original.

For trusted code only (the ground truth, references): code that knows the
counter's name can reset it.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from types import CodeType
from typing import Any

#: Names the rewritten code uses (in its own global namespace).
COUNTER = "__evalplus_ng_lines__"
LIMIT = "__evalplus_ng_line_limit__"
OVER = "__evalplus_ng_over__"
TICK = "__evalplus_ng_tick__"


def _name(name: str, store: bool = False) -> ast.Name:
    return ast.Name(name, ast.Store() if store else ast.Load())


def _count(amount: int) -> ast.stmt:
    """``if (COUNTER := COUNTER + amount) > LIMIT: OVER()``"""
    total = ast.NamedExpr(_name(COUNTER, store=True),
                          ast.BinOp(_name(COUNTER), ast.Add(), ast.Constant(amount)))
    return ast.If(ast.Compare(total, [ast.Gt()], [_name(LIMIT)]),
                  [ast.Expr(ast.Call(_name(OVER), [], []))], [])


def _tick() -> ast.expr:
    return ast.Call(_name(TICK), [], [])


def _is_docstring(statement: ast.stmt) -> bool:
    return (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)
            and isinstance(statement.value.value, str))


_COMPOUND = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.Try, ast.With, ast.AsyncWith,
             ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Match, ast.TryStar)


class _Rewriter(ast.NodeTransformer):
    """Adds the counting statements and expressions (see the module's docstring)."""

    def _block(self, body: list[ast.stmt], extra: int = 0, scope: bool = False,
               module: bool = False) -> list[ast.stmt]:
        """A statement list with a count before each run of statements; ``extra`` more
        at its start (a loop header); a function or class body (``scope``) declares the
        counter global first."""
        head: list[ast.stmt] = []
        rest = list(body)
        if (scope or module) and rest and _is_docstring(rest[0]):
            head.append(rest.pop(0))
        if module:
            while rest and isinstance(rest[0], ast.ImportFrom) and rest[0].module == "__future__":
                head.append(rest.pop(0))
        if scope:
            head.append(ast.Global([COUNTER]))
        out: list[ast.stmt] = []
        run: list[ast.stmt] = []
        pending = extra

        def flush() -> None:
            nonlocal pending
            if run:
                out.append(_count(len(run) + pending))
                out.extend(run)
                run.clear()
                pending = 0

        for statement in rest:
            run.append(self.visit(statement))
            if isinstance(statement, _COMPOUND):
                flush()
        flush()
        if not out and pending:
            out.append(_count(pending))
        return head + (out or [ast.Pass()])

    def visit_Module(self, node: ast.Module) -> ast.Module:
        node.body = self._block(node.body, module=True)
        return node

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.stmt:
        node.decorator_list = [self.visit(d) for d in node.decorator_list]
        node.args = self.visit(node.args)
        node.body = self._block(node.body, scope=True)
        return node

    visit_FunctionDef = _function
    visit_AsyncFunctionDef = _function

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.stmt:
        node.bases = [self.visit(b) for b in node.bases]
        node.keywords = [self.visit(k) for k in node.keywords]
        node.decorator_list = [self.visit(d) for d in node.decorator_list]
        node.body = self._block(node.body, scope=True)
        return node

    def _loop(self, node: ast.For | ast.AsyncFor | ast.While) -> ast.stmt:
        if isinstance(node, ast.While):
            node.test = self.visit(node.test)
        else:
            node.target = self.visit(node.target)
            node.iter = self.visit(node.iter)
        node.body = self._block(node.body, extra=1)
        node.orelse = self._block(node.orelse) if node.orelse else []
        return node

    visit_For = _loop
    visit_AsyncFor = _loop
    visit_While = _loop

    def generic_visit(self, node: ast.AST) -> ast.AST:
        """Statement lists of any other compound statement are blocks too."""
        for field, value in ast.iter_fields(node):
            if isinstance(value, list) and value and all(isinstance(v, ast.stmt) for v in value):
                setattr(node, field, self._block(value))
            elif isinstance(value, list):
                setattr(node, field, [self.visit(v) if isinstance(v, ast.AST) else v
                                      for v in value])
            elif isinstance(value, ast.AST):
                setattr(node, field, self.visit(value))
        return node

    def visit_comprehension(self, node: ast.comprehension) -> ast.comprehension:
        node.target = self.visit(node.target)
        node.iter = self.visit(node.iter)
        node.ifs = [_tick(), *(self.visit(test) for test in node.ifs)]
        return node

    def visit_Lambda(self, node: ast.Lambda) -> ast.expr:
        node.args = self.visit(node.args)
        node.body = ast.BoolOp(ast.And(), [_tick(), self.visit(node.body)])
        return node


def instrument(source: str, filename: str) -> CodeType:
    """``source`` compiled with line counting (run it in :func:`namespace`'s globals)."""
    tree = _Rewriter().visit(ast.parse(source, filename))
    ast.fix_missing_locations(tree)
    return compile(tree, filename, "exec")


def namespace(budget: int, over: Callable[[], Any]) -> dict[str, Any]:
    """Globals for instrumented code: the counter, its budget, and ``over`` (which must
    raise) called once the counter passes the budget."""
    ns: dict[str, Any] = {COUNTER: 0, LIMIT: budget, OVER: over}

    def tick() -> bool:
        count = ns[COUNTER] = ns[COUNTER] + 1
        if count > budget:
            over()
        return True

    ns[TICK] = tick
    return ns


def counted(function: Callable[..., Any], ns: dict[str, Any],
            over: Callable[[], Any]) -> Callable[..., Any]:
    """``function`` (from instrumented code run in ``ns``) with its counter reset before
    each call, and ``over`` called after it when the count passed the budget (so code
    that swallows the budget's exception is still over)."""
    budget = ns[LIMIT]

    def call(*args: Any) -> Any:
        ns[COUNTER] = 0
        try:
            value = function(*args)
        except BaseException:
            if ns[COUNTER] > budget:
                over()
            raise
        if ns[COUNTER] > budget:
            over()
        return value

    return call
