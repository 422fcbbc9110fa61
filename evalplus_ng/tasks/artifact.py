"""Write suites in EvalPlus's HumanEvalPlus schema, byte-identical for identical tasks."""

from __future__ import annotations

import gzip
import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from evalplus_ng.files import write_atomically
from evalplus_ng.records import Task
from evalplus_ng.serialize import plain_json as _plain
from evalplus_ng.tasks.plusfile import EXTRA_FIELD, typed_inputs_field

#: The field holding a task's own tests, by schema: HumanEval+ keeps ``check()`` code in
#: ``test``; MBPP+ keeps the original asserts in ``assertion``.
TEST_FIELD = {"humaneval": "test", "mbpp": "assertion"}


def plus_record(task: Task, schema: str = "humaneval") -> dict[str, Any]:
    """One task as an EvalPlus HumanEvalPlus (or MbppPlus) record, plus our typed-inputs
    field."""
    return {
        "task_id": task.task_id,
        "prompt": task.prompt,
        "entry_point": task.entry_point,
        "canonical_solution": task.canonical_solution,
        TEST_FIELD[schema]: task.test,
        "contract": task.contract,
        "base_input": [_plain(list(args)) for args in task.base_inputs],
        "plus_input": [_plain(list(args)) for args in task.plus_inputs],
        "atol": task.atol,
        EXTRA_FIELD: typed_inputs_field(task),
    }


def write_plus_file(tasks: Sequence[Task], path: Path, schema: str = "humaneval") -> None:
    """Write ``path`` (gzip when it ends in .gz) atomically and reproducibly, in
    ``schema`` (:attr:`evalplus_ng.tasks.spec.Dataset.schema`: the field of each task's
    own tests, :data:`TEST_FIELD`)."""
    write_jsonl(path, [plus_record(task, schema) for task in tasks])


def write_jsonl(path: Path, records: Sequence[dict[str, Any]]) -> None:
    """Write ``records`` as JSON Lines to ``path`` (gzip when it ends in .gz), atomically
    and reproducibly: the same records give the same bytes."""
    text = "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records)
    data = text.encode("utf-8")
    if path.suffix == ".gz":
        buffer = io.BytesIO()
        # mtime=0 and no file name keep the bytes identical across runs.
        with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, mtime=0) as handle:
            handle.write(data)
        data = buffer.getvalue()
    write_atomically(path, data)
