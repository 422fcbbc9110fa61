"""Frozen records for the engine's concepts; plain data, no I/O."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from evalplus_ng.types import Args, TaskId, Wire


class Status(enum.Enum):
    """What happened when one input was run in the sandbox."""

    OK = "ok"  #: returned a value (in ``Outcome.value``)
    ERROR = "error"  #: raised an exception (type and message in ``Outcome.error``)
    TIMEOUT = "timeout"  #: exceeded its time limit and was killed
    CRASH = "crash"  #: the process died or exited (``os._exit``, ``sys.exit``, memory, signal)
    BAD_OUTPUT = "bad-output"  #: returned an object that is not plain data


class Verdict(enum.Enum):
    """A sample's status on a suite, spelled as EvalPlus spells it."""

    PASS = "pass"
    FAIL = "fail"
    TIMEOUT = "timeout"


@dataclass(frozen=True)
class Outcome:
    """The result of one call: ``value`` is serialized wire data, set only when OK."""

    status: Status
    value: Wire = None
    error: str | None = None
    seconds: float = 0.0


@dataclass(frozen=True)
class Calibration:
    """A suite's calibrated time limits for one task (see :mod:`evalplus_ng.calibrate`).

    ``units`` holds, per input (base then plus), the ground truth's time in
    units of a reference workload, so that the limit in seconds,
    ``max(floor_seconds, factor x units x t_ref)``, follows the speed of the
    machine that measures ``t_ref``. ``reference_seconds`` is ``t_ref`` where the
    suite was calibrated; None means ``units`` are plain seconds (a legacy suite).
    """

    units: tuple[float, ...]
    floor_seconds: float
    factor: float
    reference: str
    reference_seconds: float | None


@dataclass(frozen=True)
class Task:
    """One benchmark task; ``solution`` is full source defining ``entry_point``.

    ``base_inputs`` and ``plus_inputs`` hold positional-argument lists.
    """

    task_id: TaskId
    prompt: str
    entry_point: str
    solution: str
    base_inputs: tuple[Args, ...]
    plus_inputs: tuple[Args, ...] = ()
    atol: float = 0.0
    contract: str = ""
    canonical_solution: str = ""
    test: str = ""
    #: Calibrated per-input time limits; None means "from the ground truth's measured time".
    calibration: Calibration | None = None
    #: The dataset's own reference (full source) when ``solution`` is a fixed ground
    #: truth; empty when ``solution`` is that reference.
    original_solution: str = ""

    @property
    def original(self) -> str:
        """The dataset's own reference solution (full source)."""
        return self.original_solution or self.solution

    @property
    def number(self) -> int:
        """The numeric part of ``HumanEval/N`` style ids, for natural ordering."""
        tail = self.task_id.rsplit("/", 1)[-1]
        return int(tail) if tail.isdigit() else 0


@dataclass(frozen=True)
class Sample:
    """One candidate solution read from a samples file (line numbers are 1-based)."""

    task_id: TaskId
    code: str
    line: int
