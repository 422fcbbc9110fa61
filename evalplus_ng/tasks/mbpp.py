"""MBPP+ (EvalPlus's release v0.2.0, 378 tasks) as a dataset.

The tasks come from EvalPlus's ``MbppPlus.jsonl.gz``: the file ``--dataset-file`` names,
else ``$MBPP_OVERRIDE_PATH`` (EvalPlus's own variable), else a copy downloaded once from
EvalPlus's GitHub release into the user cache and checked against :data:`TASKS_DIGEST`.
Its ``plus_input`` field is never read: our plus inputs are our own.

MBPP references carry almost no annotations, and the released ``base_input`` is plain
JSON (tuples became lists). The typed base inputs are the arguments of the ``assertion``
field's calls (``assert f((3, 4), 2) == ...``), evaluated as Python, where tuples stay
tuples; their types are then the parameters' types (:func:`evalplus_ng.typespec.infer`).
EvalPlus's ``contract`` asserts become each task's precondition
(:func:`evalplus_ng.generate.contract.precondition_from_asserts`).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import sys
import urllib.request
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from evalplus_ng import typespec
from evalplus_ng.errors import EvalplusError, InputError
from evalplus_ng.files import write_atomically
from evalplus_ng.records import Task
from evalplus_ng.tasks.sources import calls_in_asserts, fixed_solutions, read_jsonl, user_cache_dir
from evalplus_ng.tasks.spec import OVERRIDES, Dataset
from evalplus_ng.types import Args

VERSION = "v0.2.0"
URL = f"https://github.com/evalplus/mbppplus_release/releases/download/{VERSION}/MbppPlus.jsonl.gz"
#: The fields of a task that the release and its tasks-only copy share, in digest order.
DIGESTED = ("task_id", "prompt", "entry_point", "canonical_solution", "base_input", "atol",
            "contract", "assertion")
#: SHA-256 of :func:`tasks_digest` over release v0.2.0: what a downloaded file must hold
#: (its plus inputs are not part of the digest: they are never read).
TASKS_DIGEST = "947106b31f98c72dc2ecef52f673466ef6dd36d1e735c83bd057ef7c3441ba2a"
REQUIRED = ("task_id", "prompt", "entry_point", "canonical_solution", "base_input")

Progress = Callable[[int, int], None]


def tasks_digest(records: Iterable[Mapping[str, Any]]) -> str:
    """A digest of the tasks' :data:`DIGESTED` fields, in task order."""
    digest = hashlib.sha256()
    for record in records:
        digest.update(json.dumps([record.get(name) for name in DIGESTED],
                                 sort_keys=True).encode())
        digest.update(b"\n")
    return digest.hexdigest()


def _bar(done: int, total: int) -> None:
    """A one-line progress bar on stderr (``total`` 0: unknown size)."""
    shown = f"{done / total:6.1%}" if total else f"{done >> 10} KiB"
    print(f"\rdownloading MbppPlus {VERSION}: {shown}", end="" if done < total else "\n",
          file=sys.stderr, flush=True)


def download(url: str, path: Path, expected: str, progress: Progress | None = _bar) -> Path:
    """Fetch ``url`` into ``path`` (atomically) and check its tasks' digest; a file that
    does not match is not kept."""
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            total = int(response.headers.get("Content-Length") or 0)
            chunks: list[bytes] = []
            done = 0
            while chunk := response.read(1 << 16):
                chunks.append(chunk)
                done += len(chunk)
                if progress is not None:
                    progress(done, max(total, done) if total else 0)
    except OSError as exc:
        raise EvalplusError(f"cannot download MBPP+ from {url} ({exc}): pass --dataset-file "
                            f"or set ${OVERRIDES['mbpp']} to a local MbppPlus.jsonl.gz") from None
    data = b"".join(chunks)
    if progress is not None and not total:
        progress(done, done)
    try:
        text = gzip.decompress(data).decode("utf-8")
        records = [json.loads(line) for line in text.splitlines() if line.strip()]
    except (OSError, EOFError, ValueError) as exc:
        raise EvalplusError(f"{url}: not a gzipped JSON Lines file ({exc})") from None
    found = tasks_digest(records)
    if found != expected:
        raise EvalplusError(f"{url}: the tasks' digest is {found}, expected {expected}: "
                            "not MBPP+ " + VERSION)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, data)
    return path


def source_file(dataset: Dataset) -> Path:
    """The MbppPlus file to read: ``dataset.source`` (``--dataset-file``, else
    ``$MBPP_OVERRIDE_PATH``: :func:`evalplus_ng.tasks.registry.resolve`), or the cached download
    (fetched now when missing)."""
    if dataset.source is not None:
        return dataset.source
    cached = user_cache_dir() / f"MbppPlus-{VERSION}.jsonl.gz"
    return cached if cached.is_file() else download(URL, cached, TASKS_DIGEST)


def _plain(value: Any) -> Any:
    """``value`` as the release's JSON holds it: tuples and sets as lists."""
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _key(value: Any) -> str:
    try:
        return json.dumps(value, sort_keys=True, default=str)
    except (TypeError, ValueError):  # keys of mixed types do not sort
        return repr(value)


def _retype(value: Any, template: Any) -> Any:
    """``value`` (plain JSON) shaped like ``template`` (the same argument in an assert):
    lists become tuples where the template has a tuple, strings numbers where it has a
    number (MBPP+ writes complex numbers as strings)."""
    kind = type(template)
    if kind in (list, tuple) and type(value) is list:
        items = list(template)
        shaped = [_retype(v, items[min(i, len(items) - 1)]) if items else v
                  for i, v in enumerate(value)]
        return tuple(shaped) if kind is tuple else shaped
    if kind is dict and type(value) is dict and template:
        sample = next(iter(template.values()))
        return {k: _retype(v, sample) for k, v in value.items()}
    if kind in (complex, float, int) and type(value) is str:
        try:
            return complex(value) if kind is complex else float(value)
        except ValueError:
            return value
    return value


def typed_base_inputs(record: Mapping[str, Any], plain: bool = False) -> tuple[Args, ...]:
    """The task's base inputs (``base_input``, the truth) with their Python types, taken
    from the calls in its asserts (``assertion``, ``test_list``): an entry equal to a
    call as plain JSON is that call; another is shaped like the call at its position
    (:func:`_retype`). ``plain`` keeps the JSON (lists stay lists) where EvalPlus passes
    lists though the asserts write tuples (``plain_inputs`` in ``dataset.json``)."""
    base: list[Args] = record["base_input"]
    if plain:
        return tuple(base)
    own = record.get("assertion", "")
    try:
        calls = calls_in_asserts("\n".join([own, *record.get("test_list", [])]),
                                 record["entry_point"], record.get("test_imports", []))
        positional = calls_in_asserts(own, record["entry_point"],
                                      record.get("test_imports", []))
    except Exception:  # an assert we cannot evaluate: plain JSON then
        return tuple(base)
    by_plain = {_key(_plain(args)): args for args in calls}
    typed: list[Args] = []
    for index, args in enumerate(base):
        match = by_plain.get(_key(args))
        if match is None and calls:
            template = positional[index] if len(positional) == len(base) else calls[0]
            match = list(_retype(list(args), list(template)))
        typed.append(match if match is not None else args)
    return tuple(typed)


def _conformed(inputs: tuple[Args, ...], types: list[str] | None) -> tuple[Args, ...]:
    """``inputs`` converted exactly to the argument ``types`` (annotation text) where
    ``dataset.json`` names them: EvalPlus passes ``complex(x)`` to Mbpp/252."""
    if not types:
        return inputs
    specs = [typespec.parse(text) for text in types]
    return tuple([typespec.conform(value, spec) for value, spec in zip(args, specs, strict=False)]
                 for args in inputs)


def read_records(path: Path) -> list[dict[str, Any]]:
    """The file's task records, checked for the fields a task needs."""
    records = []
    for number, record in read_jsonl(path):
        missing = [name for name in REQUIRED if name not in record]
        if missing:
            raise InputError(str(path), number, f"missing field(s): {', '.join(missing)}")
        records.append(record)
    return records


def load_mbpp(dataset: Dataset, cache: Path | None = None, use_fixed: bool = True,
              ) -> list[Task]:
    """The MBPP+ tasks, with typed base inputs, EvalPlus's contracts and tolerances, and
    the equality and special oracles of ``dataset.json`` (outputs compare by value;
    set-valued and not-None outputs)."""
    path = source_file(dataset)
    records = read_records(path)
    definition = dataset.definition()
    oracles: dict[str, str] = definition.get("oracles", {})
    equality = dataset.equality()
    plain = set(definition.get("plain_inputs", {}))
    input_types: dict[str, list[str]] = definition.get("input_types", {})
    ids = [record["task_id"] for record in records]
    fixed = fixed_solutions(dataset, ids) if use_fixed else {}
    tasks = []
    for record in records:
        task_id = record["task_id"]
        original = record["prompt"] + record["canonical_solution"]
        canonical, kept = record["canonical_solution"], ""
        if task_id in fixed:
            canonical, kept = "\n\n" + fixed[task_id].code, original
        tasks.append(Task(
            task_id=task_id,
            prompt=record["prompt"],
            entry_point=record["entry_point"],
            solution=record["prompt"] + canonical,
            base_inputs=_conformed(typed_base_inputs(record, task_id in plain),
                                   input_types.get(task_id)),
            atol=float(record.get("atol") or 0.0),
            contract=str(record.get("contract", "")),
            canonical_solution=canonical,
            test=str(record.get("assertion", "")),
            original_solution=kept,
            oracle=oracles.get(task_id, ""),
            equality=equality,
        ))
    return tasks
