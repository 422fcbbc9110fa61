"""Open the executor a command runs its sandbox jobs on, hiding the answer keys near it."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from evalplus_ng.judge import JUDGE
from evalplus_ng.sandbox import Limits, Sandbox
from evalplus_ng.seal import secret_folder
from evalplus_ng.tasks.sources import user_cache_dir
from evalplus_ng.tasks.spec import Dataset

if TYPE_CHECKING:
    from evalplus_ng.backend.cluster import RayExecutor


def answer_keys_near(folder: Path, dataset: Dataset, *files: Path) -> list[Path]:
    """What a sample must not read, beyond the installed data: the suites in ``folder``
    (each holds the reference solutions; any dataset's), ``files``, the dataset's own
    file and the user's data folder (fixed references), and evalplus-ng's own cache
    (recovered base inputs and their outputs) with the secret that seals results files
    (named apart: it is covered even where the whole cache cannot be). Passed to
    :class:`Sandbox` as ``hidden``."""
    suites = {folder / name for name in dataset.suite_files().values()}
    suites |= set(folder.glob("*Plus*.jsonl*")) if folder.is_dir() else set()
    own = [dataset.source] if dataset.source is not None else []
    return [*sorted(suites), *files, *own, dataset.user_folder.definition, user_cache_dir(),
            secret_folder(user_cache_dir())]


def open_executor(address: str | None, workers: int, limits: Limits,
                  hidden: Sequence[Path]) -> Sandbox | RayExecutor:
    """The local sandbox pool of ``workers`` (``address`` None), or the workers of the Ray
    cluster at ``address`` (``""``: the one running here, else a new local instance)."""
    if address is None:
        return Sandbox(workers, limits, judge=JUDGE, hidden=hidden)
    from evalplus_ng.backend.cluster import RayExecutor

    return RayExecutor(address or None, limits, map(str, hidden))
