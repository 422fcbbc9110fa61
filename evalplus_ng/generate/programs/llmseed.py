"""`seed` for program tasks: ask a model for an input generator and an input validator.

For each stdin/stdout task the model sees the statement and a few public inputs, and is
asked twice, each time for one Python program in a fenced block (LiveCodeBench's way of
making test inputs with a model):

* a **generator**, which reads one line ``SEED SIZE MODE`` (an integer; ``small``,
  ``medium`` or ``large``; ``random`` or ``adversarial``) and prints one valid input of
  the task, every random choice drawn from ``random.Random(SEED)``;
* a **validator**, which reads one input on stdin and prints ``ok``, or the constraint it
  violates.

A reply is only ever parsed and compiled, never run here: the programs run in the sandbox,
in ``augment`` (:mod:`evalplus_ng.pipeline.programs.augment`). A reply without a fenced
block, or whose program does not compile, is recorded as rejected and asked again, up to
:attr:`ProgramSeedConfig.asks` times in one run; a later run asks again for what is still
missing. Both programs are cached per task in ``seeds/generators/<Task_Id>.json`` with
their provenance (model, endpoint, a hash of the prompt, date). Requests, retries and
errors are those of :mod:`evalplus_ng.generate.llmseed`.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evalplus_ng.errors import InputError
from evalplus_ng.files import write_atomically
from evalplus_ng.generate.llmseed import (
    AskSummary,
    Endpoint,
    Messages,
    Reply,
    RequestFailed,
    RetryPolicy,
    ask_all,
    complete_with_retries,
    in_task_order,
    reply_totals,
)
from evalplus_ng.records import ProgramTask
from evalplus_ng.tasks.spec import file_stem

#: The two programs asked for, in this order.
GENERATOR, VALIDATOR = "generator", "validator"
ROLES = (GENERATOR, VALIDATOR)
#: How an input a generator made is known among a task's candidates (``ProgramInput.kind``).
LLM = "llm"
#: The generator's size hints and modes (its stdin: ``SEED SIZE MODE``).
SIZES = ("small", "medium", "large")
MODES = ("random", "adversarial")
#: Where a seeds folder keeps the programs: ``<seeds>/generators/<Task_Id>.json``.
SUBFOLDER = "generators"
FORMAT = 1
#: Asks per program and run: a reply that is not a program is asked again this many
#: times at most (a later run asks again).
ASKS = 3
#: A reply longer than this is cut before it is read; a program longer than this is refused.
MAX_REPLY_CHARS = 200_000
MAX_PROGRAM_CHARS = 50_000
#: The statement shown is cut at this many characters; a public input longer than
#: :data:`MAX_EXAMPLE_CHARS` is not shown; at most :data:`EXAMPLES` are.
MAX_STATEMENT_CHARS = 20_000
MAX_EXAMPLE_CHARS = 2_000
EXAMPLES = 3
#: Rejected replies kept per task (the latest), and the characters kept of each.
MAX_REJECTED = 20
EXCERPT_CHARS = 500
#: The largest input asked for (the generator's ``large``).
LARGE_VALUES = 50_000

SYSTEM = ("You write test-input generators and validators for competitive programming "
          "problems. You reply with one ```python fenced block holding a complete Python 3 "
          "program, and nothing else.")

GENERATOR_INSTRUCTIONS = f"""\
Write a Python 3 program that prints ONE new valid input of this problem.
It reads one line from standard input: `SEED SIZE MODE`, where SEED is an integer, SIZE \
is {", ".join(SIZES)}, and MODE is {" or ".join(MODES)}; for example `17 medium adversarial`.
- Every random choice comes from `random.Random(SEED)`: the same line must always print \
the same input (no other source of randomness, no clock).
- small: the smallest sizes (a handful of values); medium: up to about a thousand values; \
large: sizes near the largest the constraints allow, yet at most {LARGE_VALUES:,} numbers \
or characters in all.
- random: values drawn across their whole ranges. adversarial: inputs a plausible but \
wrong solution gets wrong or is too slow on (boundaries, extreme values, ties, repeated \
values, degenerate shapes, worst cases).
- The input must keep every constraint and guarantee of the statement, exactly in the \
format of the examples (with several test cases, keep any limit on their total).
- Print the input to standard output and nothing else; finish within one second; use \
the standard library only."""

VALIDATOR_INSTRUCTIONS = """\
Write a Python 3 program that checks whether a text is a valid input of this problem.
It reads the whole of standard input and prints `ok` when the text is exactly in the \
input format and keeps every constraint and guarantee of the statement (ranges, sizes, \
sums, distinct values, connectivity, ...); otherwise it prints one line naming the first \
constraint violated.
- Be strict about the format: the count of lines and of values on each line; only \
whitespace may follow the last line.
- Never raise on a malformed text: print what is wrong instead.
- Use the standard library only; finish within one second on the largest valid input."""

REPLY_FORMAT = "Reply with the whole program in one ```python fenced block."


# ---------------------------------------------------------------- prompts (pure)

def examples(task: ProgramTask, count: int = EXAMPLES) -> list[str]:
    """Up to ``count`` of the task's public inputs short enough to show, in order."""
    return [test.input for test in task.base_tests
            if len(test.input) <= MAX_EXAMPLE_CHARS][:count]


def build_messages(task: ProgramTask, role: str) -> Messages:
    """The chat messages asking for ``task``'s generator or validator (``role``)."""
    statement = task.prompt.strip()
    if len(statement) > MAX_STATEMENT_CHARS:
        statement = statement[:MAX_STATEMENT_CHARS] + "\n[... statement cut ...]"
    parts = ["Here is a programming problem; a solution reads one input from standard "
             "input and writes its answer to standard output.",
             f"<statement>\n{statement}\n</statement>"]
    shown = examples(task)
    if shown:
        parts.append("Example inputs of the problem:")
        parts += [f"<input>\n{text}</input>" if text.endswith("\n")
                  else f"<input>\n{text}\n</input>" for text in shown]
    parts += [GENERATOR_INSTRUCTIONS if role == GENERATOR else VALIDATOR_INSTRUCTIONS,
              REPLY_FORMAT]
    return [{"role": "system", "content": SYSTEM},
            {"role": "user", "content": "\n\n".join(parts)}]


def prompt_hash(messages: Messages) -> str:
    """The SHA-256 of the messages as sent (canonical JSON): which prompt a program answers."""
    text = json.dumps(messages, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# ---------------------------------------------------------------- replies (pure)

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+.-]*)[^\n]*\n(.*?)```", re.DOTALL)
_PYTHON = {"python", "python3", "py", "py3"}


def parse_program(text: str) -> tuple[str, str]:
    """The program in a reply and "", or "" and why the reply holds none: no fenced
    block, an empty one, one too long, or one that does not compile. The first block
    marked Python is taken (else the first unmarked one); it is compiled, never run."""
    blocks = [(language.lower(), body) for language, body
              in _FENCE.findall(text[:MAX_REPLY_CHARS])]
    chosen = next((body for language, body in blocks if language in _PYTHON),
                  next((body for language, body in blocks if not language), None))
    if chosen is None:
        return "", "no ```python fenced block"
    code = chosen.strip("\n")
    if not code.strip():
        return "", "an empty program"
    if len(code) > MAX_PROGRAM_CHARS:
        return "", f"a program over {MAX_PROGRAM_CHARS} characters"
    try:
        compile(code, "<reply>", "exec", dont_inherit=True)
    except SyntaxError as exc:
        return "", f"syntax error: line {exc.lineno}: {exc.msg}"
    except (ValueError, RecursionError, MemoryError, OverflowError) as exc:
        return "", f"does not compile: {type(exc).__name__}: {str(exc)[:100]}"
    return code + "\n", ""


# ---------------------------------------------------------------- the cache

@dataclass(frozen=True)
class ProgramProvenance:
    """Where one program (or one rejected reply) came from."""

    model: str
    endpoint: str
    prompt_sha256: str
    date: str
    #: HTTP attempts of the request that got this reply.
    attempts: int = 1

    def to_json(self) -> dict[str, Any]:
        return {"model": self.model, "endpoint": self.endpoint,
                "prompt_sha256": self.prompt_sha256, "date": self.date,
                "attempts": self.attempts}

    @classmethod
    def from_json(cls, document: dict[str, Any]) -> ProgramProvenance:
        return cls(str(document["model"]), str(document.get("endpoint", "")),
                   str(document.get("prompt_sha256", "")), str(document.get("date", "")),
                   int(document.get("attempts", 1)))


@dataclass(frozen=True)
class LlmProgram:
    """A generator or validator (``role``) a model wrote, as cached."""

    role: str
    code: str
    provenance: ProgramProvenance


@dataclass(frozen=True)
class Rejected:
    """A reply that held no program: why, where it came from, its start."""

    role: str
    reason: str
    provenance: ProgramProvenance
    excerpt: str


@dataclass(frozen=True)
class GeneratorPair:
    """One model's generator and validator of a task: what ``augment`` runs."""

    model: str
    generator: LlmProgram
    validator: LlmProgram

    def key(self) -> str:
        """What decides the inputs the pair gives (for checkpoints): the model and both
        programs' code."""
        return json.dumps([self.model, self.generator.code, self.validator.code])


@dataclass(frozen=True)
class ProgramCache:
    """A task's cached programs, by model and role, and its rejected replies."""

    task_id: str
    programs: dict[str, dict[str, LlmProgram]] = field(default_factory=dict)
    rejected: tuple[Rejected, ...] = ()

    def has(self, model: str, role: str) -> bool:
        return role in self.programs.get(model, {})

    def pairs(self) -> list[GeneratorPair]:
        """Each model's pair where it wrote both programs, by model name."""
        return [GeneratorPair(model, roles[GENERATOR], roles[VALIDATOR])
                for model, roles in sorted(self.programs.items())
                if GENERATOR in roles and VALIDATOR in roles]


def cache_path(seeds: Path, task_id: str) -> Path:
    """Where a task's programs live in a seeds folder."""
    return seeds / SUBFOLDER / f"{file_stem(task_id)}.json"


def read_cache(path: Path, task_id: str) -> ProgramCache:
    """A task's cache file; an empty cache when there is none."""
    if not path.is_file():
        return ProgramCache(task_id)
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
        programs: dict[str, dict[str, LlmProgram]] = {}
        for model, roles in document["programs"].items():
            programs[str(model)] = {
                role: LlmProgram(role, str(entry["code"]),
                                 ProgramProvenance.from_json(entry["provenance"]))
                for role, entry in roles.items() if role in ROLES}
        rejected = tuple(Rejected(str(entry["role"]), str(entry["reason"]),
                                  ProgramProvenance.from_json(entry["provenance"]),
                                  str(entry.get("excerpt", "")))
                         for entry in document.get("rejected", []))
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise InputError(str(path), None, f"bad generator cache: {exc!r}") from None
    return ProgramCache(str(document.get("task_id", task_id)), programs, rejected)


def write_cache(path: Path, cache: ProgramCache) -> None:
    """A task's cache file, written atomically, the same bytes for the same cache."""
    document = {
        "format": FORMAT, "task_id": cache.task_id,
        "programs": {model: {role: {"code": program.code,
                                    "provenance": program.provenance.to_json()}
                             for role, program in sorted(roles.items())}
                     for model, roles in sorted(cache.programs.items())},
        "rejected": [{"role": item.role, "reason": item.reason,
                      "provenance": item.provenance.to_json(), "excerpt": item.excerpt}
                     for item in cache.rejected],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, json.dumps(document, indent=1, ensure_ascii=False) + "\n")


def read_pairs(seeds: Path, task_ids: Sequence[str]) -> dict[str, list[GeneratorPair]]:
    """The cached pairs of each of ``task_ids`` that has one (an empty dict when the seeds
    folder has no generators)."""
    if not (seeds / SUBFOLDER).is_dir():
        return {}
    found = {task_id: read_cache(cache_path(seeds, task_id), task_id).pairs()
             for task_id in task_ids}
    return {task_id: pairs for task_id, pairs in found.items() if pairs}


# ---------------------------------------------------------------- the generator's stdin

def generator_line(seed: int, index: int) -> str:
    """The ``index``-th line a generator reads in ``augment``: ``SEED SIZE MODE``, the
    sizes in turn (small, medium, large), each with both modes in turn."""
    return f"{seed} {SIZES[index % len(SIZES)]} {MODES[(index // len(SIZES)) % len(MODES)]}\n"


def generator_lines(seeds: Sequence[int]) -> list[str]:
    """The lines for a run of seeds: :func:`generator_line` of each, in order."""
    return [generator_line(seed, index) for index, seed in enumerate(seeds)]


# ---------------------------------------------------------------- the run

@dataclass(frozen=True)
class ProgramSeedConfig:
    """What to ask and how the answers are recorded."""

    model: str
    date: str
    #: The endpoint's URL, for the provenance.
    endpoint: str
    force: bool = False
    asks: int = ASKS


@dataclass(frozen=True)
class Asked:
    """What one program's requests got: the program (None: none came), the rejected
    replies, every reply (for the counts) and the failure that ended them ("" for none)."""

    role: str
    program: LlmProgram | None
    rejected: tuple[Rejected, ...] = ()
    replies: tuple[Reply, ...] = ()
    failure: str = ""


@dataclass(frozen=True)
class ProgramSeedReport:
    """What one task got in this run: the roles written, the rejected replies' reasons,
    and why a role is still missing (empty: the task has both programs)."""

    task_id: str
    got: tuple[str, ...]
    rejected: tuple[str, ...] = ()
    failures: tuple[str, ...] = ()


@dataclass(frozen=True)
class ProgramSeedSummary(AskSummary[ProgramSeedReport]):
    """A ``seed`` run of program tasks: :class:`~evalplus_ng.generate.llmseed.AskSummary`
    (its requests are the replies that came), and the programs that came."""

    @property
    def programs(self) -> int:
        return sum(len(report.got) for report in self.reports)


def wanted(cache: ProgramCache, config: ProgramSeedConfig) -> list[str]:
    """The roles to ask for: those the model has not written yet (all with ``force``)."""
    return [role for role in ROLES if config.force or not cache.has(config.model, role)]


def ask(endpoint: Endpoint, task: ProgramTask, role: str, config: ProgramSeedConfig,
        policy: RetryPolicy, wait: Callable[[float], object],
        stop: threading.Event) -> Asked:
    """Ask for one program until a reply holds one, at most ``config.asks`` times; a
    request that fails for good ends the asking (EndpointError is raised)."""
    messages = build_messages(task, role)
    digest = prompt_hash(messages)
    rejected: list[Rejected] = []
    replies: list[Reply] = []
    for _ in range(config.asks):
        try:
            reply = complete_with_retries(endpoint, messages, policy, wait, stop)
        except RequestFailed as exc:
            return Asked(role, None, tuple(rejected), tuple(replies), f"{role} request: {exc}")
        replies.append(reply)
        provenance = ProgramProvenance(config.model, config.endpoint, digest, config.date,
                                       reply.attempts)
        code, why = parse_program(reply.text)
        if code:
            return Asked(role, LlmProgram(role, code, provenance), tuple(rejected),
                         tuple(replies))
        rejected.append(Rejected(role, why, provenance, reply.text[:EXCERPT_CHARS]))
    last = rejected[-1].reason if rejected else "no reply"
    return Asked(role, None, tuple(rejected), tuple(replies),
                 f"{role}: {len(rejected)} replies held no program (last: {last})")


def merge(cache: ProgramCache, model: str, asked: Sequence[Asked]) -> ProgramCache:
    """The cache with the programs that came (replacing the model's earlier ones) and the
    rejected replies appended (the latest :data:`MAX_REJECTED` kept)."""
    programs = {name: dict(roles) for name, roles in cache.programs.items()}
    rejected = list(cache.rejected)
    for item in sorted(asked, key=lambda got: ROLES.index(got.role)):
        if item.program is not None:
            programs.setdefault(model, {})[item.role] = item.program
        rejected += item.rejected
    return ProgramCache(cache.task_id, programs, tuple(rejected[-MAX_REJECTED:]))


def run_program_seed(tasks: Sequence[ProgramTask], out: Path, endpoint: Endpoint,
                     config: ProgramSeedConfig, policy: RetryPolicy, workers: int,
                     progress: Callable[[int, int], None] | None = None,
                     sleep: Callable[[float], object] | None = None) -> ProgramSeedSummary:
    """Ask for every task's missing programs; write each task's cache file (in ``out``, a
    seeds folder) once its requests are answered.

    An EndpointError (or an interrupt) stops the run: no new request starts, the tasks
    answered so far are written, then it is raised. ``sleep`` waits between retries
    (default: a wait that ends early when the run stops).
    """
    caches = {task.task_id: read_cache(cache_path(out, task.task_id), task.task_id)
              for task in tasks}
    work = [(task.task_id, (task, role)) for task in tasks
            for role in wanted(caches[task.task_id], config)]

    def asking(item: tuple[ProgramTask, str], wait: Callable[[float], object],
               stop: threading.Event) -> Asked:
        return ask(endpoint, item[0], item[1], config, policy, wait, stop)

    def stopped(item: tuple[ProgramTask, str]) -> Asked:
        return Asked(item[1], None, failure=f"{item[1]} request: stopped")

    def finish(task_id: str, answers: list[tuple[tuple[ProgramTask, str], Asked]],
               ) -> ProgramSeedReport:
        return _finish(out, caches[task_id], config.model, [asked for _item, asked in answers])

    reports, answers = ask_all(work, asking, stopped, finish, workers, progress, sleep)
    replies = [reply for asked in answers for reply in asked.replies]
    wanting = {task_id for task_id, _item in work}
    return ProgramSeedSummary(
        reports=in_task_order(tasks, reports),
        skipped=tuple(task.task_id for task in tasks if task.task_id not in wanting),
        requests=len(replies), **reply_totals(replies))


def _finish(out: Path, cache: ProgramCache, model: str,
            asked: Sequence[Asked]) -> ProgramSeedReport:
    """Merge a task's answers and write its cache file (when anything came back)."""
    merged = merge(cache, model, asked)
    if any(item.program is not None or item.rejected for item in asked):
        write_cache(cache_path(out, cache.task_id), merged)
    ordered = sorted(asked, key=lambda item: ROLES.index(item.role))
    return ProgramSeedReport(
        cache.task_id, tuple(item.role for item in ordered if item.program is not None),
        tuple(f"{rejected.role}: {rejected.reason}" for item in ordered
              for rejected in item.rejected),
        tuple(item.failure for item in ordered if item.program is None))
