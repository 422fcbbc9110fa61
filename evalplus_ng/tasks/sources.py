"""What every task loader shares: base inputs from a dataset's tests, fixed and plain
references from its data folders, JSON Lines reading, and the cache folder.

The reference and test code come from the dataset itself and are trusted.
"""

from __future__ import annotations

import ast
import copy
import gzip
import json
import math
import os
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from evalplus_ng.errors import InputError
from evalplus_ng.records import ProgramTask, Task
from evalplus_ng.serialize import canonical
from evalplus_ng.tasks.spec import Dataset
from evalplus_ng.types import Args, TaskId

T = TypeVar("T")


def recover_base_inputs(
    source: str, test: str, entry_point: str, seed: int = 0
) -> tuple[Args, ...]:
    """Run ``check`` against a recording stand-in; return the distinct argument lists seen.

    ``source`` defines the reference solution. Arguments are copied before
    each call, so a reference that mutates its input does not alter the record.
    """
    namespace: dict[str, Any] = {"__name__": "__recovery__"}
    exec(compile(source, "<reference>", "exec"), namespace)
    reference: Callable[..., Any] = namespace[entry_point]
    calls: list[Args] = []

    def stand_in(*args: Any) -> Any:
        calls.append(copy.deepcopy(list(args)))
        return reference(*args)

    exec(compile(test, "<check>", "exec"), namespace)
    state = random.getstate()
    random.seed(seed)  # some checks draw from the global generator
    try:
        namespace["check"](stand_in)
    finally:
        random.setstate(state)
    seen: set[str] = set()
    unique: list[Args] = []
    for args in calls:
        key = canonical(args)
        if key not in seen:
            seen.add(key)
            unique.append(args)
    return tuple(unique)


def calls_in_asserts(source: str, entry_point: str, imports: Sequence[str] = ()) -> list[Args]:
    """The arguments of the first call of ``entry_point`` in each ``assert`` of ``source``,
    in order, evaluated as Python (tuples stay tuples; ``math`` and ``inf`` are known,
    and ``imports`` run first). Dataset text only: it is trusted, as the reference is."""
    tree = ast.parse(source)
    namespace: dict[str, Any] = {"math": math, "inf": math.inf}
    for line in imports:
        exec(line, namespace)
    found: list[Args] = []
    for statement in tree.body:
        if not isinstance(statement, ast.Assert):
            continue
        for node in ast.walk(statement):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == entry_point and not node.keywords):
                found.append([_argument(arg, namespace) for arg in node.args])
                break
    return found


#: The name an own assert's call of the entry point is replaced by (:class:`OwnAssert`).
OUTPUT = "__evalplus_ng_output__"


@dataclass(frozen=True)
class OwnAssert:
    """One ``assert`` of a task's own tests, as :func:`calls_in_asserts` reads it: its
    text, and its test with the call of the entry point replaced by :data:`OUTPUT`."""

    text: str
    test: str

    def fails_on(self, output: Any) -> bool:
        """Whether the assert fails where the call returns ``output``; False where that
        cannot be told (the test names more than the call: a helper, a second call)."""
        namespace: dict[str, Any] = {"math": math, "inf": math.inf, OUTPUT: output}
        try:
            return not eval(compile(self.test, "<assert>", "eval"), namespace)
        except Exception:  # dataset text: trusted, but it may name what is not here
            return False


class _Replaced(ast.NodeTransformer):
    """Replaces one call node by :data:`OUTPUT`."""

    def __init__(self, call: ast.Call) -> None:
        self.call = call

    def visit_Call(self, node: ast.Call) -> ast.AST:
        return ast.Name(OUTPUT, ast.Load()) if node is self.call else self.generic_visit(node)


def own_asserts(source: str, entry_point: str) -> list[OwnAssert]:
    """The asserts of ``source`` that :func:`calls_in_asserts` takes an input from, in the
    same order (so the i-th is about the i-th input)."""
    found: list[OwnAssert] = []
    for statement in ast.parse(source).body:
        if not isinstance(statement, ast.Assert):
            continue
        call = next((node for node in ast.walk(statement) if isinstance(node, ast.Call)
                     and isinstance(node.func, ast.Name) and node.func.id == entry_point
                     and not node.keywords), None)
        if call is None:
            continue

        text = ast.get_source_segment(source, statement) or ast.unparse(statement)
        test = _Replaced(call).visit(statement.test)  # our own tree: changed in place
        found.append(OwnAssert(text, ast.unparse(test)))
    return found


def _argument(node: ast.expr, namespace: dict[str, Any]) -> Any:
    try:
        return ast.literal_eval(node)
    except ValueError:  # float('inf'), math.pi, ...
        return eval(compile(ast.Expression(node), "<assert>", "eval"), namespace)


#: Categories of reference-solution defects (see :mod:`evalplus_ng.oracle.defects`).
CATEGORIES = ("bad-logic", "edge-case", "performance", "docstring-mismatch")


@dataclass(frozen=True)
class FixedSolution:
    """A re-implemented ground truth for a task whose dataset reference is defective.

    ``code`` is a whole module defining the entry point; its docstring names the
    defect's ``category``, a ``witness`` input showing it and a one-line ``reason``.
    """

    task_id: TaskId
    code: str
    category: str
    witness: Args
    reason: str
    path: str


def _header_fields(path: Path, code: str) -> dict[str, str]:
    try:
        docstring = ast.get_docstring(ast.parse(code)) or ""
    except SyntaxError as exc:
        raise InputError(str(path), exc.lineno, f"invalid Python: {exc.msg}") from None
    fields: dict[str, str] = {}
    current = ""
    for line in docstring.splitlines():
        name, colon, value = line.partition(":")
        if colon and name in ("category", "witness", "reason"):
            current = name
            fields[name] = value.strip()
        elif current and line.strip():
            fields[current] += " " + line.strip()
        else:
            current = ""
    return fields


def read_fixed_solution(path: Path, task_id: TaskId) -> FixedSolution:
    """One fixed ground truth file; raises :class:`InputError` when its header is malformed."""
    try:
        code = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(str(path), None, f"cannot read: {exc}") from None
    fields = _header_fields(path, code)
    for name in ("category", "witness", "reason"):
        if not fields.get(name):
            raise InputError(str(path), 1, f"docstring lacks a '{name}:' line")
    if fields["category"] not in CATEGORIES:
        raise InputError(str(path), 1, f"unknown category {fields['category']!r}")
    try:
        witness = ast.literal_eval(fields["witness"])
    except (ValueError, SyntaxError):
        raise InputError(str(path), 1, "witness is not a Python literal") from None
    if not isinstance(witness, list):
        raise InputError(str(path), 1, "witness must be a list of arguments")
    return FixedSolution(task_id, code, fields["category"], witness, fields["reason"], str(path))


@dataclass(frozen=True)
class PlainSolution:
    """A task's plain reference: the most straightforward correct solution (see
    :mod:`evalplus_ng.oracle.tiers`), written where neither the fixed ground truth nor the
    dataset's own reference is that. ``code`` is a whole module defining the entry
    point; its docstring's ``reason`` line says why this form."""

    task_id: TaskId
    code: str
    reason: str
    path: str


def _task_files(dataset: Dataset, kind: str, task_ids: Iterable[TaskId],
                read: Callable[[Path, TaskId], T]) -> dict[TaskId, T]:
    """``read`` of each task's ``<data>/<kind>/<Task_N>.py`` that exists, the user's
    folder first."""
    found = {}
    for task_id in task_ids:
        path = dataset.task_file(kind, task_id)
        if path is not None:
            found[task_id] = read(path, task_id)
    return found


def fixed_solutions(dataset: Dataset, task_ids: Iterable[TaskId]) -> dict[TaskId, FixedSolution]:
    """The fixed ground truths of a dataset's tasks (``<data>/fixed/<Task_N>.py``)."""
    return _task_files(dataset, "fixed", task_ids, read_fixed_solution)


def read_plain_solution(path: Path, task_id: TaskId) -> PlainSolution:
    """One plain reference file; raises :class:`InputError` when it is malformed."""
    try:
        code = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(str(path), None, f"cannot read: {exc}") from None
    reason = _header_fields(path, code).get("reason")
    if not reason:
        raise InputError(str(path), 1, "docstring lacks a 'reason:' line")
    return PlainSolution(task_id, code, reason, str(path))


def plain_solutions(dataset: Dataset, task_ids: Iterable[TaskId]) -> dict[TaskId, PlainSolution]:
    """The plain references of a dataset's tasks (``<data>/plain/<Task_N>.py``)."""
    return _task_files(dataset, "plain", task_ids, read_plain_solution)


def efficiency_tasks(dataset: Dataset) -> dict[TaskId, str]:
    """Tasks whose docstring asks for efficiency, with the words that ask for it
    (``"efficiency"`` in the dataset's definition)."""
    asked = dataset.definition().get("efficiency", {})
    if not isinstance(asked, dict) or not all(isinstance(v, str) for v in asked.values()):
        raise InputError(str(dataset.user_folder.definition / "dataset.json"), None,
                         "'efficiency' must map task ids to the docstring's words")
    return dict(asked)


def user_cache_dir() -> Path:
    """Where evalplus-ng caches what it can recompute: ``$EVALPLUS_NG_CACHE``, else
    ``$XDG_CACHE_HOME/evalplus-ng``, else ``~/.cache/evalplus-ng``."""
    explicit = os.environ.get("EVALPLUS_NG_CACHE")
    if explicit:
        return Path(explicit)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "evalplus-ng"



def _lines(path: Path) -> Iterator[tuple[int, str]]:
    """(line number, text) of each non-blank line; a line that is not UTF-8 is an
    :class:`InputError` naming it (read as bytes: a text reader decodes ahead, and
    could not say which line)."""
    opener = gzip.open if path.suffix == ".gz" else open
    number = 0
    try:
        with opener(path, "rb") as handle:
            for number, raw in enumerate(handle, start=1):
                try:
                    line = raw.decode("utf-8")
                except UnicodeDecodeError as exc:
                    raise InputError(str(path), number, f"not UTF-8 at byte {exc.start + 1}"
                                     ) from None
                if line.strip():
                    yield number, line
    except (OSError, EOFError) as exc:
        raise InputError(str(path), number + 1 if number else None,
                         f"cannot read: {exc}") from None


def read_jsonl(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for each non-blank line of a ``.jsonl`` or ``.jsonl.gz``
    file; a line that is not a JSON object (nested past Python's recursion limit, an int
    past its digit limit...) is an :class:`InputError` naming it."""
    if not path.is_file():
        raise InputError(str(path), None, "no such file")
    for number, line in _lines(path):
        try:
            record = json.loads(line)
        except ValueError as exc:
            raise InputError(str(path), number, f"invalid JSON: {exc.args[0]}") from None
        except RecursionError:
            raise InputError(str(path), number, "invalid JSON: nested too deeply") from None
        if not isinstance(record, dict):
            raise InputError(str(path), number, "expected a JSON object")
        yield number, record



#: A task record of either kind (a function's or a program's).
AnyTask = TypeVar("AnyTask", Task, ProgramTask)


def distinct_tasks(path: Path, numbered: Iterable[tuple[int, AnyTask]]) -> list[AnyTask]:
    """The tasks read from ``path`` (with their line numbers), checked for a repeated
    task_id and for none at all."""
    tasks: list[AnyTask] = []
    seen: set[str] = set()
    for number, task in numbered:
        if task.task_id in seen:
            raise InputError(str(path), number, f"duplicate task_id {task.task_id!r}")
        seen.add(task.task_id)
        tasks.append(task)
    if not tasks:
        raise InputError(str(path), None, "no tasks in file")
    return tasks

