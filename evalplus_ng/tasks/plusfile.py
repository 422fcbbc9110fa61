"""Read and write the per-task fields of EvalPlus's HumanEvalPlus schema: any such file
(ours or EvalPlus's own) as tasks, and the extra field that keeps exact input types and
calibrated time limits."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from evalplus_ng.errors import InputError
from evalplus_ng.records import ORACLES, TYPED, Calibration, Task
from evalplus_ng.serialize import Unserializable, decode, encode
from evalplus_ng.tasks.sources import distinct_tasks, read_jsonl
from evalplus_ng.tasks.spec import built_in_oracles, checked_equality
from evalplus_ng.types import Args

#: Name of the extra per-task field holding what plain JSON would lose
#: (tuples, int dict keys) and our calibrated time limits. EvalPlus ignores it.
EXTRA_FIELD = "evalplus_ng"
#: Floor of a legacy suite's "time_limits" (seconds), the floor evaluate used with them.
LEGACY_FLOOR_SECONDS = 1.0
REQUIRED_FIELDS = ("task_id", "prompt", "entry_point", "canonical_solution", "base_input")



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
    (:meth:`evalplus_ng.tasks.spec.Dataset.equality`)."""
    path = Path(path)
    oracles = built_in_oracles()
    return distinct_tasks(path, ((number, _task_from_record(path, number, record, oracles,
                                                            equality))
                                 for number, record in read_jsonl(path)))



def typed_inputs_field(task: Task) -> dict[str, Any]:
    """The extra field that lets :func:`load_plus_file` restore exact input types."""

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
