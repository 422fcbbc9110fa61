"""New stdin inputs for a program task: its input plan (the contract every kept input
passes) and the inputs made from it.

Interface first (the stage that runs the reference builds on it); the grammar that fills
it in is :mod:`evalplus_ng.generate.inputgrammar`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from evalplus_ng.records import ProgramTask

#: How a new input was made (``ProgramInput.kind``).
SEED, BOUND, RANDOM, MUTATE, LARGE = "seed", "bound", "random", "mutate", "large"


@dataclass(frozen=True)
class ProgramInput:
    """One new stdin text and how it was made (one of the kinds above)."""

    text: str
    kind: str


@dataclass(frozen=True)
class InputPlan:
    """What a task's inputs look like: ``contract`` (JSON-able, stored in the artifact;
    None when no grammar explains the task's public inputs, then ``reason`` says why)."""

    task_id: str
    contract: dict[str, Any] | None
    reason: str = ""

    def violation(self, text: str) -> str | None:
        """Why ``text`` is not a valid input of the task (None: it is). A task without a
        contract admits nothing new."""
        raise NotImplementedError  # filled in by the grammar slice


def plan_for(task: ProgramTask) -> InputPlan:
    """The task's input plan, inferred from its public inputs and its statement."""
    raise NotImplementedError  # filled in by the grammar slice


def program_inputs(plan: InputPlan, seeds: Sequence[str], rng: random.Random,
                   count: int) -> list[ProgramInput]:
    """Up to ``count`` new distinct inputs (none of ``seeds``), each passing
    ``plan.violation``; the same ``rng`` state gives the same list."""
    raise NotImplementedError  # filled in by the grammar slice
