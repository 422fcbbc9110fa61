"""Count executed lines cheaply: the code is rewritten to count as it runs.

A tracer (``sys.settrace``) calls a Python function on every line, which makes
the traced code several times slower. Here the source is rewritten once
instead: every run of consecutive statements starts by adding its length to a
global counter (and stopping the call once the counter passes the budget), a
loop adds one more per iteration for its header, and each iteration of a
comprehension and each call of a lambda count one. C-level work one line can
hide (``sum(range(n))``, ``a ** b`` on big integers, ``x in lst``, slices,
``lst.remove(x)``, ``itertools.combinations``) is priced too, from its operands
and before it runs, in the same units (:mod:`evalplus_ng.sandbox.ccost`): calls to the
priced built-ins, the operators ``+ * ** <<``, ``in`` and slices go through
small helpers that add the price. The count is a pure function of the code path,
the same on every machine, and follows what a line tracer would count (one per
statement executed, a loop header once per iteration) plus those prices; the
counted code runs at about a third of the speed of the original.

For trusted code only (the ground truth, references): code that knows the
counter's name can reset it.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable
from types import CodeType
from typing import Any

from evalplus_ng.sandbox.ccost import (
    CALL_NAMES,
    METHOD_NAMES,
    added_cost,
    binop_cost,
    call_cost,
    contains_cost,
    slice_cost,
    words,
)

#: Names the rewritten code uses (in its own global namespace).
COUNTER = "__evalplus_ng_lines__"
LIMIT = "__evalplus_ng_line_limit__"
OVER = "__evalplus_ng_over__"
TICK = "__evalplus_ng_tick__"
CALL = "__evalplus_ng_call__"
IN = "__evalplus_ng_in__"
SLICE = "__evalplus_ng_slice__"

#: Operators whose operands are priced, by their symbol in
#: :func:`evalplus_ng.sandbox.ccost.binop_cost`.
#: (``-``, ``//`` and ``%`` are not: they shrink what ``+``, ``*``, ``**`` and ``<<`` made,
#: and ``i - 1``, ``i % 2`` in every loop would slow each counted call for nothing.)
_METERED: dict[type, str] = {ast.Add: "+", ast.Mult: "*", ast.Pow: "**", ast.LShift: "<<"}
_OPERATORS: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add, "*": operator.mul, "**": operator.pow, "<<": operator.lshift,
}
#: The helper each metered operator's expressions call.
OPS = {symbol: f"__evalplus_ng_op{index}__" for index, symbol in enumerate(_OPERATORS)}
#: Integers inside (-SMALL, SMALL) cost nothing in any metered operator's price.
SMALL = 1 << 64


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


def _bound_names(tree: ast.AST) -> tuple[set[str], set[str]]:
    """Names the code binds itself (assigned, parameters, defined: a call of one of them
    is not a built-in's), and the names of the functions it defines (a method call of
    one of them is the code's own)."""
    bound: set[str] = set()
    defined: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bound.add(node.id)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
            defined.add(node.name)
    return bound, defined


def _helper(name: str, args: list[ast.expr],
            keywords: list[ast.keyword] | None = None) -> ast.expr:
    return ast.Call(_name(name), args, keywords or [])


class _Rewriter(ast.NodeTransformer):
    """Adds the counting statements and expressions (see the module's docstring)."""

    def __init__(self, bound: set[str], defined: set[str]) -> None:
        self.bound = bound
        self.defined = defined

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

    def _priced_call(self, function: ast.expr) -> bool:
        if isinstance(function, ast.Name):
            return function.id in CALL_NAMES and function.id not in self.bound
        return (isinstance(function, ast.Attribute) and function.attr in METHOD_NAMES
                and function.attr not in self.defined)

    def visit_Call(self, node: ast.Call) -> ast.expr:
        """A call of a priced built-in goes through :data:`CALL` (which prices it)."""
        priced = self._priced_call(node.func)
        node.func = self.visit(node.func)
        node.args = [self.visit(arg) for arg in node.args]
        node.keywords = [self.visit(keyword) for keyword in node.keywords]
        if not priced:
            return node
        return _helper(CALL, [node.func, *node.args], node.keywords)

    def visit_BinOp(self, node: ast.BinOp) -> ast.expr:
        left, right = self.visit(node.left), self.visit(node.right)
        symbol = _METERED.get(type(node.op))
        if symbol is None:
            node.left, node.right = left, right
            return node
        return _helper(OPS[symbol], [left, right])

    def visit_Compare(self, node: ast.Compare) -> ast.expr:
        left = self.visit(node.left)
        comparators = [self.visit(c) for c in node.comparators]
        if len(node.ops) == 1 and isinstance(node.ops[0], (ast.In, ast.NotIn)):
            test = _helper(IN, [left, comparators[0]])
            return ast.UnaryOp(ast.Not(), test) if isinstance(node.ops[0], ast.NotIn) else test
        node.left, node.comparators = left, comparators
        return node

    def visit_Subscript(self, node: ast.Subscript) -> ast.expr:
        value = self.visit(node.value)
        index = node.slice
        if isinstance(node.ctx, ast.Load) and isinstance(index, ast.Slice):
            parts = [self.visit(part) if part is not None else ast.Constant(None)
                     for part in (index.lower, index.upper, index.step)]
            return _helper(SLICE, [value, *parts])
        node.value, node.slice = value, self.visit(index)
        return node

    def visit_Lambda(self, node: ast.Lambda) -> ast.expr:
        node.args = self.visit(node.args)
        node.body = ast.BoolOp(ast.And(), [_tick(), self.visit(node.body)])
        return node


def instrument(source: str, filename: str) -> CodeType:
    """``source`` compiled with line counting (run it in :func:`namespace`'s globals)."""
    parsed = ast.parse(source, filename)
    tree = _Rewriter(*_bound_names(parsed)).visit(parsed)
    ast.fix_missing_locations(tree)
    return compile(tree, filename, "exec")


def pay(charge: Callable[[int], None], price_of: Callable[..., int], *operands: Any) -> None:
    """Charge ``price_of(*operands)``; a price that cannot be known costs nothing."""
    try:
        price = price_of(*operands)
    except Exception:
        return
    if price:
        charge(price)


def _operator_helper(symbol: str, charge: Callable[[int], None]) -> Callable[[Any, Any], Any]:
    """The helper of one metered operator: small integers and floats take a fast path (a
    metered operator runs in every counted loop); big integers and sequences are priced
    (before the operation where it could take long, after it where it is linear)."""
    operation, small = _OPERATORS[symbol], SMALL
    # Small operands whose result may still be huge: ``2 ** 100000``, ``1 << 100000``.
    exploding = symbol in ("**", "<<")

    def op(left: Any, right: Any) -> Any:
        if type(left) is float or type(right) is float:
            return operation(left, right)
        if (type(left) is int and type(right) is int and -small < left < small
                and -small < right < small and not (exploding and right > 64)):
            value = operation(left, right)
            if type(value) is int and not -small < value < small:
                charge(words(value))
            return value
        pay(charge, binop_cost, symbol, left, right)
        return operation(left, right)

    return op


def _add_helper(charge: Callable[[int], None]) -> Callable[[Any, Any], Any]:
    """``+``'s helper: priced after it runs, by its result (:func:`~evalplus_ng.sandbox.ccost.
    added_cost`); small integers and floats take a fast path."""
    small = SMALL

    def add(left: Any, right: Any) -> Any:
        value = left + right
        kind = type(value)
        if kind is float or (kind is int and -small < value < small):
            return value
        price = added_cost(value)
        if price:
            charge(price)
        return value

    return add


def namespace(budget: int, over: Callable[[], Any]) -> dict[str, Any]:
    """Globals for instrumented code: the counter, its budget, and ``over`` (which must
    raise) called once the counter passes the budget."""
    ns: dict[str, Any] = {COUNTER: 0, LIMIT: budget, OVER: over}

    def tick() -> bool:
        count = ns[COUNTER] = ns[COUNTER] + 1
        if count > budget:
            over()
        return True

    def charge(price: int) -> None:
        count = ns[COUNTER] = ns[COUNTER] + price
        if count > budget:
            over()

    def call(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        pay(charge, call_cost, function, args, kwargs)
        return function(*args, **kwargs)

    ns.update({OPS[symbol]: _operator_helper(symbol, charge) for symbol in _OPERATORS})
    ns[OPS["+"]] = _add_helper(charge)

    def contains(item: Any, container: Any) -> bool:
        pay(charge, contains_cost, item, container)
        return item in container

    def sliced(value: Any, lower: Any, upper: Any, step: Any) -> Any:
        index = slice(lower, upper, step)
        pay(charge, slice_cost, value, index)
        return value[index]

    ns.update({TICK: tick, CALL: call, IN: contains, SLICE: sliced})
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
