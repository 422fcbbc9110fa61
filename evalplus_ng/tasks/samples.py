"""Read LLM samples files (JSON Lines with ``task_id`` and ``completion`` or ``solution``)."""

from __future__ import annotations

import ast
import enum
import errno
import fnmatch
import os
import re
import stat
import warnings
from collections import Counter
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from evalplus_ng.errors import InputError
from evalplus_ng.records import SANITIZE_LIMIT, TOO_LARGE, Sample, Task
from evalplus_ng.sandbox.bounded import CallLimits, Exceeded, bounded_map
from evalplus_ng.tasks.sources import read_jsonl
from evalplus_ng.types import TaskId

#: The largest answer (``completion`` or ``solution``, UTF-8 bytes) judged: a larger one
#: is failed unread (:data:`TOO_LARGE`), before anything parses it. Parsing costs about
#: 500 bytes of memory per byte of source (256 KiB: some 130 MB, in the bounded worker);
#: the largest of 10,988 answers in 67 HumanEval samples files is 5.8 KB.
MAX_SOURCE_BYTES = 256 << 10
#: What sanitizing one answer may use, in a worker process (see :func:`prepare_all`).
#: The slowest of those 10,988 answers takes 33 ms of CPU (93 ms for EvalPlus's sanitizer,
#: :mod:`evalplus_ng.tasks.extract`): 1 s leaves room for slower machines.
PREPARE_LIMITS = CallLimits(cpu_seconds=1.0, memory_bytes=1 << 30)
#: The text kept as the code of a sample too large to read (its first characters).
_HEAD_CHARS = 1000


class Sanitizing(enum.StrEnum):
    """How an answer becomes the program judged."""

    #: As ``evalplus.evaluate`` alone runs it: a ``solution`` as written, else the prompt
    #: followed by the ``completion`` (``--no-sanitize``).
    NONE = "none"
    #: As EvalPlus's documented workflow: ``evalplus.sanitize``, then ``evalplus.evaluate``
    #: (:func:`evalplus_ng.tasks.extract.program`); ``evaluate``'s default.
    EVALPLUS = "evalplus"
    #: Our sanitizer (:func:`evalplus_ng.tasks.sanitize.prepare`), which also repairs what
    #: changes a sample's meaning: a forgotten import added, a body found in prose or
    #: re-indented, a helper the answer broke dropped for the prompt's own (``--repair``).
    REPAIR = "repair"


#: The bounded function that makes each answer's program, by way of sanitizing.
_PREPARE = {Sanitizing.EVALPLUS: "evalplus_ng.tasks.extract:program",
            Sanitizing.REPAIR: "evalplus_ng.tasks.sanitize:prepare"}

#: A field of a samples file's name that names a prompt template: capitals and digits
#: (``ALPACA``, ``VICUNA``, ``LONG``, ``Q``, ``H2O``).
_TEMPLATE_FIELD = re.compile(r"[A-Z][A-Z0-9]*")


def model_of(file_name: str) -> str:
    """The model a samples file comes from.

    Files are named ``<hub-user>_<model>_<TEMPLATE>...jsonl`` (one file per model and
    prompt template): the model is the name up to its first ``_``-field, after the
    first two, written in capitals only. A name without such a field is a model of
    its own (``samples.jsonl`` is ``samples``).
    """
    stem = Path(file_name).name.removesuffix(".jsonl")
    fields = stem.split("_")
    for index in range(2, len(fields)):
        if _TEMPLATE_FIELD.fullmatch(fields[index]):
            return "_".join(fields[:index])
    return stem


#: The user's families (``--family PATTERN=FAMILY``): (pattern, family) pairs, in order.
Families = Sequence[tuple[str, str]]


def parse_families(entries: Sequence[str], where: str = "--family") -> tuple[tuple[str, str], ...]:
    """``PATTERN=FAMILY`` entries (the samples files whose name matches the shell pattern
    PATTERN are of FAMILY); InputError for an entry that is not one."""
    table: list[tuple[str, str]] = []
    for entry in entries:
        pattern, _, family = entry.rpartition("=")
        if not pattern.strip() or not family.strip():
            raise InputError(where, None, f"expected PATTERN=FAMILY, got {entry!r}")
        table.append((pattern.strip(), family.strip()))
    return tuple(table)


def families_of(files: Sequence[Path], declared: Families = (),
                where: str = "--family") -> list[str]:
    """The family of each samples file, for the jury: that of the first ``declared``
    pattern its name matches (:func:`fnmatch.fnmatchcase`), else a family of its own (its
    name: nothing read from a name groups files). InputError for a pattern that matches
    none of ``files`` (a typo would silently leave its files apart)."""
    for pattern, family in declared:
        if not any(fnmatch.fnmatchcase(file.name, pattern) for file in files):
            raise InputError(where, None, f"{pattern}={family}: {pattern!r} matches no "
                             "samples file (a shell pattern of file names, e.g. "
                             f"'{pattern.strip('*')}*')")
    return [next((family for pattern, family in declared
                  if fnmatch.fnmatchcase(file.name, pattern)), file.name) for file in files]


def sample_files(path: Path) -> list[Path]:
    """The samples files ``path`` names: itself (a file), or every ``*.jsonl`` in it (a
    folder, by name; each a regular file of the folder's own, never a link:
    :data:`NOT_OWN_FILE`); InputError when there are none."""
    if path.is_file():
        return [path]
    files = sorted(path.glob("*.jsonl")) if path.is_dir() else []
    if not files:
        raise InputError(str(path), None, "no *.jsonl samples files in this folder"
                         if path.is_dir() else "no such samples file or folder")
    for file in files:
        if file.is_symlink() or not file.is_file():
            raise InputError(str(file), None, NOT_OWN_FILE)
    return files


def read_samples(path: str | Path, tasks: Mapping[TaskId, Task]) -> list[Sample]:
    """Samples in file order, sanitized into runnable code, repairs included (the jury and
    the MINI want every sample that can run); other fields are ignored.

    A ``completion`` is sanitized against the task's prompt (it may be a body, a
    whole function, markdown...); a ``solution`` that parses and defines the
    entry point runs as given, any other is sanitized too. That work runs in a bounded
    worker (:func:`prepare_all`): an answer past its limits, or over
    :data:`MAX_SOURCE_BYTES` (checked first, before any parse), gives a refused sample
    (:attr:`~evalplus_ng.records.Sample.refused`).
    Raises :class:`InputError` naming the line of the first malformed record.
    """
    return read_samples_of(path, tasks)[0]


def read_samples_of(path: str | Path, tasks: Mapping[TaskId, Task],
                    others: Callable[[], Collection[TaskId]] = lambda: (),
                    sanitizing: Sanitizing = Sanitizing.REPAIR,
                    ) -> tuple[list[Sample], Counter[TaskId]]:
    """:func:`read_samples`, but records of the tasks ``others()`` names (tasks the
    dataset has and the suite lacks) are checked and left out, counted per task, as
    EvalPlus warns and skips them; only a task unknown to both is an error. ``others`` is
    called once, at the first record of a task outside ``tasks`` (it may load a dataset).
    The samples may then be none (all skipped): the caller decides whether that is an error.
    ``sanitizing`` says how an answer becomes its program (:class:`Sanitizing`)."""
    path = Path(path)
    samples: list[Sample] = []
    pending: dict[tuple[str, TaskId, bool], list[int]] = {}
    skipped: Counter[TaskId] = Counter()
    outside: Collection[TaskId] | None = None
    for record in sample_records(path):
        where, line, fields = record.where, record.line, record.fields
        task_id = fields.get("task_id")
        if not isinstance(task_id, str):
            raise InputError(where, line, "missing or non-string 'task_id'")
        task = tasks.get(task_id)
        if task is None and outside is None:
            outside = others()
        if task is None and task_id not in (outside or ()):
            raise InputError(where, line, f"unknown task_id {task_id!r}")
        solution = fields.get("solution")
        answer = solution if solution is not None else fields.get("completion")
        if not isinstance(answer, str):
            raise InputError(where, line, "missing or non-string 'completion'/'solution'")
        if task is None:
            skipped[task_id] += 1
            continue
        if len(answer) * 4 > MAX_SOURCE_BYTES and _size(answer) > MAX_SOURCE_BYTES:
            samples.append(Sample(task_id, answer[:_HEAD_CHARS], record.index, TOO_LARGE))
        elif sanitizing is Sanitizing.NONE:
            code = solution if solution is not None else task.prompt + answer
            samples.append(Sample(task_id, code, record.index))
        else:
            # Sanitized below, all at once; identical answers to a task only once.
            pending.setdefault((answer, task_id, solution is not None), []).append(
                len(samples))
            samples.append(Sample(task_id, answer, record.index))
    if not samples and not skipped:
        raise InputError(str(path), None,
                         f"no samples {'here' if path.is_dir() else 'in file'}")
    codes = prepare_all([(answer, tasks[task_id].prompt, tasks[task_id].entry_point, solution)
                         for answer, task_id, solution in pending], sanitizing=sanitizing)
    for places, code in zip(pending.values(), codes, strict=True):
        for place in places:
            sample = samples[place]
            samples[place] = (replace(sample, refused=SANITIZE_LIMIT)
                              if isinstance(code, Exceeded) else replace(sample, code=code))
    return samples, skipped


def _size(text: str) -> int:
    """Length in UTF-8 bytes (a lone surrogate, which JSON can spell, as three)."""
    return len(text.encode("utf-8", "surrogatepass"))


def prepare_all(answers: Sequence[tuple[str, str, str, bool]],
                limits: CallLimits = PREPARE_LIMITS,
                sanitizing: Sanitizing = Sanitizing.REPAIR) -> list[str | Exceeded]:
    """The program of each ``(answer, prompt, entry_point, solution)``
    (:data:`Sanitizing.EVALPLUS` or :data:`Sanitizing.REPAIR`), in one bounded worker
    process (none when there is nothing to prepare): an answer that makes sanitizing
    exceed ``limits`` gets :class:`Exceeded`."""
    if not answers:
        return []
    return bounded_map(_PREPARE[sanitizing], answers, limits)


def repaired_positions(repaired: Sequence[Sample], plain: Sequence[Sample],
                       limits: CallLimits = PREPARE_LIMITS) -> list[int]:
    """Positions of the samples whose program the repairs changed: ``repaired`` and
    ``plain`` are one file read with :data:`Sanitizing.REPAIR` and with
    :data:`Sanitizing.EVALPLUS`. Two texts of one program (the same syntax tree: only
    layout and comments differ) are no change; that is asked of a bounded worker."""
    differ = [position for position, (mine, theirs) in enumerate(zip(repaired, plain,
                                                                     strict=True))
              if (mine.code, mine.refused) != (theirs.code, theirs.refused)]
    asked = [p for p in differ if not repaired[p].refused and not plain[p].refused]
    answers = bounded_map("evalplus_ng.tasks.samples:same_program",
                          [(repaired[p].code, plain[p].code) for p in asked],
                          limits) if asked else []
    alike = {p for p, answer in zip(asked, answers, strict=True) if answer == _SAME}
    return [p for p in differ if p not in alike]


_SAME = "same"


def same_program(one: str, other: str) -> str:
    """``"same"`` when both texts parse to the same syntax tree, else ``""`` (a text for
    :func:`~evalplus_ng.sandbox.bounded.bounded_map`)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # invalid escapes only warn
        try:
            trees = [ast.dump(ast.parse(code)) for code in (one, other)]
        except (SyntaxError, ValueError, RecursionError):
            return ""
    return _SAME if trees[0] == trees[1] else ""


@dataclass(frozen=True)
class SampleRecord:
    """One sample as written: where it is (file, and line for JSON Lines), its place in
    the samples (1-based), and its fields."""

    where: str
    line: int | None
    index: int
    fields: dict[str, Any]


#: Why an entry of a samples folder is refused: the folder's own files only are read, so
#: that a link cannot make a run read (and copy into its results) a file elsewhere.
NOT_OWN_FILE = "a link or not a regular file: a samples folder is read for its own files only"
#: How a sample's file in a folder is opened: never through a link, never waiting (on a
#: FIFO, say: it is refused once open).
_OWN_FILE = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
#: How a task's sub-folder is opened: a folder, never through a link.
_OWN_FOLDER = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def sample_records(path: Path) -> Iterator[SampleRecord]:
    """The records of a samples file (JSON Lines), or of a folder in EvalPlus's layout:
    one sub-folder per task (``HumanEval_0``: ``_`` for ``/``, as EvalPlus reads it) of
    complete solutions ``0.py``, ``1.py``, ... (in the order of their numbers). In a folder,
    a task's sub-folder or a ``.py`` file that is a link, or not a folder or a regular file,
    is an :class:`InputError` naming it (:data:`NOT_OWN_FILE`)."""
    if not path.is_dir():
        for number, fields in read_jsonl(path):
            yield SampleRecord(str(path), number, number, fields)
        return
    index = 0
    for folder in _task_folders(path):
        task_id = os.path.basename(folder).replace("_", "/")
        try:
            handle = os.open(folder, _OWN_FOLDER)
        except OSError as exc:
            raise InputError(folder, None, _refusal(exc)) from None
        try:
            with os.scandir(handle) as entries:
                names = sorted((e.name for e in entries
                                if e.name.endswith(".py") and not e.name.startswith(".")),
                               key=_natural)
            for name in names:
                index += 1
                code = _own_text(os.path.join(folder, name), name, handle)
                yield SampleRecord(os.path.join(folder, name), None, index,
                                   {"task_id": task_id, "solution": code})
        finally:
            os.close(handle)


def _task_folders(path: Path) -> list[str]:
    """The sub-folders of ``path`` (paths, in natural order); InputError for a link to
    a folder."""
    found = []
    with os.scandir(path) as entries:
        for entry in entries:
            if entry.is_symlink() and entry.is_dir():
                raise InputError(entry.path, None, NOT_OWN_FILE)
            if entry.is_dir(follow_symlinks=False):
                found.append(entry.path)
    return sorted(found, key=lambda p: _natural(os.path.basename(p)))


def _own_text(where: str, name: str, folder: int) -> str:
    """The text of the regular file ``name`` in the open folder ``folder``, never through
    a link (``where``: its path, for errors)."""
    try:
        handle = os.open(name, _OWN_FILE, dir_fd=folder)
    except OSError as exc:
        raise InputError(where, None, _refusal(exc)) from None
    if not stat.S_ISREG(os.fstat(handle).st_mode):
        os.close(handle)
        raise InputError(where, None, NOT_OWN_FILE)
    with open(handle, "rb") as file:
        try:
            return file.read().decode("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(where, None, f"cannot read: {exc}") from None


def _refusal(error: OSError) -> str:
    """What an ``open`` of a samples folder's entry that failed says: a link (or, for a
    folder, not one) is :data:`NOT_OWN_FILE`."""
    if error.errno in (errno.ELOOP, errno.ENOTDIR):
        return NOT_OWN_FILE
    return f"cannot read: {error.strerror or error}"


def _natural(name: str) -> tuple[Any, ...]:
    """``HumanEval_2`` before ``HumanEval_10``, ``2.py`` before ``10.py``."""
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name))


def read_sample_folder(folder: Path, tasks: Mapping[TaskId, Task]) -> list[tuple[str, Sample]]:
    """Every sample of every ``*.jsonl`` file in ``folder`` (sorted by name; or of the one
    file ``folder`` names) with its file name; refused samples (:attr:`Sample.refused`) are
    left out: they have no code to run."""
    found: list[tuple[str, Sample]] = []
    for path in sample_files(Path(folder)):
        found.extend((path.name, sample) for sample in read_samples(path, tasks)
                     if not sample.refused)
    return found
