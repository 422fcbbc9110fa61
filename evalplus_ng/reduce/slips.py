"""Mutants of the kind LLMs write: off-by-one bounds, skipped elements, dropped guards.

mutmut's operators (:mod:`evalplus_ng.reduce.mutants`) change one token: ``<`` for ``<=``,
``n`` for ``n + 1``, ``and`` for ``or``. Base inputs kill most of them. The wrong
samples that pass the base tests mostly make other mistakes, and this module makes
those, each at one site of a function of the ground truth:

* **bound**: a ``range`` bound or a slice bound one off (``range(1, n)`` for
  ``range(n)``, ``range(n - 1)``, ``xs[:k + 1]``);
* **skip**: a loop over a sequence that skips its first or last element
  (``for x in xs[1:]``, ``for x in xs[:-1]``);
* **guard**: an ``if`` of the function's own body (not inside a loop or another
  branch) with no ``else`` and a lone ``return`` or ``raise``, removed (the dropped
  edge case: empty input, zero, a single element);
* **forget**: a normalising call dropped (``sorted(xs)`` -> ``xs``, ``abs(x)`` -> ``x``,
  ``s.lower()`` -> ``s``, ``s.strip()`` -> ``s``, ``set(xs)`` -> ``xs``);
* **strict**: a comparison's strictness flipped (``<`` for ``<=`` and back), kept
  here too so the kind stands alone;
* **operator**: an operator swapped for its neighbour (``+`` and ``-``, ``*`` and ``//``,
  ``<<`` and ``>>``, ``&`` and ``|``, ``^`` for ``|``, ``and`` and ``or``, ``==`` and
  ``!=``, ``<`` and ``>``, ``<=`` and ``>=``), in expressions and augmented assignments;
* **constant**: an integer constant one off (``0`` for ``1``, ``10**9 + 6`` for
  ``10**9 + 7``), except where it only sizes the stack or the recursion limit.

Functions' mutants (``augment``'s MINI on HumanEval and MBPP) use
:data:`FUNCTION_KINDS`, the first five; a whole program (a stdin task's reference) has
:data:`KINDS`, all of them, and its module-level code mutated too (``module=True``: a
program's behaviour is there, not only in its functions).

Pure: source in, mutant sources out (each compiles; duplicates and the original
are dropped). Mutants are untrusted code, only ever run through the sandbox.
"""

from __future__ import annotations

import ast
import contextlib
import copy
from collections import deque
from collections.abc import Callable, Iterator, Mapping

from evalplus_ng.reduce.mutants import Mutant

#: Calls whose result a slip may forget to use: the argument or the object is kept.
_FORGET_FUNCTIONS = frozenset({"sorted", "abs", "set", "reversed", "list", "int", "round"})
_FORGET_METHODS = frozenset({"lower", "upper", "strip", "lstrip", "rstrip", "casefold"})
_FLIP: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
}


def _one(delta: int) -> ast.expr:
    return ast.Constant(abs(delta))


def _shift(node: ast.expr, delta: int) -> ast.expr:
    """``node + 1`` or ``node - 1`` (a constant is folded)."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return ast.Constant(node.value + delta)
    return ast.BinOp(copy.deepcopy(node), ast.Add() if delta > 0 else ast.Sub(), _one(delta))


def _is_range(node: ast.AST) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == "range" and 1 <= len(node.args) <= 3 and not node.keywords)


#: One site's variants: given a node (and whether it is a statement of the function's
#: own body), each way to replace it (None: the statement removed).
Variants = Callable[[ast.AST, bool], list[ast.AST | None]]


def _bound_variants(node: ast.AST, _top: bool) -> list[ast.AST | None]:
    out: list[ast.AST | None] = []
    if _is_range(node):
        assert isinstance(node, ast.Call)
        args = node.args
        if len(args) == 1:
            out.append(ast.Call(node.func, [ast.Constant(1), args[0]], []))
        for index in range(min(len(args), 2)):
            for delta in (-1, 1):
                changed = copy.deepcopy(node)
                changed.args[index] = _shift(args[index], delta)
                out.append(changed)
    elif isinstance(node, ast.Slice) and node.step is None:
        for field in ("lower", "upper"):
            bound = getattr(node, field)
            if bound is None:
                continue
            for delta in (-1, 1):
                sliced = copy.deepcopy(node)
                setattr(sliced, field, _shift(bound, delta))
                out.append(sliced)
    return out


def _skip_variants(node: ast.AST, _top: bool) -> list[ast.AST | None]:
    if not isinstance(node, ast.For) or _is_range(node.iter):
        return []
    out: list[ast.AST | None] = []
    for lower, upper in ((ast.Constant(1), None), (None, ast.Constant(-1))):
        changed = copy.deepcopy(node)
        changed.iter = ast.Subscript(ast.Call(ast.Name("list", ast.Load()),
                                              [copy.deepcopy(node.iter)], []),
                                     ast.Slice(lower, upper, None), ast.Load())
        out.append(changed)
    return out


def _guard_variants(node: ast.AST, top: bool) -> list[ast.AST | None]:
    if (top and isinstance(node, ast.If) and not node.orelse
            and len(node.body) == 1 and isinstance(node.body[0], (ast.Return, ast.Raise))):
        return [None]  # the statement removed
    return []


def _forget_variants(node: ast.AST, _top: bool) -> list[ast.AST | None]:
    if not isinstance(node, ast.Call) or node.keywords:
        return []
    func = node.func
    if isinstance(func, ast.Name) and func.id in _FORGET_FUNCTIONS and len(node.args) == 1:
        return [copy.deepcopy(node.args[0])]
    if (isinstance(func, ast.Attribute) and func.attr in _FORGET_METHODS
            and not node.args):
        return [copy.deepcopy(func.value)]
    return []


def _compare_variants(node: ast.AST,
                      table: Mapping[type[ast.cmpop], type[ast.cmpop]]) -> list[ast.AST | None]:
    """A comparison with one operator replaced by ``table``'s, a variant for each operator
    ``table`` has (``a < b <= c``: two with :data:`_FLIP`); none for another node."""
    if not isinstance(node, ast.Compare):
        return []
    out: list[ast.AST | None] = []
    for index, op in enumerate(node.ops):
        other = table.get(type(op))
        if other is not None:
            changed = copy.deepcopy(node)
            changed.ops[index] = other()
            out.append(changed)
    return out


def _strict_variants(node: ast.AST, _top: bool) -> list[ast.AST | None]:
    return _compare_variants(node, _FLIP)


_SWAP_BINARY: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult,
    ast.LShift: ast.RShift, ast.RShift: ast.LShift, ast.BitAnd: ast.BitOr,
    ast.BitOr: ast.BitAnd, ast.BitXor: ast.BitOr,
}
_SWAP_COMPARE: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Lt: ast.Gt, ast.Gt: ast.Lt,
    ast.LtE: ast.GtE, ast.GtE: ast.LtE,
}


def _operator_variants(node: ast.AST, _top: bool) -> list[ast.AST | None]:
    out: list[ast.AST | None] = []
    if isinstance(node, (ast.BinOp, ast.AugAssign)):
        swapped = _SWAP_BINARY.get(type(node.op))
        if swapped is not None:
            changed = copy.deepcopy(node)
            changed.op = swapped()
            out.append(changed)
    elif isinstance(node, ast.BoolOp):
        changed_bool = copy.deepcopy(node)
        changed_bool.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        out.append(changed_bool)
    elif isinstance(node, ast.Compare):
        out = _compare_variants(node, _SWAP_COMPARE)
    return out


def _constant_variants(node: ast.AST, _top: bool) -> list[ast.AST | None]:
    if not (isinstance(node, ast.Constant) and type(node.value) is int):
        return []
    return [ast.Constant(node.value + delta) for delta in (-1, 1)]


#: The kinds, in the order their mutants are listed.
KINDS: dict[str, Variants] = {
    "bound": _bound_variants,
    "skip": _skip_variants,
    "guard": _guard_variants,
    "forget": _forget_variants,
    "strict": _strict_variants,
    "operator": _operator_variants,
    "constant": _constant_variants,
}
#: The kinds a function's mutants have (MINI's ``slips`` requirement).
FUNCTION_KINDS = ("bound", "skip", "guard", "forget", "strict")

#: Calls whose integer arguments only size the machine (a changed one changes nothing
#: a test can see): a program's constants there are not mutated.
_SIZING_CALLS = frozenset({"setrecursionlimit", "stack_size"})


def _function_nodes(tree: ast.Module, module: bool) -> Iterator[tuple[ast.AST, bool]]:
    """Nodes inside the module's functions (module-level code is setup, not behaviour,
    unless ``module``: a program's), each with whether it is a statement of a function's
    own body (where an edge-case guard sits). Nothing under a call in
    :data:`_SIZING_CALLS`."""
    for top in tree.body:
        if isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for statement in top.body:
                for node in _walk(statement):
                    yield node, node is statement
        elif module:
            for node in _walk(top):
                yield node, False


def _walk(root: ast.AST) -> Iterator[ast.AST]:
    """``ast.walk``, pruned at sizing calls."""
    todo = deque([root])
    while todo:
        node = todo.popleft()
        if isinstance(node, ast.Call) and _called_name(node) in _SIZING_CALLS:
            continue
        yield node
        todo.extend(ast.iter_child_nodes(node))


def _called_name(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def slip_sources(source: str, kinds: tuple[str, ...] = FUNCTION_KINDS,
                 module: bool = False) -> list[Mutant]:
    """Every slip of ``kinds`` at every site of ``source``'s functions (and, if
    ``module``, of its module-level code), in source order of the sites (then kind
    order); each compiles and differs from the original and from every earlier one."""
    tree = ast.parse(source)
    seen = {ast.dump(tree)}
    sites: list[tuple[int, int, ast.AST, ast.AST | None]] = []
    for node, top in _function_nodes(tree, module):
        for rank, kind in enumerate(kinds):
            for replacement in KINDS[kind](node, top):
                line = getattr(node, "lineno", 0)
                column = getattr(node, "col_offset", 0)
                sites.append((line * 1000 + column, rank, node, replacement))
    places = _places(tree)
    mutants: list[Mutant] = []
    for position, _rank, node, replacement in sorted(sites, key=lambda s: (s[0], s[1])):
        if id(node) not in places:
            continue
        with _applied(places[id(node)], replacement) as changed:
            if not changed:
                continue
            dumped = ast.dump(tree)
            if dumped in seen:
                continue
            try:
                code = ast.unparse(ast.fix_missing_locations(tree))
                compile(code, "<slip>", "exec")
            except (SyntaxError, ValueError):
                continue
        seen.add(dumped)
        mutants.append(Mutant(len(mutants), position // 1000, code))
    return mutants


#: Where a node sits: its parent, the parent's field, and its index when that is a list.
Place = tuple[ast.AST, str, int | None]


def _places(root: ast.AST) -> dict[int, Place]:
    """Every node under ``root`` by ``id``, with its place."""
    places: dict[int, Place] = {}
    for parent in ast.walk(root):
        for field, value in ast.iter_fields(parent):
            if isinstance(value, list):
                for index, item in enumerate(value):
                    if isinstance(item, ast.AST):
                        places[id(item)] = (parent, field, index)
            elif isinstance(value, ast.AST):
                places[id(value)] = (parent, field, None)
    return places


@contextlib.contextmanager
def _applied(place: Place, replacement: ast.AST | None) -> Iterator[bool]:
    """The tree with the node at ``place`` replaced by a copy of ``replacement`` (None:
    the statement removed; a body left empty gets a ``pass``) while the block runs, put
    back after; yields False, changing nothing, where nothing can be removed."""
    parent, field, index = place
    if index is None:
        if replacement is None:
            yield False
            return
        old = getattr(parent, field)
        setattr(parent, field, copy.deepcopy(replacement))
        try:
            yield True
        finally:
            setattr(parent, field, old)
        return
    items = getattr(parent, field)
    saved = list(items)
    if replacement is None:
        del items[index]
        if not items:  # a body cannot be empty
            items.append(ast.Pass())
    else:
        items[index] = copy.deepcopy(replacement)
    try:
        yield True
    finally:
        items[:] = saved
