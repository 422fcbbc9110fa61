"""Turn messy LLM completions for HumanEval-style tasks into runnable Python modules, repairing.

:func:`sanitize` takes a raw completion (a bare function body, a whole function, markdown with
fenced code, prose, trailing test code, truncated output...) plus the task prompt and entry-point
name, and returns module source that defines the entry point together with the prompt's imports
and helpers, minus any top-level test code the model appended. The code is only inspected with
:mod:`ast`; nothing is ever executed, so the function is pure and deterministic.

It repairs what changes a sample's meaning (imports the model forgot are added, a body is
found in prose or re-indented, a helper the answer broke is dropped for the prompt's
own), so ``evaluate`` uses it only with ``--repair``; by default a sample's program is the
one EvalPlus's own sanitizer makes (:mod:`evalplus_ng.tasks.extract`).
"""

from __future__ import annotations

import ast
import builtins
import re
import textwrap
import warnings
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

__all__ = ["prepare", "sanitize"]

_FENCE_RE = re.compile(r"^\s*(?:```|~~~)")
# Tokens that end a model's turn: anything after them is never part of the answer.
_EOS_TOKENS = ("<|endoftext|>", "</s>", "<|im_end|>", "<|EOT|>", "<|eot_id|>", "<|end|>")
# A hallucinated next user turn; everything from it on is chatter, not code.
_USER_TURN_RE = re.compile(
    r"^\s*(?:#+\s*)?(?:USER|User|HUMAN|Human|Instruction|INSTRUCTION|Question|QUESTION)\s*:"
)
# Lines that may start a chunk of code even when indented (e.g. a markdown indented block).
_INDENTED_START_RE = re.compile(
    r"^\s+(?:(?:async\s+)?def\s|class\s|import\s|from\s\S+\simport\s|@)"
)

_BUILTIN_NAMES = frozenset(dir(builtins))

# Names a model commonly uses without importing, and the import that binds each one.
_TYPING_NAMES = tuple(
    "Any Callable DefaultDict Deque Dict FrozenSet Generator Iterable Iterator List Mapping "
    "Optional Sequence Set Tuple Type Union".split()
)
_STDLIB_MODULES = tuple(
    "bisect collections copy fractions functools hashlib heapq itertools math operator random "
    "re statistics string sys".split()
)
_FROM_IMPORTS: dict[str, tuple[str, ...]] = {
    "typing": _TYPING_NAMES,
    "collections": ("Counter", "OrderedDict", "defaultdict", "deque"),
    "functools": ("cmp_to_key", "lru_cache", "reduce"),
    "itertools": ("accumulate", "combinations", "permutations"),
    "math": ("ceil", "factorial", "floor", "gcd", "sqrt"),
    "fractions": ("Fraction",),
    "heapq": ("heapify", "heappop", "heappush"),
}

# Calls that are fine at import time in a constant definition (pure builtins).
_PURE_CALLS = frozenset(
    "abs all any bin bool bytes chr complex dict divmod enumerate filter float frozenset hex "
    "int isinstance iter len list map max min object oct ord pow range repr reversed round "
    "set slice sorted str sum tuple type zip".split()
)
# Calls that only ever belong to test/driver code: never run them at import time.
_DRIVER_CALLS = frozenset(
    "breakpoint compile eval exec exit help input open print quit __import__".split()
)
_DRIVER_MODULES = frozenset({"doctest", "os", "pytest", "subprocess", "sys", "time", "unittest"})

_DefNode = ast.FunctionDef | ast.AsyncFunctionDef


@dataclass(frozen=True)
class _Prompt:
    """The parts of the task prompt that sanitizing needs."""

    text: str  # prompt source, ending with a newline
    carry: str  # a trailing partial line that the completion continues
    tree: ast.Module | None
    tree_source: str  # what ``tree`` was parsed from (the prompt may need a stub body)
    body_indent: str


@dataclass(frozen=True)
class _Chunk:
    """A parseable piece of candidate code."""

    source: str
    tree: ast.Module


@dataclass(frozen=True)
class _Stmt:
    """One top-level statement with its exact source text."""

    node: ast.stmt
    text: str


def sanitize(completion: str, prompt: str, entry_point: str) -> str:
    """Return runnable module source defining ``entry_point`` from a messy ``completion``."""
    try:
        return _sanitize(completion, prompt, entry_point)
    except RecursionError:
        # Pathologically nested code: leave the verdict to the evaluator, as for unparseable code.
        return prompt + completion


def prepare(answer: str, prompt: str, entry_point: str, solution: bool) -> str:
    """The code to run for one sample: a ``solution`` that parses and defines the entry
    point as given (as EvalPlus runs it), any other answer sanitized.

    This parses the answer, so its cost follows the answer's text: the evaluator calls it
    in a bounded worker (:func:`evalplus_ng.sandbox.bounded.bounded_map`).
    """
    if solution and _defines(answer, entry_point):
        return answer
    return sanitize(answer, prompt, entry_point)


def _defines(code: str, name: str) -> bool:
    """True when ``code`` parses and defines function ``name`` at top level."""
    tree = _parse(code)
    # Absurd nesting (``1+1+...`` ten thousand times) overflows the parser's stack:
    # such code is sanitized like any other, and then fails in the sandbox.
    return tree is not None and _find_def(tree, name) is not None


def _sanitize(completion: str, prompt: str, entry_point: str) -> str:
    """Do the work of :func:`sanitize`."""
    info = _read_prompt(prompt, entry_point)
    lines = _normalize(completion).split("\n")
    blocks = _fenced_blocks(lines)
    plain = [line for line in lines if not _FENCE_RE.match(line)]

    # Fenced code wins over text outside the fences, which is prose. A definition of the entry
    # point, even an empty one, is what the model meant to run: prefer it to reading a body.
    pools = [_chunks_of_blocks(blocks)] if blocks else []
    pools.append(_scan_chunks(plain))
    for allow_stub in (False, True):
        for pool in pools:
            main = _pick_definition(pool, entry_point, allow_stub=allow_stub)
            if main is not None:
                return _whole_module(info, main, pool, entry_point)

    # No definition: the usual HumanEval contract, a body that continues the prompt.
    for body in [*blocks, plain]:
        built = _body_module(info, body, entry_point)
        if built is not None:
            return built
    return prompt + completion


# --- input normalisation -------------------------------------------------------------------


def _normalize(completion: str) -> str:
    """Unify newlines and cut off end-of-turn tokens and hallucinated next turns."""
    text = completion.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")
    text = text.lstrip("\ufeff")
    for token in _EOS_TOKENS:
        text = text.split(token, 1)[0]
    lines = text.split("\n")
    seen_code = False
    for index, line in enumerate(lines):
        # A "User:" line before any code is part of the chatter that precedes the answer.
        if seen_code and _USER_TURN_RE.match(line):
            lines = lines[:index]
            break
        seen_code = seen_code or _looks_like_code(line)
    text = "\n".join(lines)
    if "\\_" in text and _parse(textwrap.dedent(text)) is None:
        # Markdown renderers escape underscores (``is\_prime``); a human would undo that.
        text = text.replace("\\_", "_")
    return text


def _looks_like_code(line: str) -> bool:
    """Tell whether a line plausibly starts Python code rather than prose."""
    stripped = line.strip()
    return bool(
        re.match(r"(?:(?:async\s+)?def|class|import|from|return|if|for|while|@)\b", stripped)
        or re.match(r"[A-Za-z_][\w.\[\]]*\s*(?:=|\+=|-=|\()", stripped)
    )


def _read_prompt(prompt: str, entry_point: str) -> _Prompt:
    """Parse the prompt and find the indentation of the entry point's body."""
    text, carry = prompt, ""
    if text and not text.endswith("\n"):
        head, _, last = text.rpartition("\n")
        text = head + "\n" if head else ""
        # A whitespace-only tail is just indentation the completion may or may not repeat.
        carry = last if last.strip() else ""
    tree_source = text
    tree = _parse(text)
    if tree is None:
        # A prompt that stops right after the signature still has helpers worth keeping.
        tree_source = text + "    pass\n"
        tree = _parse(tree_source)
    indent = "    "
    if tree is not None:
        fn = _find_def(tree, entry_point)
        if fn is not None and fn.body:
            first = tree_source.split("\n")[fn.body[0].lineno - 1]
            indent = _leading_ws(first) or "    "
    return _Prompt(text=text, carry=carry, tree=tree, tree_source=tree_source, body_indent=indent)


# --- finding code ----------------------------------------------------------------------------


def _parse(source: str) -> ast.Module | None:
    """Parse source, returning None instead of raising on any syntax problem."""
    result = _parse_or_error_line(source)
    return result if isinstance(result, ast.Module) else None


def _parse_or_error_line(source: str) -> ast.Module | int:
    """Parse source; on failure return the 1-based line where the parser gave up."""
    with warnings.catch_warnings():
        # Invalid escapes such as "\_" in docstrings only warn; keep the parse quiet.
        warnings.simplefilter("ignore")
        try:
            return ast.parse(source)
        except SyntaxError as err:
            return err.lineno or source.count("\n") + 1
        except (ValueError, RecursionError, MemoryError):
            # Null bytes or absurd nesting: blame the end so callers trim one line at a time.
            return source.count("\n") + 1


def _fenced_blocks(lines: Sequence[str]) -> list[list[str]]:
    """Return the contents of markdown code fences; an unclosed last fence runs to the end."""
    blocks: list[list[str]] = []
    current: list[str] | None = None
    for line in lines:
        if _FENCE_RE.match(line):
            if current is None:
                current = []
            else:
                blocks.append(current)
                current = None
        elif current is not None:
            current.append(line)
    if current:
        blocks.append(current)
    return [block for block in blocks if any(line.strip() for line in block)]


def _chunks_of_blocks(blocks: Sequence[Sequence[str]]) -> list[_Chunk]:
    """Scan every fenced block for parseable chunks, in order."""
    return [chunk for block in blocks for chunk in _scan_chunks(block)]


def _scan_chunks(lines: Sequence[str]) -> list[_Chunk]:
    """Split text into maximal parseable runs of code, skipping prose between them."""
    chunks: list[_Chunk] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        indent = _leading_ws(line)
        if not line.strip() or (indent and not _INDENTED_START_RE.match(line)):
            index += 1
            continue
        segment: list[str] = []
        for later in lines[index:]:
            if later.strip() and not later.startswith(indent):
                break
            segment.append(later[len(indent) :])
        found = _longest_parseable_prefix(segment)
        if found is None:
            index += 1
            continue
        used, tree = found
        chunks.append(_Chunk("\n".join(segment[:used]), tree))
        index += used
    return chunks


def _longest_parseable_prefix(lines: Sequence[str]) -> tuple[int, ast.Module] | None:
    """Trim lines from the end (guided by the parser's error line) until the rest parses."""
    end = len(lines)
    while end > 0:
        result = _parse_or_error_line("\n".join(lines[:end]))
        if isinstance(result, ast.Module):
            return (end, result) if result.body else None
        end = min(end - 1, result - 1)
    return None


def _find_def(tree: ast.Module, name: str) -> _DefNode | None:
    """Return the last top-level definition of ``name`` (the one that wins at run time)."""
    found: _DefNode | None = None
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == name:
            found = node
    return found


def _is_stub(fn: _DefNode) -> bool:
    """Tell whether a function has no real body (only a docstring, pass, ... or a raise)."""
    for node in fn.body:
        if isinstance(node, ast.Pass):
            continue
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # the docstring, or a bare ``...``
        if isinstance(node, ast.Raise) and "NotImplementedError" in ast.dump(node):
            continue
        return False
    return True


def _pick_definition(pool: Sequence[_Chunk], name: str, *, allow_stub: bool) -> _Chunk | None:
    """Pick the last chunk that defines ``name``; later answers usually correct earlier ones."""
    picked: _Chunk | None = None
    for chunk in pool:
        fn = _find_def(chunk.tree, name)
        if fn is not None and (allow_stub or not _is_stub(fn)):
            picked = chunk
    return picked


# --- the two ways of building a module -----------------------------------------------------


def _whole_module(info: _Prompt, main: _Chunk, pool: Sequence[_Chunk], entry_point: str) -> str:
    """Build a module from a chunk that defines the entry point itself."""
    code = _statements(main.source, main.tree.body)
    defined = {
        name
        for stmt in code
        if isinstance(stmt.node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        for name in _bound_names(stmt.node)
    }
    # "from solution import f" in a driver would shadow (or fail to find) the code's own f.
    code = [stmt for stmt in code if not _imports_any(stmt.node, defined | {entry_point})]
    prompt_stmts: list[_Stmt] = []
    if info.tree is not None:
        for stmt in _statements(info.tree_source, info.tree.body):
            names = _bound_names(stmt.node)
            if _is_import(stmt.node) or not names & (defined | {entry_point}):
                prompt_stmts.append(stmt)
    spare = [
        stmt
        for chunk in pool
        if chunk is not main
        for stmt in _statements(chunk.source, chunk.tree.body)
        if _is_definition(stmt.node) or _is_simple_assignment(stmt.node, frozenset())
    ]
    return _render(prompt_stmts, code, spare) or info.text + info.carry + main.source + "\n"


def _body_module(info: _Prompt, lines: Sequence[str], entry_point: str) -> str | None:
    """Build a module from a function body that continues the prompt, fixing its indentation."""
    starts = [0]
    first_indented = next(
        (i for i, line in enumerate(lines) if line.strip() and line[:1] in " \t"), None
    )
    if first_indented and not any(_looks_like_code(line) for line in lines[:first_indented]):
        starts.append(first_indented)  # skip prose that precedes an indented body
    for allow_trim in (False, True):
        for start in starts:
            for variant in _indent_variants(info, lines[start:]):
                built = _try_body(info, variant, entry_point, allow_trim=allow_trim)
                if built is not None:
                    return built
    return None


def _indent_variants(info: _Prompt, lines: Sequence[str]) -> list[list[str]]:
    """Candidate re-indentations of a body: as is, first line fixed, all lines re-based."""
    if "\t" not in info.body_indent:
        lines = [_expand_leading_tabs(line) for line in lines]
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None:
        return []
    body, tail = _split_tail(lines, first)
    variants = [[*variant, *tail] for variant in _body_variants(info, body, first)]
    if tail:
        # The unindented "tail" may be the rest of a body written with no indentation at all.
        variants += _body_variants(info, list(lines), first)
    unique: list[list[str]] = []
    for variant in variants:
        if variant not in unique:
            unique.append(variant)
    return unique


def _body_variants(info: _Prompt, body: list[str], first: int) -> list[list[str]]:
    """Re-indentations of one body: as is, first line fixed, re-based, first line aligned."""
    indent = info.body_indent
    head = list(body)
    head[first] = indent + body[first].lstrip()
    variants = [list(body), head, _reindent(body, indent)]
    rest = [_indent_width(line) for line in body[first + 1 :] if line.strip()]
    if rest and min(rest) > 0:
        # The first line lost its indentation (the prompt ended with it); align it with the rest.
        aligned = list(body)
        aligned[first] = " " * min(rest) + body[first].lstrip()
        variants.append(_reindent(aligned, indent))
    if info.carry:
        variants.insert(0, [*body[:first], info.carry + body[first].lstrip(), *body[first + 1 :]])
    return variants


def _split_tail(lines: Sequence[str], first: int) -> tuple[list[str], list[str]]:
    """Split a body from the unindented code after it (a driver or more definitions)."""
    seen_indented = False
    for index in range(first, len(lines)):
        line = lines[index]
        if not line.strip():
            continue
        if line[0] in " \t":
            seen_indented = True
        elif seen_indented:
            return list(lines[:index]), list(lines[index:])
    return list(lines), []


def _try_body(
    info: _Prompt, lines: Sequence[str], entry_point: str, *, allow_trim: bool
) -> str | None:
    """Append a body variant to the prompt; return the module if the entry point gets a body."""
    offset = info.text.count("\n")
    end = len(lines)
    while end > 0:
        source = info.text + "\n".join(lines[:end]) + "\n"
        result = _parse_or_error_line(source)
        bad_line = _misplaced_flow_line(result) if isinstance(result, ast.Module) else result
        if isinstance(result, ast.Module) and bad_line is None:
            fn = _find_def(result, entry_point)
            if fn is None or _is_stub(fn):
                return None
            stmts = _statements(source, result.body)
            prompt_part = [s for s in stmts if s.node.lineno <= offset]
            return _render(prompt_part, [s for s in stmts if s.node.lineno > offset], [])
        if not allow_trim or bad_line is None:
            return None
        end = min(end - 1, bad_line - offset - 1)
    return None


def _misplaced_flow_line(tree: ast.Module) -> int | None:
    """Line of a module-level return/yield/await: a body line that was not indented enough."""
    for node in _iter_scope(tree.body):
        if isinstance(node, ast.Return | ast.Yield | ast.YieldFrom | ast.Await):
            return node.lineno
    return None


def _expand_leading_tabs(line: str) -> str:
    """Replace tabs in a line's indentation by spaces so it can mix with the prompt's."""
    indent = _leading_ws(line)
    return indent.expandtabs(4) + line[len(indent) :]


def _leading_ws(line: str) -> str:
    """Return a line's indentation."""
    return line[: len(line) - len(line.lstrip(" \t"))]


def _indent_width(line: str) -> int:
    """Return the width of a line's leading whitespace."""
    return len(_leading_ws(line))


def _reindent(lines: Sequence[str], indent: str) -> list[str]:
    """Dedent lines to their common margin, then indent every non-blank line by ``indent``."""
    dedented = textwrap.dedent("\n".join(lines)).split("\n")
    return [indent + line if line.strip() else line for line in dedented]


# --- filtering and rendering -----------------------------------------------------------------


def _statements(source: str, body: Sequence[ast.stmt]) -> list[_Stmt]:
    """Pair each top-level statement with its exact source text."""
    lines = source.split("\n")
    out: list[_Stmt] = []
    for node in body:
        start_line, start_col = node.lineno, node.col_offset
        decorators = getattr(node, "decorator_list", [])
        if decorators:
            start_line, start_col = min(d.lineno for d in decorators), 0
        end_line = node.end_lineno or start_line
        end_col = node.end_col_offset if node.end_col_offset is not None else len(lines[-1])
        text = _slice(lines, start_line, start_col, end_line, end_col)
        out.append(_Stmt(node, text))
    return out


def _slice(lines: Sequence[str], line0: int, col0: int, line1: int, col1: int) -> str:
    """Cut source between two AST positions (columns are UTF-8 byte offsets)."""
    if line0 == line1:
        return lines[line0 - 1].encode()[col0:col1].decode(errors="replace")
    first = lines[line0 - 1].encode()[col0:].decode(errors="replace")
    last = lines[line1 - 1].encode()[:col1].decode(errors="replace")
    return "\n".join([first, *lines[line0 : line1 - 1], last])


def _render(prompt_stmts: list[_Stmt], code: list[_Stmt], spare: list[_Stmt]) -> str | None:
    """Assemble the final module: imports, prompt helpers, needed spare helpers, candidate."""
    imported = {
        name for s in [*prompt_stmts, *code] if _is_import(s.node) for name in _bound_names(s.node)
    }
    kept_code = [s for s in code if _is_definition(s.node) or _is_kept_try(s.node)]
    pulled = _pull_helpers([*prompt_stmts, *kept_code], spare)
    kept_ids = {id(s) for s in kept_code}
    chosen = _choose_assignments(
        [*prompt_stmts, *pulled, *kept_code],
        [s for s in code if id(s) not in kept_ids],
        frozenset(imported),
    )
    kept_ids |= {id(s) for s in chosen}
    code_out = [s for s in code if id(s) in kept_ids]
    # A constant the candidate redefines replaces the prompt's (as running both would).
    code_names = {n for s in code_out if not _is_import(s.node) for n in _bound_names(s.node)}
    prompt_kept = [
        s for s in prompt_stmts if not (_is_assign(s.node) and _bound_names(s.node) & code_names)
    ]
    ordered = _dedupe_imports([*prompt_kept, *pulled, *code_out])
    future = [s for s in ordered if _is_future(s.node)]
    rest = [s for s in ordered if not _is_future(s.node)]
    tree = _parse(_join(rest))
    if tree is None:
        return None
    lead = next((i for i, s in enumerate(rest) if not _is_import(s.node)), len(rest))
    # Added imports go right after the leading imports, so sanitizing again changes nothing.
    header = "\n".join([*(s.text for s in [*future, *rest[:lead]]), *_missing_imports(tree)])
    remainder = _join(rest[lead:])
    result = header + ("\n\n\n" if header and remainder else "") + remainder + "\n"
    return result if _parse(result) is not None else None


def _join(stmts: Sequence[_Stmt]) -> str:
    """Join statements: imports on consecutive lines, anything else two blank lines apart."""
    out: list[str] = []
    for index, stmt in enumerate(stmts):
        if index:
            both_imports = _is_import(stmts[index - 1].node) and _is_import(stmt.node)
            out.append("\n" if both_imports else "\n\n\n")
        out.append(stmt.text)
    return "".join(out)


def _dedupe_imports(stmts: list[_Stmt]) -> list[_Stmt]:
    """Drop import statements that repeat an earlier identical one."""
    seen: set[str] = set()
    out: list[_Stmt] = []
    for stmt in stmts:
        if _is_import(stmt.node):
            key = ast.dump(stmt.node)
            if key in seen:
                continue
            seen.add(key)
        out.append(stmt)
    return out


def _pull_helpers(kept: list[_Stmt], spare: list[_Stmt]) -> list[_Stmt]:
    """Take definitions from other chunks that the kept code uses but does not define."""
    pulled: list[_Stmt] = []
    while True:
        unbound = _free_names([s.node for s in [*kept, *pulled]]) - _BUILTIN_NAMES
        # The last spare definition of a name wins, as it would when running the text.
        providers = {
            id(s) for s in {n: s for s in spare for n in _bound_names(s.node) & unbound}.values()
        }
        fresh = [s for s in spare if id(s) in providers and all(s is not p for p in pulled)]
        if not fresh:
            return pulled
        pulled.extend(fresh)


def _choose_assignments(
    definitions: list[_Stmt], candidates: list[_Stmt], imported: frozenset[str]
) -> list[_Stmt]:
    """Keep constant assignments, and computed ones only when the kept code reads them."""
    chosen: list[_Stmt] = []
    pending = [s for s in candidates if _is_assign(s.node) or _is_recursion_limit(s.node)]
    while True:
        needed = _free_names([s.node for s in [*definitions, *chosen]])
        fresh = [
            s
            for s in pending
            if all(s is not c for c in chosen)
            and not _calls_driver(s.node)
            and (
                _is_recursion_limit(s.node)
                or _is_simple_assignment(s.node, imported)
                or bool(_target_roots(s.node) & needed)
            )
        ]
        if not fresh:
            return chosen
        chosen.extend(fresh)


def _missing_imports(tree: ast.Module) -> list[str]:
    """Import lines for well-known names the module uses but never binds."""
    bound = {n for node in tree.body for n in _bound_names(node)}
    missing = _free_names(tree.body) - bound - _BUILTIN_NAMES
    lines = [f"import {name}" for name in _STDLIB_MODULES if name in missing]
    for module, names in _FROM_IMPORTS.items():
        wanted = [name for name in names if name in missing]
        if wanted:
            lines.append(f"from {module} import {', '.join(wanted)}")
    return lines


# --- statement classification ----------------------------------------------------------------


def _is_import(node: ast.stmt) -> bool:
    """Tell whether a statement is an import."""
    return isinstance(node, ast.Import | ast.ImportFrom)


def _is_future(node: ast.stmt) -> bool:
    """Tell whether a statement is a ``from __future__`` import (which must come first)."""
    return isinstance(node, ast.ImportFrom) and node.module == "__future__"


def _is_definition(node: ast.stmt) -> bool:
    """Tell whether a statement only defines something (def, class or import)."""
    return isinstance(
        node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Import | ast.ImportFrom
    )


def _is_assign(node: ast.stmt) -> bool:
    """Tell whether a statement is an assignment of any kind."""
    return isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign)


def _is_kept_try(node: ast.stmt) -> bool:
    """Keep ``try: import x / except ImportError: ...`` style blocks of pure definitions."""
    if not isinstance(node, ast.Try):
        return False
    parts = [*node.body, *node.orelse, *node.finalbody]
    parts += [stmt for handler in node.handlers for stmt in handler.body]
    return all(
        _is_definition(s) or isinstance(s, ast.Pass) or _is_simple_assignment(s, frozenset())
        for s in parts
    )


def _imports_any(node: ast.stmt, names: set[str]) -> bool:
    """Tell whether an import statement binds one of ``names``."""
    return _is_import(node) and bool(_bound_names(node) & names)


def _is_recursion_limit(node: ast.stmt) -> bool:
    """Tell whether a statement is ``sys.setrecursionlimit(...)``, configuration not a test."""
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Attribute)
        and node.value.func.attr == "setrecursionlimit"
    )


def _calls(node: ast.AST) -> Iterator[ast.Call]:
    """Yield calls evaluated when a statement runs (lambda bodies are not run)."""
    for child in _iter_scope([node]):
        if isinstance(child, ast.Call):
            yield child


def _call_root(call: ast.Call) -> ast.expr:
    """Return the leftmost object of a call target: ``re`` for ``re.compile(...)``."""
    func: ast.expr = call.func
    while isinstance(func, ast.Attribute | ast.Subscript | ast.Call):
        func = func.func if isinstance(func, ast.Call) else func.value
    return func


def _calls_driver(node: ast.stmt) -> bool:
    """Tell whether a statement calls something only test/driver code would call."""
    for call in _calls(node):
        if isinstance(call.func, ast.Name) and call.func.id in _DRIVER_CALLS:
            return True
        root = _call_root(call)
        is_limit = isinstance(call.func, ast.Attribute) and call.func.attr == "setrecursionlimit"
        if isinstance(root, ast.Name) and root.id in _DRIVER_MODULES and not is_limit:
            return True
    return False


def _is_simple_assignment(node: ast.stmt, imported: frozenset[str]) -> bool:
    """Tell whether an assignment only builds a constant (no calls into candidate code)."""
    if not isinstance(node, ast.Assign) or not all(
        isinstance(t, ast.Name | ast.Tuple | ast.List) for t in node.targets
    ):
        return False
    for call in _calls(node.value):
        root = _call_root(call)
        if isinstance(root, ast.Constant):
            continue  # a method of a literal, such as "abc".split()
        if isinstance(root, ast.Name) and (
            root.id in _PURE_CALLS or root.id in imported or root.id in _STDLIB_MODULES
        ):
            continue
        return False
    return True


def _target_roots(node: ast.stmt) -> set[str]:
    """Names whose objects an assignment binds or mutates."""
    targets: list[ast.expr] = []
    if isinstance(node, ast.Assign):
        targets = list(node.targets)
    elif isinstance(node, ast.AnnAssign | ast.AugAssign):
        targets = [node.target]
    names: set[str] = set()
    for target in targets:
        for sub in ast.walk(target):
            if isinstance(sub, ast.Name):
                names.add(sub.id)
    return names


def _bound_names(node: ast.stmt) -> set[str]:
    """Names a top-level statement binds in the module namespace."""
    names: set[str] = set()
    for sub in _iter_scope([node]):
        if isinstance(sub, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(sub.name)
        elif isinstance(sub, ast.Import | ast.ImportFrom):
            names |= _alias_names(sub)
        elif isinstance(sub, ast.Name) and not isinstance(sub.ctx, ast.Load):
            names.add(sub.id)
    return names


def _alias_names(node: ast.Import | ast.ImportFrom) -> set[str]:
    """Names an import statement binds."""
    names: set[str] = set()
    for alias in node.names:
        if alias.name == "*":
            continue
        if alias.asname:
            names.add(alias.asname)
        elif isinstance(node, ast.Import):
            names.add(alias.name.split(".")[0])
        else:
            names.add(alias.name)
    return names


# --- scope analysis --------------------------------------------------------------------------


def _iter_scope(roots: Iterable[ast.AST]) -> Iterator[ast.AST]:
    """Yield nodes evaluated in the current scope; nested scopes are yielded but not entered."""
    stack = list(roots)[::-1]
    while stack:
        node = stack.pop()
        yield node
        children: list[ast.AST]
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            children = [*node.decorator_list, *_signature_parts(node.args)]
            if node.returns is not None:
                children.append(node.returns)
        elif isinstance(node, ast.Lambda):
            children = [d for d in [*node.args.defaults, *node.args.kw_defaults] if d is not None]
        elif isinstance(node, ast.ClassDef):
            children = [*node.decorator_list, *node.bases, *(k.value for k in node.keywords)]
        else:
            children = list(ast.iter_child_nodes(node))
        stack.extend(children[::-1])


def _signature_parts(args: ast.arguments) -> list[ast.expr]:
    """Defaults and annotations of a signature, which run in the enclosing scope."""
    parts: list[ast.expr] = [*args.defaults, *(d for d in args.kw_defaults if d is not None)]
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
    parts += [a.annotation for a in every if a is not None and a.annotation is not None]
    return parts


def _param_names(args: ast.arguments) -> set[str]:
    """Names a signature binds."""
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
    return {a.arg for a in every if a is not None}


def _free_names(body: Sequence[ast.AST]) -> set[str]:
    """Names read as globals by these module-level statements and bound by none of them."""
    out: set[str] = set()
    _collect_free(body, set(), frozenset(), is_class=False, out=out)
    return out


def _collect_free(
    body: Sequence[ast.AST],
    params: set[str],
    enclosing: frozenset[str],
    *,
    is_class: bool,
    out: set[str],
) -> None:
    """Add to ``out`` the names one scope reads but neither it nor enclosing functions bind."""
    local = set(params)
    declared_global: set[str] = set()
    loads: set[str] = set()
    nested: list[ast.AST] = []
    for node in _iter_scope(body):
        if isinstance(node, ast.Name):
            (loads if isinstance(node.ctx, ast.Load) else local).add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            local.add(node.name)
            nested.append(node)
        elif isinstance(node, ast.Lambda):
            nested.append(node)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            local |= _alias_names(node)
        elif isinstance(node, ast.Global):
            declared_global |= set(node.names)
        elif isinstance(node, ast.Nonlocal):
            local |= set(node.names)
        elif isinstance(node, ast.ExceptHandler | ast.MatchAs | ast.MatchStar) and node.name:
            local.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            local.add(node.rest)
    local -= declared_global
    out |= loads - local - enclosing
    # Class bodies are not visible from the methods defined inside them.
    visible = enclosing if is_class else enclosing | local
    for scope in nested:
        if isinstance(scope, ast.Lambda):
            _collect_free([scope.body], _param_names(scope.args), visible, is_class=False, out=out)
        elif isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef):
            _collect_free(scope.body, _param_names(scope.args), visible, is_class=False, out=out)
        elif isinstance(scope, ast.ClassDef):
            _collect_free(scope.body, set(), visible, is_class=True, out=out)
