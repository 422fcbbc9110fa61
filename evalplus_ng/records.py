"""Frozen records for the engine's concepts; plain data, no I/O."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

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
    #: Per-input time limits in seconds (base then plus); empty means "use defaults".
    time_limits: tuple[float, ...] = field(default=())
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
