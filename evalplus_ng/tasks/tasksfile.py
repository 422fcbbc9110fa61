"""A user's own benchmark: a JSON Lines file of tasks (``augment --dataset tasks.jsonl``).

Each line is one task with ``task_id`` (any string), ``prompt``, ``entry_point``,
``canonical_solution`` (``prompt + canonical_solution`` must define the entry point,
as in HumanEval; or the prompt is text and the solution a whole function, as in MBPP)
and its base tests, either ``base_input`` (a list of argument lists, plain JSON) or
``tests`` (assert lines calling the entry point, one string or a list; their arguments
are read as Python, so tuples stay tuples). Optional: ``atol`` (float tolerance),
``contract`` (EvalPlus's ``assert ...  # $_CONTRACT_$`` lines), ``oracle`` (one of
:data:`evalplus_ng.records.ORACLES`) and ``equality`` (how outputs compare, one of
:data:`evalplus_ng.records.EQUALITIES`: ``typed``, the default, or ``value`` for Python's
``==``, where ``1 == 1.0 == True``; a ``dataset.json`` in the ``--data`` folder may change
the default with its own ``equality``).
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from evalplus_ng.errors import EvalplusError, InputError
from evalplus_ng.records import ORACLES, Task
from evalplus_ng.tasks.sources import calls_in_asserts, distinct_tasks, fixed_solutions, read_jsonl
from evalplus_ng.tasks.spec import Dataset, checked_equality
from evalplus_ng.types import Args

REQUIRED = ("task_id", "prompt", "entry_point", "canonical_solution")


def _base_inputs(path: Path, number: int, record: dict[str, Any]) -> tuple[Args, ...]:
    if "base_input" in record:
        value = record["base_input"]
        if not isinstance(value, list) or not all(isinstance(args, list) for args in value):
            raise InputError(str(path), number, "'base_input' must be a list of argument lists")
        return tuple(value)
    tests = record.get("tests")
    if tests is None:
        raise InputError(str(path), number, "needs 'base_input' or 'tests'")
    lines = [tests] if isinstance(tests, str) else tests
    if not isinstance(lines, list) or not all(isinstance(line, str) for line in lines):
        raise InputError(str(path), number, "'tests' must be a string or a list of strings")
    try:
        calls = calls_in_asserts("\n".join(lines), record["entry_point"])
    except SyntaxError as exc:
        raise InputError(str(path), number, f"'tests' is not Python: {exc.msg}") from None
    except Exception as exc:  # the user's arguments may raise anything
        raise InputError(str(path), number,
                         f"cannot evaluate an argument in 'tests': {type(exc).__name__}: "
                         f"{exc}") from None
    if not calls:
        raise InputError(str(path), number,
                         f"'tests' has no assert calling {record['entry_point']}(...)")
    return tuple(calls)


def _check_defined(path: Path, number: int, entry_point: str, code: str) -> None:
    """InputError unless ``code`` (the prompt and the reference) is Python that defines
    ``entry_point`` at its top level."""
    try:
        tree = ast.parse(code)
    except SyntaxError as exc:
        raise InputError(str(path), number, f"the prompt and the reference are not Python: "
                                            f"{exc.msg} (line {exc.lineno})") from None
    defined = {node.name for node in tree.body
               if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)}
    defined |= {target.id for node in tree.body if isinstance(node, ast.Assign)
                for target in node.targets if isinstance(target, ast.Name)}
    if entry_point not in defined:
        raise InputError(str(path), number,
                         f"neither the prompt nor the reference defines {entry_point}")


def _task(path: Path, number: int, record: dict[str, Any], fixed_code: str | None,
          equality: str) -> Task:
    missing = [name for name in REQUIRED if name not in record]
    if missing:
        raise InputError(str(path), number, f"missing field(s): {', '.join(missing)}")
    for name in REQUIRED:
        if not isinstance(record[name], str) or not record[name]:
            raise InputError(str(path), number, f"field '{name}' must be a non-empty string")
    oracle = record.get("oracle", "")
    if oracle not in ORACLES:
        raise InputError(str(path), number,
                         f"unknown oracle {oracle!r}; known: {', '.join(o for o in ORACLES if o)}")
    equality = checked_equality(record.get("equality", equality), str(path), number)
    try:
        atol = float(record.get("atol") or 0.0)
    except (TypeError, ValueError):
        raise InputError(str(path), number, "field 'atol' must be a number") from None
    original = record["prompt"] + record["canonical_solution"]
    _check_defined(path, number, record["entry_point"], original)
    canonical, kept = record["canonical_solution"], ""
    if fixed_code is not None:
        canonical, kept = "\n\n" + fixed_code, original
    return Task(
        task_id=record["task_id"],
        prompt=record["prompt"],
        entry_point=record["entry_point"],
        solution=record["prompt"] + canonical,
        base_inputs=_base_inputs(path, number, record),
        atol=atol,
        contract=str(record.get("contract", "")),
        canonical_solution=canonical,
        test="\n".join(record["tests"]) if isinstance(record.get("tests"), list)
        else str(record.get("tests", "")),
        original_solution=kept,
        oracle=oracle,
        equality=equality,
    )


def load_tasks_file(dataset: Dataset, cache: Path | None = None, use_fixed: bool = True,
                    ) -> list[Task]:
    """The tasks of the file ``dataset.source``, in file order."""
    if dataset.source is None:
        raise EvalplusError(f"dataset {dataset.name!r} names no tasks file")
    path = dataset.source
    records = list(read_jsonl(path))
    ids = [str(record.get("task_id")) for _number, record in records]
    fixed = fixed_solutions(dataset, ids) if use_fixed else {}
    equality = dataset.equality()

    def task(number: int, record: dict[str, Any]) -> Task:
        solution = fixed.get(str(record.get("task_id")))
        return _task(path, number, record, solution.code if solution is not None else None,
                     equality)

    return distinct_tasks(path, ((number, task(number, record)) for number, record in records))


def task_line(path: Path, task_id: str) -> int | None:
    """The line of ``path`` (a tasks file) that holds the task ``task_id``, if any."""
    return next((number for number, record in read_jsonl(path)
                 if record.get("task_id") == task_id), None)
