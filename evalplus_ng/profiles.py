"""Reduction profiles: which requirements a reduced suite keeps (data in ``reducers/``)."""

from __future__ import annotations

import json
from collections.abc import Hashable, Mapping, Sequence, Set
from dataclasses import dataclass
from pathlib import Path

from evalplus_ng.errors import InputError
from evalplus_ng.resources import data_dir
from evalplus_ng.setcover import greedy_cover

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


def select(
    profile: Profile,
    matrices: Mapping[str, Mapping[int, Set[Hashable]]],
    order: Sequence[int],
    base: Sequence[int] = (),
) -> list[int]:
    """The tests (indices) a profile keeps of one task.

    ``matrices`` maps each requirement kind to ``test -> goals met``; goals of
    different kinds never collide. ``order`` ranks the candidate tests
    (preferred first); ``base`` are the base tests, kept when the profile says so.
    Returns the kept tests in ascending order.
    """
    missing = [kind for kind in profile.requirements if kind not in matrices]
    if missing:
        raise ValueError(f"profile {profile.name!r} needs {', '.join(missing)}")
    goals: dict[int, set[tuple[str, Hashable]]] = {}
    for kind in profile.requirements:
        for test, met in matrices[kind].items():
            goals.setdefault(test, set()).update((kind, goal) for goal in met)
    keep = [t for t in base if t in set(order)] if profile.keep_base else []
    return sorted(greedy_cover(goals, order, keep))
