"""Reduction profiles: which requirements a reduced suite keeps (data in ``reducers/``)."""

from __future__ import annotations

import json
from collections.abc import Hashable, Mapping, Sequence, Set
from dataclasses import dataclass
from pathlib import Path

from evalplus_ng.errors import InputError
from evalplus_ng.resources import data_dir
from evalplus_ng.setcover import cover_masks

#: The requirement kinds a profile may name.
REQUIREMENTS = ("coverage", "mutants", "samples")


@dataclass(frozen=True)
class Profile:
    """A named reduction: the requirement kinds to keep, and whether base tests always stay."""

    name: str
    requirements: tuple[str, ...]
    keep_base: bool
    description: str = ""


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
    return Profile(path.stem, tuple(dict.fromkeys(requirements)), keep_base, str(description))


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


#: One requirement kind of one task: test -> goals as the bits of an int, and bits used.
KindMasks = tuple[Mapping[int, int], int]


def masks_of(matrix: Mapping[int, Set[Hashable]]) -> KindMasks:
    """A ``test -> goals`` matrix as bit masks (goal bits in first-seen test order)."""
    bits: dict[Hashable, int] = {}
    masks: dict[int, int] = {}
    for test in sorted(matrix):
        mask = 0
        for goal in sorted(matrix[test], key=repr):
            mask |= 1 << bits.setdefault(goal, len(bits))
        masks[test] = mask
    return masks, len(bits)


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
    combined: dict[int, int] = {}
    offset = 0
    for kind in profile.requirements:
        masks, width = kinds[kind]
        allowed = ~(excluded or {}).get(kind, 0)
        for test, mask in masks.items():
            combined[test] = combined.get(test, 0) | (mask & allowed) << offset
        offset += width
    ranked = set(order)
    keep = [t for t in base if t in ranked] if profile.keep_base else []
    return sorted(cover_masks(combined, order, keep))


def select(
    profile: Profile,
    matrices: Mapping[str, Mapping[int, Set[Hashable]]],
    order: Sequence[int],
    base: Sequence[int] = (),
) -> list[int]:
    """:func:`select_masks` on plain ``kind -> test -> goals`` matrices."""
    return select_masks(profile, {kind: masks_of(m) for kind, m in matrices.items()}, order,
                        base)
