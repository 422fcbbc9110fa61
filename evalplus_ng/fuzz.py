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

#: The source of the inputs the fuzz loop makes (seeds keep their own).
MUTATION = "mutation"


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


class Fuzzer:
    """The fuzz loop as a resumable stream: ``extend(target)`` continues where the last
    call stopped, so asking for more inputs later costs only the new ones, and the
    inputs are exactly those one call with the final target would give."""

    def __init__(self, task: Task, contract: Contract, seeds: Sequence[Seed],
                 config: FuzzConfig, rng: random.Random) -> None:
        self.contract = contract
        self.config = config
        self.rng = rng
        self.ctx = Context(rng, Pool(rng))
        self.seen = {canonical(args) for args in task.base_inputs}
        self.corpus: list[Args] = []
        self.inputs: list[Args] = []
        self.sources: list[str] = []
        self.rejected: Counter[str] = Counter()
        self.attempts = 0
        self.budget_hit = False
        #: New non-base seeds: the stream's first inputs, emitted as targets allow.
        self._fresh_seeds: list[Seed] = []
        self._emitted = 0
        for seed in seeds:
            self.corpus.append(seed.args)
            for value in seed.args:
                self.ctx.pool.feed(value)
            key = canonical(seed.args)
            if seed.source != BASE and key not in self.seen:
                self._fresh_seeds.append(seed)
            self.seen.add(key)

    def extend(self, target: int) -> FuzzResult:
        """Mutate until ``target`` new inputs exist (or the attempts for it run out)."""
        while len(self.inputs) < target and self._emitted < len(self._fresh_seeds):
            seed = self._fresh_seeds[self._emitted]
            self.inputs.append(seed.args)
            self.sources.append(seed.source)
            self._emitted += 1
        rng, ctx, contract, seen = self.rng, self.ctx, self.contract, self.seen
        corpus, inputs, sources, rejected = self.corpus, self.inputs, self.sources, self.rejected
        attempts = self.attempts
        limit = target * self.config.attempts_per_input
        deadline = time.monotonic() + self.config.budget_seconds
        while len(inputs) < target and attempts < limit and corpus:
            attempts += 1
            if attempts % 256 == 0 and time.monotonic() > deadline:
                self.budget_hit = True
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
            sources.append(MUTATION)
            for value in child:
                ctx.pool.feed(value)
        self.attempts = attempts
        return FuzzResult(tuple(inputs), tuple(sources), attempts, dict(rejected),
                          self.budget_hit)


def fuzz(task: Task, contract: Contract, seeds: Sequence[Seed], config: FuzzConfig,
         rng: random.Random) -> FuzzResult:
    """Mutate seeds (and the inputs they lead to) until ``config.target`` new inputs exist."""
    return Fuzzer(task, contract, seeds, config, rng).extend(config.target)
