"""EvalPlus 0.3.1's sanitizer on Python's own parser: the program EvalPlus's workflow judges.

EvalPlus's documented workflow is ``evalplus.sanitize``, then ``evalplus.evaluate`` on
its output. The sanitizer takes the answer (a ``solution`` as written, else the prompt, a
newline and the ``completion``), keeps its longest run of lines that parses
(:func:`code_extract`), and of that run's top-level statements every import and the
definitions the entry point reaches (:func:`extract`); the evaluator runs that text as
it is. :func:`program` is that text, so that ``evalplus-ng evaluate``'s default verdicts
are EvalPlus's. Nothing here repairs a sample: a forgotten import stays forgotten
(``--repair``, :mod:`evalplus_ng.tasks.sanitize`, is the sanitizer that adds it).

EvalPlus reads the run with tree-sitter. The run parses, so Python's parser sees the same
statements, and EvalPlus's rules, spelt in tree-sitter's node kinds, read in :mod:`ast`:

* every ``import`` and ``from ... import`` is kept, but ``from __future__ import``
  (tree-sitter's ``future_import_statement``, a kind EvalPlus does not list);
* a *definition* is a class, a function with a ``return`` somewhere inside it, or an
  assignment (``=``, or an annotation; not ``+=``), named by its target when that is a
  plain name; a decorated class or function is another kind (``decorated_definition``)
  and is dropped; only the first definition of a name counts (a function without a
  ``return`` does not take its name);
* the definitions kept are those the entry point reaches, each one reaching every name
  its text spells as an identifier (variables, attributes, parameters, keywords,
  imported names, its own name);
* each kept statement is cut from the run by its exact span, imports first, one a line,
  and the whole stripped; when nothing is kept, the run itself is the program. A class's
  or function's span is tree-sitter's: it runs on over a comment that ends its last line
  and over the comment lines after it indented at least as deep as its body.

Pure and deterministic: the code is parsed, never run.
"""

from __future__ import annotations

import ast
import re
import warnings
from collections.abc import Iterator, Sequence

__all__ = ["code_extract", "extract", "program"]

_LINE_BREAK = re.compile(rb"\r\n|\r|\n")
#: What may follow a block's last statement on its line and still belong to the block.
_LINE_TAIL = re.compile(rb"[ \t\f]*(;)?[ \t\f]*(#[^\r\n]*)?")


def program(answer: str, prompt: str, entry_point: str, solution: bool) -> str:
    """The code ``evalplus.evaluate`` runs for one sample after ``evalplus.sanitize``: a
    ``solution`` sanitized as written, a completion after the prompt and a newline."""
    return extract(answer if solution else prompt + "\n" + answer, entry_point)


def extract(code: str, entry_point: str) -> str:
    """``evalplus.sanitize.sanitize(code, entry_point)``: the imports and the definitions
    ``entry_point`` reaches of the longest parseable run of ``code``, else that run."""
    run = code_extract(code)
    tree = _parse(run)
    kept = "" if tree is None else _kept(run, tree, entry_point).strip()
    return kept or run


def code_extract(text: str) -> str:
    """EvalPlus's ``code_extract``: of the runs of two or more lines that parse, the one
    with the most non-blank lines (the first such, in order of first then last line);
    the first line when none parses.

    EvalPlus parses every run (cubic in the lines). This goes through first lines in
    order, and from each tries only the runs that would beat the best so far, longest
    first: the same answer, in one parse for code that parses as a whole.
    """
    lines = text.split("\n")
    filled = [0]  # filled[k]: non-blank lines among the first k
    for line in lines:
        filled.append(filled[-1] + bool(line.strip()))
    best, pair = 0, (0, 0)
    for first in range(len(lines)):
        if filled[-1] - filled[first] <= best:
            break  # no run from here on can have more non-blank lines
        last = _best_last(lines, filled, first, best)
        if last is not None:
            best, pair = filled[last + 1] - filled[first], (first, last)
    return "\n".join(lines[pair[0] : pair[1] + 1])


def _best_last(lines: Sequence[str], filled: Sequence[int], first: int,
               best: int) -> int | None:
    """The last line of the run from ``first`` that parses with the most non-blank lines,
    more than ``best`` (the nearest, on a tie), or None."""
    end = min(len(lines), _indented_token_line(lines, first))
    last = end - 1
    while last > first and filled[last + 1] - filled[first] > best:
        count = filled[last + 1] - filled[first]
        low = last
        while low - 1 > first and filled[low] - filled[first] == count:
            low -= 1  # runs that differ from this one by blank lines at the end
        for candidate in range(low, last + 1):
            if _parse("\n".join(lines[first : candidate + 1])) is not None:
                return candidate
        last = low - 1
    return None


def _indented_token_line(lines: Sequence[str], first: int) -> int:
    """The first line from ``first`` holding code (not blank, not only a comment) when it
    is indented: every run that reaches it fails (``unexpected indent``); else no bound."""
    for index in range(first, len(lines)):
        line = lines[index]
        rest = line.lstrip(" \t")
        if not line.strip() or rest.startswith("#"):
            continue
        if len(rest) < len(line) and rest[:1] not in ("\\", "\f"):
            return index
        break
    return len(lines)


def _parse(source: str) -> ast.Module | None:
    """``source`` parsed, or None where EvalPlus's ``syntax_check`` says it does not parse
    (and where it would crash: null bytes, nesting past the parser's stack)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # invalid escapes only warn
        try:
            return ast.parse(source)
        except (SyntaxError, MemoryError, ValueError, RecursionError):
            return None


def _kept(run: str, tree: ast.Module, entry_point: str) -> str:
    """EvalPlus's ``extract_target_code_or_empty`` on a run that parses."""
    data = run.encode("utf-8")
    starts = [0, 0]  # starts[k]: byte offset of line k (1-based, as ast counts lines)
    starts += [match.end() for match in _LINE_BREAK.finditer(data)]
    imports: list[ast.stmt] = []
    definitions: list[tuple[str | None, ast.stmt]] = []
    taken: set[str | None] = set()
    for node in tree.body:
        if isinstance(node, ast.Import) or (
                isinstance(node, ast.ImportFrom) and node.module != "__future__"):
            imports.append(node)
            continue
        if _is_definition(node):
            name = _name(node)
            if name not in taken:
                definitions.append((name, node))
                taken.add(name)
    reached = _reached(entry_point, {name: _identifiers(node) for name, node in definitions
                                     if name is not None})
    kept = [*imports, *(node for name, node in definitions if name in reached)]
    return "\n".join(_text(data, starts, node) for node in kept)


def _is_definition(node: ast.stmt) -> bool:
    """A class, a function with a ``return``, or an assignment, undecorated."""
    if isinstance(node, ast.ClassDef):
        return not node.decorator_list
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return not node.decorator_list and any(
            isinstance(sub, ast.Return) for sub in ast.walk(node))
    return isinstance(node, ast.Assign | ast.AnnAssign)


def _name(node: ast.stmt) -> str | None:
    """What EvalPlus names a definition: the first identifier among its node's children,
    which for an assignment is its first target when that is a name (unparenthesized)."""
    if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
        return node.name
    target = node.targets[0] if isinstance(node, ast.Assign) else (
        node.target if isinstance(node, ast.AnnAssign) else None)
    if (isinstance(target, ast.Name) and target.lineno == node.lineno
            and target.col_offset == node.col_offset):
        return target.id
    return None


def _reached(entry_point: str, uses: dict[str, set[str]]) -> set[str]:
    """Names reachable from ``entry_point`` through ``uses`` (the entry point included)."""
    reached, stack = {entry_point}, [entry_point]
    while stack:
        for name in uses.get(stack.pop(), ()):
            if name not in reached:
                reached.add(name)
                stack.append(name)
    return reached


def _identifiers(root: ast.AST) -> set[str]:
    """Every name tree-sitter reads as an identifier in a statement's text."""
    return {name for node in ast.walk(root) for name in _names_of(node)}


def _names_of(node: ast.AST) -> Iterator[str]:
    """The identifiers one node spells itself (its children spell theirs)."""
    if isinstance(node, ast.Name):
        yield node.id
    elif isinstance(node, ast.Attribute):
        yield node.attr
    elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        yield node.name
    elif isinstance(node, ast.arg | ast.keyword) and node.arg is not None:
        yield node.arg
    elif isinstance(node, ast.alias):
        yield from (part for part in node.name.split(".") if part != "*")
        if node.asname:
            yield node.asname
    elif isinstance(node, ast.ImportFrom) and node.module:
        yield from node.module.split(".")
    elif isinstance(node, ast.Global | ast.Nonlocal):
        yield from node.names
    elif isinstance(node, ast.ExceptHandler | ast.MatchAs | ast.MatchStar) and node.name:
        yield node.name
    elif isinstance(node, ast.MatchMapping) and node.rest:
        yield node.rest
    elif isinstance(node, ast.MatchClass):
        yield from node.kwd_attrs


def _text(data: bytes, starts: Sequence[int], node: ast.stmt) -> str:
    """A statement's exact text (positions are UTF-8 byte offsets within lines)."""
    begin = starts[node.lineno] + node.col_offset
    return data[begin : _end(data, starts, node)].decode("utf-8", errors="replace")


def _end(data: bytes, starts: Sequence[int], node: ast.stmt) -> int:
    """Where tree-sitter ends a statement: where :mod:`ast` does, but for a class or a
    function, whose block takes in a comment ending its last line and then the comment
    lines after it indented at least as deep as the block (its scanner emits the block's
    dedent only before a line less indented, code or comment)."""
    line = node.end_lineno if node.end_lineno is not None else node.lineno
    end = starts[line] + (node.end_col_offset or 0)
    if not isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
        return end
    lines = _LINE_BREAK.split(data)  # as ast counts them
    tail = _LINE_TAIL.match(data, end)
    if tail is not None:
        end = tail.end(2) if tail.group(2) is not None else tail.end(1) if tail.group(1) \
            else end
    if node.body[0].lineno == node.lineno:
        return end  # a body on the header's line: no indented block
    depth = _indent_width(lines[node.body[0].lineno - 1])
    for number in range(line, len(lines)):  # 0-based: the lines after the last one
        text = lines[number]
        rest = text.lstrip(b" \t\f\r")
        if not rest:
            continue
        if not rest.startswith(b"#") or _indent_width(text) < depth:
            break
        end = starts[number + 1] + len(text)
    return end


def _indent_width(line: bytes) -> int:
    """Indentation as tree-sitter's Python scanner counts it: a tab 8, a form feed or a
    carriage return back to 0."""
    width = 0
    for byte in line:
        if byte == 0x20:
            width += 1
        elif byte == 0x09:
            width += 8
        elif byte in (0x0C, 0x0D):
            width = 0
        else:
            break
    return width
