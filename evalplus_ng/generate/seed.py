"""Seed inputs for the fuzzer, one small function per source.

Sources, in the order they are tried: the dataset's base inputs, calls shown in
the prompt's docstring (``>>> f(...)``, ``f(...) ➞ ...``, ``f(...) == ...``),
the cached corpus in ``seeds/``, those inputs in the other shapes the prompt admits
(:mod:`evalplus_ng.generate.admit`), Hypothesis strategies derived from the parameter specs
(:mod:`evalplus_ng.generate.strategies`),
and last each argument at its boundaries and every two arguments' boundary classes
together (:mod:`evalplus_ng.generate.pairwise`). Only :func:`gather` filters by contract and
deduplicates.
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evalplus_ng.generate import admit, pairwise
from evalplus_ng.generate.contract import Contract
from evalplus_ng.generate.corpus import balanced_call, literal_call, read_corpus
from evalplus_ng.records import Task
from evalplus_ng.serialize import canonical, nested
from evalplus_ng.types import Args

#: Kinds of seeds, as recorded in statistics.
BASE, DOCSTRING, CORPUS, HYPOTHESIS = "base", "docstring", "corpus", "hypothesis"
GENERAL, BOUNDARY = "general", "boundary"


@dataclass(frozen=True)
class Seed:
    """One seed input and where it came from."""

    args: Args
    source: str


def docstring_examples(prompt: str, entry_point: str) -> list[Args]:
    """Argument lists of literal calls to ``entry_point`` written in the prompt."""
    found: list[Args] = []
    needle = entry_point + "("
    position = prompt.find(needle)
    while position != -1:
        preceding = prompt[position - 1] if position else " "
        call = balanced_call(prompt, position) if not preceding.isidentifier() \
            and preceding != "." else None
        if call is not None and not prompt[:position].rstrip().endswith("def"):
            args = _literal_args(call, entry_point)
            if args is not None:
                found.append(args)
        position = prompt.find(needle, position + 1)
    return found


def _literal_args(call: str, entry_point: str) -> Args | None:
    # A docstring example may wrap its call over several lines.
    return literal_call(call.replace("\n", " "), entry_point)


def corpus_seeds(path: Path) -> list[Args]:
    """Inputs from a seed-corpus file (``seeds/<dataset>/<Task_Id>.json``); [] when absent."""
    return read_corpus(path, path.stem).inputs()


def _alphabet(examples: Sequence[Any]) -> str:
    chars = {char for value in nested(list(examples)) if isinstance(value, str)
             for char in value}
    return "".join(sorted(chars)) or string.ascii_lowercase + " "


def general_seeds(task: Task, inputs: Sequence[Args],
                  allowances: Sequence[admit.Allowance] | None = None) -> list[Args]:
    """``inputs`` with one argument in another shape the prompt admits
    (:func:`evalplus_ng.generate.admit.variants`; ``allowances`` default to the prompt's words'
    and the base values', :func:`evalplus_ng.generate.admit.allowances`)."""
    if allowances is None:
        allowances = admit.allowances(task.prompt, task.base_inputs)
    arity = len(allowances)
    if not any(allowed != admit.NONE for allowed in allowances):
        return []
    return [variant for args in inputs if len(args) == arity
            for variant in admit.variants(args, allowances)]


def gather(task: Task, contract: Contract, corpus: Path | None, seed: int,
           hypothesis_count: int = 100,
           allowances: Sequence[admit.Allowance] | None = None) -> list[Seed]:
    """All valid, distinct seeds of a task, base inputs first (``allowances``: the shapes
    beyond the base inputs' to seed, default the prompt's, :func:`general_seeds`)."""
    sources: list[tuple[str, list[Args]]] = [
        (BASE, list(task.base_inputs)),
        (DOCSTRING, docstring_examples(task.prompt, task.entry_point)),
        (CORPUS, corpus_seeds(corpus) if corpus is not None else []),
    ]
    sources.append((GENERAL, general_seeds(task, [args for _, inputs in sources
                                                  for args in inputs], allowances)))
    alphabet = _alphabet([args for _, inputs in sources for args in inputs])
    if hypothesis_count:
        # Imported here: Hypothesis takes a fifth of a second to import, which every
        # command that never seeds (evaluate, report) would pay.
        from evalplus_ng.generate.strategies import hypothesis_seeds

        sources.append((HYPOTHESIS, hypothesis_seeds(contract.shown or contract.specs, contract,
                                                     hypothesis_count, seed, alphabet)))
    seen: set[str] = set()
    seeds: list[Seed] = []

    def take(source: str, inputs: Sequence[Args]) -> None:
        for args in inputs:
            key = canonical(args)
            if key in seen or not contract.valid(args):
                continue
            seen.add(key)
            seeds.append(Seed(args, source))

    for source, inputs in sources:
        take(source, inputs)
    take(BOUNDARY, pairwise.boundary_probes([s.args for s in seeds], contract.valid))
    take(BOUNDARY, pairwise.meet([s.args for s in seeds], contract.valid))
    return seeds
