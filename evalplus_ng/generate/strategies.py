"""Hypothesis strategies derived from parameter specs, and the seeds they draw.

One bounded strategy per kind of value (:data:`STRATEGIES`, like Hypothesis's own type
lookup); :func:`hypothesis_seeds` draws valid argument lists from them reproducibly, for
:func:`evalplus_ng.generate.seed.gather` (which imports this module only when it draws).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from evalplus_ng import typespec as ts
from evalplus_ng.generate.contract import Contract
from evalplus_ng.types import Args
from evalplus_ng.typespec import Spec


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
