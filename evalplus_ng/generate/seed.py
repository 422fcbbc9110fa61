"""Seed inputs for the fuzzer, one small function per source.

Sources, in the order they are tried: the dataset's base inputs, calls shown in
the prompt's docstring (``>>> f(...)``, ``f(...) ➞ ...``, ``f(...) == ...``),
the cached corpus in ``seeds/``, those inputs in the other shapes the prompt admits
(:mod:`evalplus_ng.generate.admit`), Hypothesis strategies derived from the parameter specs,
and last each argument at its boundaries and every two arguments' boundary classes
together (:mod:`evalplus_ng.generate.pairwise`). Only :func:`gather` filters by contract and
deduplicates.
"""

from __future__ import annotations

import contextlib
import string
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from evalplus_ng import typespec as ts
from evalplus_ng.generate import admit, pairwise
from evalplus_ng.generate.contract import Contract
from evalplus_ng.generate.corpus import balanced_call, literal_call, read_corpus
from evalplus_ng.records import Task
from evalplus_ng.serialize import canonical, nested
from evalplus_ng.types import Args
from evalplus_ng.typespec import Spec

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


def strategy(spec: Spec, alphabet: str) -> st.SearchStrategy[Any]:
    """A bounded Hypothesis strategy for values of ``spec``."""
    build = STRATEGIES.get(spec.kind)
    if build is None:
        raise ts.SpecError(f"no strategy for {spec}")
    return build(spec, alphabet)


def _tuples(spec: Spec, alphabet: str) -> st.SearchStrategy[Any]:
    if spec.variadic:
        return st.lists(strategy(spec.args[0], alphabet), max_size=6).map(tuple)
    return st.tuples(*[strategy(member, alphabet) for member in spec.args])


Strategy = Callable[[Spec, str], st.SearchStrategy[Any]]
#: :func:`strategy` of each kind: ``(spec, alphabet)`` to a strategy, like Hypothesis's own
#: type lookup.
STRATEGIES: dict[ts.Kind, Strategy] = {
    ts.NONE: lambda spec, alphabet: st.none(),
    ts.BOOL: lambda spec, alphabet: st.booleans(),
    ts.INT: lambda spec, alphabet: st.integers(-20, 20) | st.integers(-(10**6), 10**6),
    ts.FLOAT: lambda spec, alphabet: st.floats(-1e6, 1e6, allow_nan=False,
                                               allow_infinity=False),
    ts.COMPLEX: lambda spec, alphabet: st.complex_numbers(
        max_magnitude=1e6, allow_nan=False, allow_infinity=False),
    ts.STR: lambda spec, alphabet: st.text(alphabet=alphabet, max_size=20),
    ts.ANY: lambda spec, alphabet: st.integers(-100, 100) | st.text(alphabet=alphabet,
                                                                    max_size=10),
    ts.UNION: lambda spec, alphabet: st.one_of(
        *[strategy(member, alphabet) for member in spec.args]),
    ts.LIST: lambda spec, alphabet: st.lists(strategy(spec.args[0], alphabet), max_size=10),
    ts.SET: lambda spec, alphabet: st.sets(strategy(spec.args[0], alphabet), max_size=10),
    ts.TUPLE: _tuples,
    ts.DICT: lambda spec, alphabet: st.dictionaries(
        strategy(spec.args[0], alphabet), strategy(spec.args[1], alphabet), max_size=6),
}


@contextlib.contextmanager
def _without_local_constants() -> Iterator[None]:
    """Stop Hypothesis from mixing literals of "local" modules into its draws.

    Hypothesis (6.131+) draws some values from the constants written in the
    source of every non-installed module in ``sys.modules``. Which modules count
    depends on how evalplus-ng was installed and on what else the process
    imported, so the same ``--seed`` would give different seeds (and artifacts)
    from a checkout, from ``pip install .`` or under pytest. Its global constant
    pool (the same everywhere) stays.
    """
    from hypothesis.internal.conjecture import providers

    original = getattr(providers, "_get_local_constants", None)
    if original is None:  # an older or newer Hypothesis without the feature
        yield
        return
    empty = providers.Constants()  # type: ignore[attr-defined]
    providers.CONSTANTS_CACHE.cache.clear()
    providers._get_local_constants = lambda: empty
    try:
        yield
    finally:
        providers._get_local_constants = original
        providers.CONSTANTS_CACHE.cache.clear()


def hypothesis_seeds(specs: Sequence[Spec], contract: Contract, count: int, seed: int,
                     alphabet: str) -> list[Args]:
    """Up to ``count`` valid argument lists drawn from the specs' strategies, reproducibly."""
    found: list[Args] = []
    arguments = st.tuples(*[strategy(spec, alphabet) for spec in specs])

    @hypothesis_seed(seed)
    @settings(max_examples=count, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck), derandomize=False)
    @given(arguments)
    def draw(args: tuple[Any, ...]) -> None:
        candidate = list(args)
        if contract.valid(candidate):
            found.append(candidate)

    with _without_local_constants():
        draw()
    return found


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
