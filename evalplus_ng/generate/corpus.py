"""Seed corpora: the committed ``seeds/<dataset>/<Task_Id>.json`` files.

A corpus file holds a task's seed inputs, each with its provenance (who proposed
it, for which prompt kind, on which day), and per-source tallies (inputs asked
for, parsed, valid). Replies (from an LLM, or written by hand) are parsed
strictly: only ``entry_point(<literals>)`` calls count, each argument read with
:func:`ast.literal_eval`; nothing in a reply is ever executed. Inputs are kept
only when they have the right arity, match the annotations and satisfy the
task's contract, and are new.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from itertools import islice
from pathlib import Path
from typing import Any

from evalplus_ng.errors import InputError
from evalplus_ng.files import write_atomically
from evalplus_ng.generate.contract import Contract
from evalplus_ng.serialize import Unserializable, canonical, decode, encode
from evalplus_ng.tasks.spec import file_stem
from evalplus_ng.types import Args
from evalplus_ng.typespec import conform

#: The prompt kinds of the EvalPlus paper, asked in turn.
PROMPT_KINDS = ("complex", "corner-case", "difficult")
#: A reply longer than this is cut before parsing (a flood cannot cost more).
MAX_REPLY_CHARS = 200_000
#: One call longer than this is ignored (a literal bomb cannot cost more).
MAX_CALL_CHARS = 20_000
#: Calls after this many in one reply are ignored (a flood of tiny calls cannot cost more).
MAX_REPLY_CALLS = 200


@dataclass(frozen=True)
class Provenance:
    """Where one seed input came from."""

    model: str
    prompt: str
    date: str

    def to_json(self) -> dict[str, str]:
        return {"model": self.model, "prompt": self.prompt, "date": self.date}


@dataclass(frozen=True)
class Entry:
    """One seed input with its provenance."""

    args: tuple[Any, ...]
    provenance: Provenance


@dataclass(frozen=True)
class Tally:
    """How many inputs one source was asked for, parsed and found valid.

    ``replies`` counts the model replies received (0 for authored sources); it is
    how ``seed`` knows how many rounds a model has already answered.
    """

    asked: int = 0
    parsed: int = 0
    valid: int = 0
    replies: int = 0

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.asked + other.asked, self.parsed + other.parsed,
                     self.valid + other.valid, self.replies + other.replies)

    def to_json(self) -> dict[str, int]:
        document = {"asked": self.asked, "parsed": self.parsed, "valid": self.valid}
        if self.replies:  # written only when set: authored corpora stay as they are
            document["replies"] = self.replies
        return document


@dataclass(frozen=True)
class Corpus:
    """All seed inputs of one task."""

    task_id: str
    entries: tuple[Entry, ...] = ()
    tallies: dict[str, Tally] = field(default_factory=dict)

    def inputs(self) -> list[Args]:
        return [list(entry.args) for entry in self.entries]


def corpus_path(folder: Path, task_id: str) -> Path:
    """Where a task's corpus lives inside ``seeds/<dataset>``."""
    return folder / f"{file_stem(task_id)}.json"


def read_corpus(path: Path, task_id: str) -> Corpus:
    """A corpus file; an empty corpus when the file does not exist."""
    if not path.is_file():
        return Corpus(task_id)
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
        entries = []
        for entry in document["inputs"]:
            source = entry.get("provenance", {})
            provenance = Provenance(str(source.get("model", "unknown")),
                                    str(source.get("prompt", "unknown")),
                                    str(source.get("date", "")))
            entries.append(Entry(tuple(decode(entry["args"])), provenance))
        tallies = {name: Tally(int(t["asked"]), int(t["parsed"]), int(t["valid"]),
                               int(t.get("replies", 0)))
                   for name, t in document.get("tallies", {}).items()}
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise InputError(str(path), None, f"bad seed corpus: {exc!r}") from None
    return Corpus(str(document.get("task_id", task_id)), tuple(entries), tallies)


def corpus_document(corpus: Corpus) -> dict[str, Any]:
    """The JSON document of a corpus (stable key order)."""
    return {
        "task_id": corpus.task_id,
        "tallies": {name: t.to_json() for name, t in sorted(corpus.tallies.items())},
        "inputs": [{"args": encode(list(entry.args)), "provenance": entry.provenance.to_json()}
                   for entry in corpus.entries],
    }


def write_corpus(path: Path, corpus: Corpus) -> None:
    """Write a corpus atomically, byte-stable for equal corpora."""
    path.parent.mkdir(parents=True, exist_ok=True)
    document = corpus_document(corpus)
    # One input per line: diffs and reviews read input by input.
    inputs = ",\n  ".join(json.dumps(entry, ensure_ascii=False) for entry in document["inputs"])
    listing = f"[\n  {inputs}\n ]" if inputs else "[]"
    text = (f'{{"task_id": {json.dumps(corpus.task_id)},\n'
            f' "tallies": {json.dumps(document["tallies"], sort_keys=True)},\n'
            f' "inputs": {listing}}}\n')
    write_atomically(path, text)


def balanced_call(text: str, start: int, limit: int = MAX_CALL_CHARS) -> str | None:
    """The text of ``name(...)`` starting at ``start`` (brackets balanced, quotes and
    escapes respected), or None when it does not close within ``limit`` characters."""
    opening = text.find("(", start)
    if opening == -1:
        return None
    depth, quote, escaped = 0, "", False
    for index in range(opening, min(len(text), start + limit)):
        char = text[index]
        if quote:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth == 0:
                return text[start:index + 1]
    return None


def _call_spans(text: str, entry_point: str) -> Iterable[str]:
    """Source text of each balanced ``entry_point(...)`` call in ``text``."""
    needle = entry_point + "("
    position = text.find(needle)
    while position != -1:
        before = text[position - 1] if position else " "
        if not (before.isidentifier() or before.isdigit() or before == "."):
            call = balanced_call(text, position)
            if call is not None:
                yield call
        position = text.find(needle, position + 1)


def literal_call(call: str, entry_point: str) -> Args | None:
    """The literal arguments of ``entry_point(...)``, or None when it is anything else."""
    try:
        node = ast.parse(call.strip(), mode="eval").body
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == entry_point and not node.keywords):
        return None
    try:
        return [ast.literal_eval(argument) for argument in node.args]
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None


def parse_reply(text: str, entry_point: str,
                limit: int = MAX_REPLY_CALLS) -> tuple[int, list[Args]]:
    """(calls seen, literal argument tuples) in a reply; never executes anything.

    Only the first ``MAX_REPLY_CHARS`` characters and the first ``limit`` calls count.
    """
    calls = list(islice(_call_spans(text[:MAX_REPLY_CHARS], entry_point), limit))
    parsed = [args for call in calls if (args := literal_call(call, entry_point)) is not None]
    return len(calls), parsed


def admit(corpus: Corpus, contract: Contract, source: str, candidates: Sequence[Args],
          provenance: Provenance, asked: int) -> tuple[Corpus, list[tuple[Args, str]]]:
    """Add the valid, new candidates; return the corpus and (rejected, why) pairs."""
    seen = {canonical(list(entry.args)) for entry in corpus.entries}
    entries = list(corpus.entries)
    rejected: list[tuple[Args, str]] = []
    valid = 0
    for args in candidates:
        if len(args) == len(contract.specs):  # `f([1, 2])` for a List[float] means floats
            args = [conform(value, spec) for value, spec in zip(args, contract.specs, strict=True)]
        try:
            key = canonical(list(args))
        except Unserializable as exc:
            rejected.append((args, f"not plain data: {exc}"))
            continue
        reason = contract.violation(args)
        if reason is not None:
            rejected.append((args, reason))
            continue
        valid += 1
        if key in seen:
            continue
        seen.add(key)
        entries.append(Entry(tuple(args), provenance))
    tally = corpus.tallies.get(source, Tally()) + Tally(asked, len(candidates), valid)
    return replace(corpus, entries=tuple(entries),
                   tallies={**corpus.tallies, source: tally}), rejected


def read_authored(path: Path, entry_point: str) -> list[tuple[str, int, Args | None]]:
    """(prompt kind, line, args or None when unparsable) of an authored seed file.

    The format is what a model is asked to reply, per prompt kind: a ``# <kind>``
    heading line, then one ``entry_point(...)`` call per line.
    """
    found: list[tuple[str, int, Args | None]] = []
    kind = ""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("#"):
            heading = stripped.lstrip("#").strip()
            if heading in PROMPT_KINDS:
                kind = heading
            continue
        if not kind:
            raise InputError(str(path), number, "input before any '# <prompt kind>' heading")
        found.append((kind, number, literal_call(stripped, entry_point)))
    return found
