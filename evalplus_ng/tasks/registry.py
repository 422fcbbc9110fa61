"""Datasets by name: the built-in loaders (``humaneval``, ``mbpp``, a tasks file) and
:func:`resolve`, which turns ``--dataset`` into a :class:`~evalplus_ng.tasks.spec.Dataset`."""

from __future__ import annotations

import os
from pathlib import Path

from evalplus_ng.errors import InputError
from evalplus_ng.records import Task
from evalplus_ng.tasks import humaneval, mbpp, tasksfile
from evalplus_ng.tasks.programfile import is_program_file
from evalplus_ng.tasks.spec import (
    BUILT_IN,
    DEFAULT_DATA,
    OVERRIDES,
    DataFolder,
    Dataset,
    register,
)

#: Suffixes of a tasks file named by ``--dataset``.
TASKS_FILE_SUFFIXES = (".jsonl", ".jsonl.gz")


def _file_stem(path: Path) -> str:
    name = path.name
    for suffix in TASKS_FILE_SUFFIXES:
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    return name


register("humaneval", "humaneval", "HumanEvalPlus")(humaneval.load)
register("mbpp", "mbpp", "MbppPlus")(mbpp.load_mbpp)
register("tasks")(tasksfile.load_tasks_file)


def known() -> list[str]:
    """The built-in datasets' names."""
    return sorted(BUILT_IN)


def program_file(name: str, dataset_file: Path | None = None) -> Path | None:
    """The tasks file of programs (stdin/stdout) that ``--dataset-file`` (or ``--dataset``)
    names, if it is one: where every command decides which kind of task it runs."""
    path = dataset_file or (Path(name) if name.endswith(TASKS_FILE_SUFFIXES) else None)
    return path if path is not None and is_program_file(path) else None


def resolve(name: str, data: Path | None = None, dataset_file: Path | None = None) -> Dataset:
    """The dataset ``--dataset`` names: a built-in name or a tasks file's path.

    ``data`` is the user's data folder (default :data:`DEFAULT_DATA`); ``dataset_file``
    overrides where a built-in dataset's tasks are read from (MBPP+: the released file).
    """
    user = DataFolder.user(data if data is not None else DEFAULT_DATA)
    if name in BUILT_IN:
        kind, stem = BUILT_IN[name]
        # The file named by EvalPlus's variable is the source too (and so hidden from samples).
        override = os.environ.get(OVERRIDES.get(name, ""), "") if dataset_file is None else ""
        source = Path(override) if override else dataset_file
        return Dataset(name, kind, stem, (user, DataFolder.shipped(name)), source)
    path = Path(name)
    if name.endswith(TASKS_FILE_SUFFIXES) or os.sep in name:
        if not path.is_file():
            raise InputError(name, None, "no such tasks file")
        stem = _file_stem(path)
        return Dataset(stem, "tasks", stem[:1].upper() + stem[1:] + "Plus", (user,), path)
    raise InputError("--dataset", None, f"unknown dataset {name!r}: give one of "
                     f"{', '.join(known())} or a tasks file (.jsonl or .jsonl.gz)")


def load_humaneval(dataset: Dataset | None = None, cache: Path | None = None,
                   use_fixed: bool = True) -> list[Task]:
    """HumanEval's 164 tasks (:func:`evalplus_ng.tasks.humaneval.load`), of the
    built-in dataset unless ``dataset`` names another folder of its data."""
    return humaneval.load(dataset if dataset is not None else resolve("humaneval"), cache,
                          use_fixed)
