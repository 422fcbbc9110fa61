"""What a dataset is: where its tasks come from, what its artifacts are called, where its
data lives.

A :class:`Dataset` says where a benchmark's tasks come from (a registered loader and,
for file-based ones, the file), what its artifacts are called (``HumanEvalPlus*``,
``MbppPlus*``, or a name made from the user's file) and where its data lives: the
folders holding contracts, seed corpora, fixed references, plain references, review
notes and the definition (``dataset.json``: how outputs compare, tolerances, special
oracles, efficiency asks). Loaders register by kind (:func:`register`), the way
Hypothesis registers strategies by type; :mod:`evalplus_ng.tasks.registry` registers the
built-in ones and names datasets.

Data folders are searched in order; the first is the user's (``--data DIR``), where
``evalplus-ng seed`` writes, never inside the installed package. The shipped data of
a built-in dataset comes after it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evalplus_ng.errors import InputError
from evalplus_ng.records import EQUALITIES, TYPED, Task
from evalplus_ng.resources import data_dir

#: Suite kinds ``augment`` writes, with the suffix of each file name after the stem.
SUITE_SUFFIXES = {"plus": "", "mini": "-Mini", "stress": "-Stress", "stress-mini": "-Stress-Mini",
                  "edge": "-Edge"}
#: The reduced suite of each full suite kind.
MINI_OF = {"plus": "mini", "stress": "stress-mini"}
#: The user's data folder when none is named: ``data`` in the default output folder.
DEFAULT_DATA = Path("evalplus-ng-out") / "data"
#: A dataset's definition file inside its definition folder.
DEFINITION = "dataset.json"


_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")


def file_stem(task_id: str) -> str:
    """The file name (without suffix) of a task's data: ``HumanEval/0`` -> ``HumanEval_0``.
    Any other character a file name should not hold also becomes ``_``, and the id's
    digest is then appended, so that two ids never share a file."""
    stem = task_id.replace("/", "_")
    if all(char in _SAFE for char in stem) and not stem.startswith("."):
        return stem
    cleaned = "".join(char if char in _SAFE else "_" for char in stem).lstrip(".")
    return f"{cleaned[:80]}-{hashlib.sha256(task_id.encode()).hexdigest()[:8]}"


@dataclass(frozen=True)
class DataFolder:
    """One place holding a dataset's data: the definition folder (``dataset.json``,
    ``fixed/``, ``plain/``, ``audit_review.json``), the contracts and the seed corpora."""

    definition: Path
    contracts: Path
    seeds: Path

    @classmethod
    def user(cls, root: Path) -> DataFolder:
        """A user's data folder: everything under ``root``."""
        return cls(root, root / "contracts", root / "seeds")

    @classmethod
    def shipped(cls, name: str) -> DataFolder:
        """A built-in dataset's data, installed with the package."""
        return cls(data_dir("datasets") / name, data_dir("contracts") / name,
                   data_dir("seeds") / name)


@dataclass(frozen=True)
class Dataset:
    """One benchmark: its loader ``kind``, its ``source`` file (None: the loader finds
    it), its artifact ``stem`` and its data ``folders`` (the user's first)."""

    name: str
    kind: str
    stem: str
    folders: tuple[DataFolder, ...]
    source: Path | None = None

    @property
    def schema(self) -> str:
        """The schema its suites are written in (:data:`evalplus_ng.tasks.artifact.TEST_FIELD`):
        MBPP+'s for MBPP+, else HumanEval+'s (a user's own benchmark too)."""
        return "mbpp" if self.kind == "mbpp" else "humaneval"

    def suite_file(self, kind: str) -> str:
        """The file name of one suite kind (``plus`` -> ``HumanEvalPlus.jsonl.gz``)."""
        return f"{self.stem}{SUITE_SUFFIXES[kind]}.jsonl.gz"

    def suite_files(self) -> dict[str, str]:
        """Every suite kind's file name."""
        return {kind: self.suite_file(kind) for kind in SUITE_SUFFIXES}

    @property
    def user_folder(self) -> DataFolder:
        """Where new data (LLM seeds) is written."""
        return self.folders[0]

    def definition_folders(self) -> list[Path]:
        """Definition folders, the lowest priority first (a later one overrides)."""
        return [folder.definition for folder in reversed(self.folders)]

    def definition(self) -> dict[str, Any]:
        """``dataset.json`` of every folder, merged per key (the user's entries win)."""
        merged: dict[str, Any] = {}
        for folder in self.definition_folders():
            path = folder / DEFINITION
            if not path.is_file():
                continue
            try:
                document = json.loads(path.read_text(encoding="utf-8"))
            except ValueError as exc:
                raise InputError(str(path), None, f"invalid JSON: {exc}") from None
            if not isinstance(document, dict):
                raise InputError(str(path), None, "expected a JSON object")
            for key, value in document.items():
                if isinstance(value, dict) and isinstance(merged.get(key), dict):
                    merged[key] = {**merged[key], **value}
                else:
                    merged[key] = value
        return merged

    def equality(self) -> str:
        """How the dataset's outputs compare (:data:`evalplus_ng.records.EQUALITIES`):
        ``equality`` in its ``dataset.json``, :data:`~evalplus_ng.records.TYPED` when none."""
        equality = self.definition().get("equality", TYPED)
        return checked_equality(equality, f"{self.name}: {DEFINITION}", None)

    def _first(self, kind: str, task_id: str, suffix: str, sub: str = "") -> Path | None:
        name = file_stem(task_id) + suffix
        for folder in self.folders:
            base = {"definition": folder.definition, "contracts": folder.contracts,
                    "seeds": folder.seeds}[kind]
            path = base / sub / name
            if path.is_file():
                return path
        return None

    def contract_path(self, task_id: str) -> Path | None:
        """The task's contract file (``<Task_Id>.py``) in the first folder holding one."""
        return self._first("contracts", task_id, ".py")

    def corpus_path(self, task_id: str) -> Path | None:
        """The task's seed corpus (``<Task_Id>.json``) in the first folder holding one."""
        return self._first("seeds", task_id, ".json")

    def new_corpus_path(self, task_id: str) -> Path:
        """Where ``seed`` writes the task's corpus: the user's folder."""
        return self.user_folder.seeds / (file_stem(task_id) + ".json")

    def task_file(self, kind: str, task_id: str) -> Path | None:
        """``<definition folder>/<kind>/<Task_Id>.py`` (kind ``fixed`` or ``plain``) in the
        first folder holding one."""
        return self._first("definition", task_id, ".py", kind)

    def load(self, cache: Path | None = None, use_fixed: bool = True) -> list[Task]:
        """The tasks, through the loader registered for :attr:`kind`."""
        return LOADERS[self.kind](self, cache, use_fixed)


#: ``(dataset, cache folder or None, use_fixed) -> tasks``.
Loader = Callable[[Dataset, "Path | None", bool], list[Task]]
LOADERS: dict[str, Loader] = {}
#: EvalPlus's variables naming a built-in dataset's file.
OVERRIDES = {"mbpp": "MBPP_OVERRIDE_PATH"}
#: Built-in datasets by name: (loader kind, artifact stem).
BUILT_IN: dict[str, tuple[str, str]] = {}


def register(kind: str, name: str | None = None,
             stem: str | None = None) -> Callable[[Loader], Loader]:
    """Register a loader for ``kind``; with ``name`` and ``stem``, also a built-in dataset
    of that name whose artifacts are ``<stem>*.jsonl.gz``."""

    def decorate(loader: Loader) -> Loader:
        LOADERS[kind] = loader
        if name is not None and stem is not None:
            BUILT_IN[name] = (kind, stem)
        return loader

    return decorate


def checked_equality(equality: Any, path: str, line: int | None) -> str:
    """``equality`` when it is one of :data:`evalplus_ng.records.EQUALITIES`, else an
    :class:`InputError` naming where it was read."""
    if equality not in EQUALITIES:
        raise InputError(path, line, f"unknown equality {equality!r}; known: "
                                     f"{', '.join(EQUALITIES)}")
    return str(equality)


def built_in_oracles() -> dict[str, str]:
    """Special oracles of every built-in dataset by task id, for suite files that do not
    record their own (EvalPlus's released files)."""
    found: dict[str, str] = {}
    for path in sorted(data_dir("datasets").glob(f"*/{DEFINITION}")):
        found.update(json.loads(path.read_text(encoding="utf-8")).get("oracles", {}))
    return found
