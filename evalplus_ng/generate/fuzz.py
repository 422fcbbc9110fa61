"""The mutation-based fuzz loop: from seeds to many new, distinct, contract-valid inputs.

Pure: it receives the task, its contract, its seeds and a ``random.Random``,
and runs no code but the contract. It stops after ``target`` new inputs or a
fixed number of attempts, so that the same seed gives the same inputs on any
machine; the wall-clock budget is a safety net that is reported when hit.

A mutant differs from its parent in one or two argument positions, so the loop
keeps each corpus entry's per-argument keys and type verdicts: only the changed
arguments are type-checked (``Contract.checks``), a mutant's deduplication key
is its parent's per-argument keys with the changed ones rewritten
(``dedup.freezer``: equal exactly when ``canonical`` texts are, for values of
the argument's type), and then the precondition runs on the whole input, so
the verdict is exactly ``Contract.violation``'s. Only the scalars a mutation
made are fed to the ingredient pool (the rest of the mutant came from its
parent).
"""

from __future__ import annotations

import gc
import random
import time
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from evalplus_ng.generate.contract import Contract
from evalplus_ng.generate.dedup import freezer
from evalplus_ng.generate.grow import grow_args
from evalplus_ng.generate.mutate import Context, Pool, mutate_positions
from evalplus_ng.generate.seed import BASE, Seed
from evalplus_ng.records import Task
from evalplus_ng.serialize import canonical
from evalplus_ng.types import Args

#: The sources of the inputs the fuzz loop makes (seeds keep their own): mutants, and
#: scaled-up variants (:mod:`evalplus_ng.generate.grow`).
MUTATION, GROWN = "mutation", "grown"


@dataclass(frozen=True)
class FuzzConfig:
    """How hard to look for inputs."""

    target: int = 1000
    #: Mutation attempts per wanted input; the deterministic stopping rule.
    attempts_per_input: int = 60
    #: Wall-clock safety net per task, seconds (hitting it makes the run machine-dependent).
    budget_seconds: float = 120.0
    #: Every this many inputs, one is a scaled-up variant of a seed or corpus input (0: none).
    #: Fixed positions in the stream, so that a longer stream starts with a shorter one.
    grow_every: int = 100
    #: Tries (pick an input, grow it, check it) for each scaled-up input.
    grow_tries: int = 4


@dataclass(frozen=True)
class FuzzResult:
    """New valid inputs in generation order, with how they were found."""

    inputs: tuple[Args, ...]
    sources: tuple[str, ...]
    attempts: int
    rejected: dict[str, int] = field(default_factory=dict)
    budget_hit: bool = False


class _Entry(NamedTuple):
    """A corpus input with what its mutants reuse."""

    args: Args
    #: The dedup key of each argument (None where its type is wrong).
    parts: tuple[Hashable, ...]
    #: Positions whose argument breaks its type; None when the arity is wrong.
    bad: frozenset[int] | None


class Fuzzer:
    """The fuzz loop as a resumable stream: ``extend(target)`` continues where the last
    call stopped, so asking for more inputs later costs only the new ones, and the
    inputs are exactly those one call with the final target would give, unless
    :meth:`retire` took parents out of the corpus in between (a deterministic function
    of the inputs it names)."""

    def __init__(self, task: Task, contract: Contract, seeds: Sequence[Seed],
                 config: FuzzConfig, rng: random.Random) -> None:
        self.contract = contract
        self.config = config
        self.rng = rng
        self.ctx = Context(rng, Pool(rng))
        self.freezers = tuple(map(freezer, contract.specs))
        #: Keys of the type-valid inputs met so far (others are never emitted).
        self.seen: set[Hashable] = set()
        self.corpus: list[_Entry] = []
        self.inputs: list[Args] = []
        self.sources: list[str] = []
        self.rejected: Counter[str] = Counter()
        self.attempts = 0
        self.budget_hit = False
        #: New non-base seeds: the stream's first inputs, emitted as targets allow.
        self._fresh_seeds: list[Seed] = []
        self._emitted = 0
        #: Stream position of the next scaled-up input.
        self._next_grow = config.grow_every - 1 if config.grow_every > 0 else -1
        for args in task.base_inputs:
            self._entry(args)
        texts = {canonical(args) for args in task.base_inputs}
        #: The corpus starts with the seeds.
        self._seeds = len(seeds)
        for seed in seeds:
            self.corpus.append(self._entry(seed.args))
            for value in seed.args:
                self.ctx.pool.feed(value)
            text = canonical(seed.args)
            if seed.source != BASE and text not in texts:
                self._fresh_seeds.append(seed)
            texts.add(text)

    def _entry(self, args: Args) -> _Entry:
        """``args`` as a corpus entry; its key is marked seen when its types are right."""
        if len(args) != len(self.freezers):
            return _Entry(args, (), None)
        checks = self.contract.checks
        bad = frozenset(p for p, value in enumerate(args) if not checks[p](value))
        parts = tuple(None if p in bad else freeze(value)
                      for p, (freeze, value) in enumerate(zip(self.freezers, args, strict=True)))
        if not bad:
            self.seen.add(parts)
        return _Entry(args, parts, bad)

    def _grow(self) -> Args | None:
        """A new valid scaled-up variant of a corpus input (kept out of the corpus: its
        mutants would be as large), or None after ``grow_tries`` failures."""
        contract, corpus = self.contract, self.corpus
        ctx = Context(self.rng, self.ctx.pool)  # no ``made``: nothing grown feeds the pool
        for _ in range(self.config.grow_tries):
            # Mostly a seed: the inputs someone chose (a hard case grown is a stress test).
            pick_from = self._seeds if self._seeds and self.rng.random() < 0.8 else len(corpus)
            parent = corpus[int(self.rng.random() * pick_from)]
            if parent.bad is None:
                continue
            child = grow_args(parent.args, contract.specs, ctx)
            if not all(check(value) for check, value in zip(contract.checks, child, strict=True)):
                self.rejected["type"] += 1
                continue
            key = tuple(freeze(value) for freeze, value in zip(self.freezers, child, strict=True))
            if key in self.seen:
                self.rejected["duplicate"] += 1
                continue
            self.seen.add(key)
            if contract.pre_violation(child) is not None:
                self.rejected["precondition"] += 1
                continue
            return child
        return None

    def retire(self, positions: Iterable[int]) -> int:
        """Take the inputs at ``positions`` (of the stream so far) out of the corpus: no
        more mutants of them. For inputs the ground truth could not answer in budget (or
        at all): their mutants mostly cannot either, and each costs an oracle run.
        Returns how many corpus entries went."""
        keys = set()
        for position in positions:
            args = self.inputs[position]
            if len(args) == len(self.freezers):
                keys.add(tuple(freeze(value)
                               for freeze, value in zip(self.freezers, args, strict=True)))
        if not keys:
            return 0
        kept_seeds = sum(1 for entry in self.corpus[: self._seeds] if entry.parts not in keys)
        before = len(self.corpus)
        self.corpus[:] = [entry for entry in self.corpus if entry.parts not in keys]
        self._seeds = kept_seeds
        return before - len(self.corpus)

    def extend(self, target: int) -> FuzzResult:
        """Mutate until ``target`` new inputs exist (or the attempts for it run out)."""
        # The loop makes many small containers and no reference cycles; the cyclic
        # collector would walk every object of the process again and again for nothing
        # (in a long-lived process holding a dataset, most of the loop's time).
        enabled = gc.isenabled()
        gc.disable()
        try:
            return self._extend(target)
        finally:
            if enabled:
                gc.enable()

    def _extend(self, target: int) -> FuzzResult:
        while len(self.inputs) < target and self._emitted < len(self._fresh_seeds):
            seed = self._fresh_seeds[self._emitted]
            self.inputs.append(seed.args)
            self.sources.append(seed.source)
            self._emitted += 1
        rng, ctx, contract, seen = self.rng, self.ctx, self.contract, self.seen
        corpus, inputs, sources, rejected = self.corpus, self.inputs, self.sources, self.rejected
        specs, checks, freezers = contract.specs, contract.checks, self.freezers
        feed = ctx.pool.feed
        made: list[Any] = []
        ctx.made = made
        attempts = self.attempts
        limit = target * self.config.attempts_per_input
        deadline = time.monotonic() + self.config.budget_seconds
        while len(inputs) < target and attempts < limit and corpus:
            attempts += 1
            if attempts % 256 == 0 and time.monotonic() > deadline:
                self.budget_hit = True
                break
            if 0 <= self._next_grow <= len(inputs):
                self._next_grow = len(inputs) + self.config.grow_every
                grown = self._grow()
                if grown is not None:
                    inputs.append(grown)
                    sources.append(GROWN)
                    continue
            parent = corpus[int(rng.random() * len(corpus))]
            made.clear()
            child, changed = mutate_positions(parent.args, specs, ctx)
            if parent.bad is None:  # wrong arity: so are all its mutants
                rejected["precondition"] += 1  # as Contract.violation's reason is counted
                continue
            parts = list(parent.parts)
            for position in sorted(parent.bad.union(changed)) if parent.bad else changed:
                value = child[position]
                if not checks[position](value):
                    rejected["type"] += 1
                    break
                parts[position] = freezers[position](value)
            else:
                key = tuple(parts)
                known = len(seen)
                seen.add(key)  # one hash of the key, not two
                if len(seen) == known:
                    rejected["duplicate"] += 1
                    continue
                if contract.pre_violation(child) is not None:
                    rejected["precondition"] += 1
                    continue
                corpus.append(_Entry(child, key, frozenset()))
                inputs.append(child)
                sources.append(MUTATION)
                for value in made:
                    feed(value)
        ctx.made = None
        self.attempts = attempts
        return FuzzResult(tuple(inputs), tuple(sources), attempts, dict(rejected),
                          self.budget_hit)


def fuzz(task: Task, contract: Contract, seeds: Sequence[Seed], config: FuzzConfig,
         rng: random.Random) -> FuzzResult:
    """Mutate seeds (and the inputs they lead to) until ``config.target`` new inputs exist."""
    return Fuzzer(task, contract, seeds, config, rng).extend(config.target)
