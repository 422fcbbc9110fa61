"""The mutation-based fuzz loop: from seeds to many new, distinct, contract-valid inputs.

Pure: it receives the task, its contract, its seeds and a ``random.Random``,
and runs no code but the contract. It stops after ``target`` new inputs or a
fixed number of attempts, so that the same seed gives the same inputs on any
machine; the wall-clock budget is a safety net that is reported when hit.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from evalplus_ng.contract import Contract
from evalplus_ng.mutate import Context, Pool, mutate_args
from evalplus_ng.records import Task
from evalplus_ng.seed import BASE, Seed
from evalplus_ng.serialize import canonical
from evalplus_ng.types import Args


@dataclass(frozen=True)
class FuzzConfig:
    """How hard to look for inputs."""

    target: int = 1000
    #: Mutation attempts per wanted input; the deterministic stopping rule.
    attempts_per_input: int = 60
    #: Wall-clock safety net per task, seconds (hitting it makes the run machine-dependent).
    budget_seconds: float = 120.0


@dataclass(frozen=True)
class FuzzResult:
    """New valid inputs in generation order, with how they were found."""

    inputs: tuple[Args, ...]
    sources: tuple[str, ...]
    attempts: int
    rejected: dict[str, int] = field(default_factory=dict)
    budget_hit: bool = False


def fuzz(task: Task, contract: Contract, seeds: Sequence[Seed], config: FuzzConfig,
         rng: random.Random) -> FuzzResult:
    """Mutate seeds (and the inputs they lead to) until ``config.target`` new inputs exist."""
    ctx = Context(rng, Pool(rng))
    seen = {canonical(args) for args in task.base_inputs}
    corpus: list[Args] = []
    inputs: list[Args] = []
    sources: list[str] = []
    for seed in seeds:
        corpus.append(seed.args)
        for value in seed.args:
            ctx.pool.feed(value)
        key = canonical(seed.args)
        if seed.source != BASE and key not in seen and len(inputs) < config.target:
            inputs.append(seed.args)
            sources.append(seed.source)
        seen.add(key)
    rejected: Counter[str] = Counter()
    attempts = 0
    limit = config.target * config.attempts_per_input
    deadline = time.monotonic() + config.budget_seconds
    budget_hit = False
    while len(inputs) < config.target and attempts < limit and corpus:
        attempts += 1
        if attempts % 256 == 0 and time.monotonic() > deadline:
            budget_hit = True
            break
        child = mutate_args(rng.choice(corpus), contract.specs, ctx)
        key = canonical(child)
        if key in seen:
            rejected["duplicate"] += 1
            continue
        seen.add(key)
        reason = contract.violation(child)
        if reason is not None:
            rejected["type" if reason.startswith("argument") else "precondition"] += 1
            continue
        corpus.append(child)
        inputs.append(child)
        sources.append("mutation")
        for value in child:
            ctx.pool.feed(value)
    return FuzzResult(tuple(inputs), tuple(sources), attempts, dict(rejected), budget_hit)
