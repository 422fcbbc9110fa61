"""Reduction profiles: which requirements a reduced suite keeps (data in ``reducers/``)."""

from __future__ import annotations

import json
from collections.abc import Hashable, Mapping, Sequence, Set
from dataclasses import dataclass
from pathlib import Path

from evalplus_ng.errors import InputError
from evalplus_ng.reduce.requirements import KINDS
from evalplus_ng.reduce.setcover import KindMasks, cover_masks, fill_masks, masks_of
from evalplus_ng.resources import data_dir

#: The requirement kinds a profile may name (:data:`~evalplus_ng.reduce.requirements.KINDS`).
REQUIREMENTS = tuple(KINDS)
#: The kinds made from LLM samples (``--samples``): the samples' kills (base-passing
#: samples the suite fails), and their faults (every distinct wrong sample, base-passing
#: or not, killed by some plus test).
SAMPLE_KINDS = frozenset(name for name, kind in KINDS.items() if kind.of_samples)


@dataclass(frozen=True)
class Profile:
    """A named reduction: the requirement kinds to keep, and whether base tests always stay."""

    name: str
    requirements: tuple[str, ...]
    keep_base: bool
    description: str = ""
    #: Tests per task to fill up to after the cover (see
    #: :func:`evalplus_ng.reduce.setcover.fill_masks`); None keeps the minimal cover.
    budget: int | None = None
    #: Covers made one after the other, each keeping the tests the earlier ones chose
    #: (so a later stage only adds tests); None is one cover of every requirement.
    stages: tuple[tuple[str, ...], ...] | None = None
    #: The full suite the profile is made for: ``plus`` (listed in its report) or
    #: ``stress`` (the efficiency tier's own MINI).
    suite: str = "plus"
    #: After the covers, tests are added across tasks up to ``mean`` tests per task on
    #: average, each meeting a second time the most goals of the ``fill`` kinds
    #: (:func:`evalplus_ng.reduce.setcover.fill_across`); () keeps the covers.
    fill: tuple[str, ...] = ()
    mean: float | None = None

    @property
    def uses_samples(self) -> bool:
        """Whether the profile needs LLM samples (and leaves a judged model's own out)."""
        return bool(SAMPLE_KINDS & set(self.requirements))

    @property
    def steps(self) -> tuple[tuple[str, ...], ...]:
        """The requirement kinds of each cover, in order."""
        return self.stages or (self.requirements,)


def load_profile_file(path: Path) -> Profile:
    """One profile from its JSON file; bad content raises :class:`InputError`."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(str(path), None, f"cannot read: {exc}") from None
    except ValueError as exc:
        raise InputError(str(path), getattr(exc, "lineno", None), f"invalid JSON: {exc}") from None
    if not isinstance(document, dict):
        raise InputError(str(path), 1, "expected a JSON object")
    requirements = document.get("requirements")
    if (not isinstance(requirements, list) or not requirements
            or any(kind not in REQUIREMENTS for kind in requirements)):
        raise InputError(str(path), None,
                         f"'requirements' must be a non-empty list of {', '.join(REQUIREMENTS)}")
    keep_base = document.get("keep_base", False)
    if not isinstance(keep_base, bool):
        raise InputError(str(path), None, "'keep_base' must be true or false")
    description = document.get("description", "")
    budget = document.get("budget")
    if budget is not None and (not isinstance(budget, int) or isinstance(budget, bool)
                               or budget < 1):
        raise InputError(str(path), None, "'budget' must be a positive integer (tests per task)")
    stages = document.get("stages")
    if stages is not None:
        if (not isinstance(stages, list) or not stages
                or any(not isinstance(stage, list) or not stage for stage in stages)
                or sorted(k for stage in stages for k in stage) != sorted(set(requirements))):
            raise InputError(str(path), None, "'stages' must be non-empty lists that name "
                                              "each requirement once")
        stages = tuple(tuple(stage) for stage in stages)
    suite = document.get("suite", "plus")
    if suite not in ("plus", "stress"):
        raise InputError(str(path), None, "'suite' must be plus or stress")
    fill, mean = _fill(path, document.get("fill"), requirements)
    return Profile(path.stem, tuple(dict.fromkeys(requirements)), keep_base, str(description),
                   budget, stages, suite, fill, mean)


def _fill(path: Path, fill: object, requirements: Sequence[str],
          ) -> tuple[tuple[str, ...], float | None]:
    """A profile's ``fill``: ``{"kinds": [...], "mean": N}``, kinds among its requirements."""
    if fill is None:
        return (), None
    problem = ("'fill' must be {\"kinds\": [requirement kinds of the profile], "
               "\"mean\": tests per task on average}")
    if not isinstance(fill, dict) or set(fill) != {"kinds", "mean"}:
        raise InputError(str(path), None, problem)
    kinds, mean = fill["kinds"], fill["mean"]
    if (not isinstance(kinds, list) or not kinds or any(k not in requirements for k in kinds)
            or isinstance(mean, bool) or not isinstance(mean, int | float) or mean <= 0):
        raise InputError(str(path), None, problem)
    return tuple(dict.fromkeys(kinds)), float(mean)


def profile_names(folder: Path | None = None) -> list[str]:
    """Names of the shipped profiles, sorted."""
    return sorted(path.stem for path in (folder or data_dir("reducers")).glob("*.json"))


def load_profile(name: str, folder: Path | None = None) -> Profile:
    """A shipped profile by name (``coverage``, ``mutants``, ``samples``, ``full``)."""
    folder = folder or data_dir("reducers")
    path = folder / f"{name}.json"
    if not path.is_file():
        raise InputError(str(path), None,
                         f"no such reduction profile; known: {', '.join(profile_names(folder))}")
    return load_profile_file(path)


def select_masks(
    profile: Profile,
    kinds: Mapping[str, KindMasks],
    order: Sequence[int],
    base: Sequence[int] = (),
    excluded: Mapping[str, int] | None = None,
) -> list[int]:
    """The tests (indices) a profile keeps of one task, from per-kind goal masks.

    Kinds get disjoint bit ranges, so goals of different kinds never collide;
    ``excluded`` names goal bits of a kind that do not count (a held-out model's
    own samples). ``order`` ranks the candidate tests (preferred first); ``base``
    are the base tests, kept when the profile says so. Returns ascending indices.
    """
    missing = [kind for kind in profile.requirements if kind not in kinds]
    if missing:
        raise ValueError(f"profile {profile.name!r} needs {', '.join(missing)}")
    shifted: dict[str, dict[int, int]] = {}
    offset = 0
    for kind in profile.requirements:
        masks, width = kinds[kind]
        allowed = ~(excluded or {}).get(kind, 0)
        shifted[kind] = {test: (mask & allowed) << offset for test, mask in masks.items()}
        offset += width
    ranked = set(order)
    chosen = [t for t in base if t in ranked] if profile.keep_base else []
    combined: dict[int, int] = {}
    for stage in profile.steps:
        staged: dict[int, int] = {}
        for kind in stage:
            for test, mask in shifted[kind].items():
                staged[test] = staged.get(test, 0) | mask
                combined[test] = combined.get(test, 0) | mask
        chosen = cover_masks(staged, order, chosen)
    if profile.budget is not None:
        chosen = fill_masks(combined, order, chosen, profile.budget)
    return sorted(chosen)


def fill_goals(profile: Profile, kinds: Mapping[str, KindMasks],
               excluded: Mapping[str, int] | None = None) -> dict[int, int]:
    """Test -> the goals of the profile's ``fill`` kinds it meets, as bits (kinds in
    disjoint bit ranges; ``excluded`` goal bits of a kind left out, as in
    :func:`select_masks`)."""
    combined: dict[int, int] = {}
    offset = 0
    for kind in profile.fill:
        masks, width = kinds[kind]
        allowed = ~(excluded or {}).get(kind, 0)
        for test, mask in masks.items():
            combined[test] = combined.get(test, 0) | (mask & allowed) << offset
        offset += width
    return combined


def select(
    profile: Profile,
    matrices: Mapping[str, Mapping[int, Set[Hashable]]],
    order: Sequence[int],
    base: Sequence[int] = (),
) -> list[int]:
    """:func:`select_masks` on plain ``kind -> test -> goals`` matrices."""
    return select_masks(profile, {kind: masks_of(m) for kind, m in matrices.items()}, order,
                        base)
