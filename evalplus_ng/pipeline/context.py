"""What every command works in, built once (by the CLI, or by a caller of the Python API)
and passed down: the benchmark, the artifacts folder and where the work runs."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from evalplus_ng.backend.executors import LOCAL, Backend
from evalplus_ng.errors import InputError
from evalplus_ng.records import Task
from evalplus_ng.seal import secret_folder
from evalplus_ng.tasks.artifact import write_plus_file
from evalplus_ng.tasks.plusfile import load_plus_file
from evalplus_ng.tasks.sources import user_cache_dir
from evalplus_ng.tasks.spec import SUITE_SUFFIXES, Dataset

#: Where ``augment`` writes, and so where ``--suite plus|mini`` look by default.
DEFAULT_OUT = Path("evalplus-ng-out")
#: ``--suite``'s default: the plus suite in the artifacts folder when there is one.
AUTO = "auto"

#: ``(done, total)`` of a command's work.
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Workspace:
    """A benchmark, the folder of its artifacts (``augment`` writes there; ``evaluate``,
    ``audit``, ``calibrate`` and ``reduce`` read the suites there) and where the work
    runs (this machine's sandbox pool, or a Ray cluster)."""

    dataset: Dataset
    out: Path = DEFAULT_OUT
    backend: Backend = LOCAL

    def suite_file(self, kind: str) -> Path:
        """Where the suite of ``kind`` (``plus``, ``stress``, ``mini``, ...) is written."""
        return self.out / self.dataset.suite_file(kind)

    def suite_path(self, suite: str) -> Path | None:
        """The file ``--suite`` names: a kind ``augment`` writes, or a path; None for
        ``base`` (the dataset itself)."""
        if suite == "base":
            return None
        return self.suite_file(suite) if suite in SUITE_SUFFIXES else Path(suite)

    def resolved_suite(self, suite: str) -> str:
        """``auto`` (the default, as EvalPlus judges base and plus): ``plus`` when
        ``augment`` wrote a plus suite here, else ``base``; any other name as it is."""
        if suite != AUTO:
            return suite
        return "plus" if self.suite_file("plus").is_file() else "base"

    def answer_keys(self, *files: Path) -> list[Path]:
        """What a sample must not read, beyond the installed data: the suites here (each
        holds the reference solutions; any dataset's), ``files``, the dataset's own file
        and the user's data folder (fixed references), and evalplus-ng's own cache
        (recovered base inputs and their outputs) with the secret that seals results
        files (named apart: it is covered even where the whole cache cannot be). Passed to
        the sandbox as what it hides."""
        folder, dataset, cache = self.out, self.dataset, user_cache_dir()
        suites = {folder / name for name in dataset.suite_files().values()}
        suites |= set(folder.glob("*Plus*.jsonl*")) if folder.is_dir() else set()
        own = [dataset.source] if dataset.source is not None else []
        return [*sorted(suites), *files, *own, dataset.user_folder.definition, cache,
                secret_folder(cache)]

    def load_suite(self, suite: str) -> list[Task]:
        """Tasks of a suite: ``base`` (the dataset's own tests), ``plus``, ``mini``,
        ``stress`` (the efficiency tier), ``stress-mini`` or a file path."""
        path = self.suite_path(suite)
        if path is None:
            return [replace(task, plus_inputs=())
                    for task in self.dataset.load(cache=user_cache_dir())]
        if suite in SUITE_SUFFIXES and not path.is_file():
            raise InputError(
                str(path), None,
                f"no {suite} suite here: run `evalplus-ng augment --dataset "
                f"{self.dataset.name} --out {self.out}` or pass --suite PATH",
            )
        return load_plus_file(path, self.dataset.equality())


class Suites:
    """The suite files of a workspace as one run hands them from stage to stage: each
    file, once written (or read) in this run, is kept as the tasks it holds, and the next
    stage takes those instead of reading the file again. A suite file's tasks read back
    equal the tasks written, so a stage gets the same suite either way; a stage run alone
    (its own command) starts with none in hand and reads each file once."""

    def __init__(self, space: Workspace) -> None:
        self.space = space
        self._held: dict[Path, tuple[Task, ...]] = {}

    def load(self, path: Path) -> list[Task]:
        """The tasks of the suite file ``path`` (read once; kept)."""
        held = self._held.get(path)
        if held is None:
            held = tuple(load_plus_file(path, self.space.dataset.equality()))
            self._held[path] = held
        return list(held)

    def write(self, tasks: Sequence[Task], path: Path) -> None:
        """Write ``tasks`` as the suite file ``path`` (atomically) and keep them."""
        write_plus_file(tasks, path, self.space.dataset.schema)
        self._held[path] = tuple(tasks)

    def remove(self, path: Path) -> None:
        """Delete the suite file ``path`` (where it is) and forget it."""
        path.unlink(missing_ok=True)
        self._held.pop(path, None)
