"""`seed`: ask a model behind any OpenAI-compatible endpoint for seed inputs.

For each task the model sees the ground truth, the task's contract and a few
existing inputs, and is asked in turn (the EvalPlus paper's prompt kinds) for
complex, corner-case and difficult inputs, one ``entry_point(...)`` call per line
in a fenced block. A reply is only ever parsed, never run
(:func:`evalplus_ng.generate.corpus.parse_reply`: literal arguments only); the inputs that
meet the contract join ``seeds/<dataset>/<Task_Id>.json`` with their provenance.

Requests run concurrently in threads. 429, 5xx, timeouts and connection errors
are retried with capped exponential backoff (no jitter: runs are reproducible);
a rejected key or an unknown model stops the run with one line. A task's file is
written as soon as all its requests are answered, and the model's reply count in
the file's tallies lets a rerun skip what is already done.
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from evalplus_ng.errors import EndpointError, EvalplusError
from evalplus_ng.generate.contract import Contract
from evalplus_ng.generate.corpus import (
    PROMPT_KINDS,
    Corpus,
    Provenance,
    Tally,
    admit,
    corpus_path,
    literal_call,
    parse_reply,
    read_corpus,
    write_corpus,
)
from evalplus_ng.records import Task
from evalplus_ng.types import Args

Messages = list[dict[str, str]]

#: What each prompt kind asks for (EvalPlus, section 2.1: "complex", "corner-case", "difficult").
KIND_INSTRUCTIONS = {
    "complex": "Write complex inputs: large and varied values that drive the function "
               "through many of its paths, while staying valid.",
    "corner-case": "Write corner-case inputs: empty and single-element values, boundaries, "
                   "zeros, negative numbers, repeated elements and the other edge cases "
                   "the documentation allows.",
    "difficult": "Write difficult inputs: valid inputs that a plausible but wrong "
                 "implementation would get wrong (off-by-one, ties, ordering, precision, "
                 "unusual characters).",
}
SYSTEM = ("You write test inputs for Python functions. You reply with exactly the format "
          "asked for and nothing else.")
#: An existing input longer than this, written as a call, is not shown to the model.
MAX_EXAMPLE_CHARS = 300


@dataclass(frozen=True)
class SeedConfig:
    """What to ask and how the answers are recorded."""

    model: str
    date: str
    rounds: int = 1
    per_request: int = 10
    examples: int = 5
    force: bool = False


@dataclass(frozen=True)
class RetryPolicy:
    """Retries of one request: ``backoff * 2**attempt`` seconds, at most ``cap``."""

    retries: int = 4
    backoff: float = 1.0
    cap: float = 30.0

    def delay(self, attempt: int, hint: float | None = None) -> float:
        """Seconds to wait after failed attempt ``attempt`` (0-based); ``hint`` is Retry-After."""
        wait = min(self.cap, self.backoff * 2.0 ** attempt)
        return wait if hint is None else min(self.cap, max(wait, hint))


@dataclass(frozen=True)
class Reply:
    """A model's answer to one request."""

    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    attempts: int = 1


class Transient(Exception):
    """One attempt failed in a way worth retrying."""

    def __init__(self, reason: str, retry_after: float | None = None,
                 connection: bool = False) -> None:
        super().__init__(reason)
        self.retry_after = retry_after
        self.connection = connection


class RequestFailed(EvalplusError):
    """One request failed for good; only its task is affected."""


class Endpoint(Protocol):
    """Sends one chat request (one attempt); raises Transient, RequestFailed or EndpointError."""

    def complete(self, messages: Messages) -> Reply: ...


# ---------------------------------------------------------------- prompts (pure)

def call_text(entry_point: str, args: Args) -> str:
    """An input written as a call: ``entry_point(arg, ...)``."""
    return f"{entry_point}({', '.join(repr(value) for value in args)})"


def example_calls(task: Task, count: int, offset: int = 0) -> list[str]:
    """Up to ``count`` short base inputs as literal calls, starting ``offset * count`` in."""
    calls = [text for args in task.base_inputs
             if len(text := call_text(task.entry_point, args)) <= MAX_EXAMPLE_CHARS
             and literal_call(text, task.entry_point) is not None]
    if not calls or count <= 0:
        return []
    start = (offset * count) % len(calls)
    return (calls[start:] + calls[:start])[:count]


def build_messages(task: Task, contract_source: str, kind: str, count: int,
                   examples: Sequence[str]) -> Messages:
    """The chat messages asking for ``count`` inputs of one prompt kind."""
    parts = ["Here is a Python function with its correct implementation:",
             f"```python\n{task.solution.strip()}\n```"]
    if contract_source.strip():
        parts += ["A valid input makes this precondition `pre` return True; "
                  "every input you write must be valid:",
                  f"```python\n{contract_source.strip()}\n```"]
    if examples:
        parts += ["Some existing inputs, one call per line:",
                  "```python\n" + "\n".join(examples) + "\n```"]
    parts += [
        KIND_INSTRUCTIONS[kind],
        f"Reply with {count} new inputs in one ```python fenced block, one call per line, "
        f"each written as `{task.entry_point}(argument, ...)`. Arguments must be Python "
        "literals only: numbers, strings, lists, tuples, dicts, sets, True, False, None. "
        "No variables, expressions, function calls, keyword arguments or comments.",
    ]
    return [{"role": "system", "content": SYSTEM},
            {"role": "user", "content": "\n\n".join(parts)}]


# ---------------------------------------------------------------- requests

def complete_with_retries(endpoint: Endpoint, messages: Messages, policy: RetryPolicy,
                          sleep: Callable[[float], object] = time.sleep,
                          stop: threading.Event | None = None) -> Reply:
    """One request with retries; EndpointError when the endpoint cannot be reached at all.

    Once ``stop`` is set (the run is over: interrupted, or the key was rejected)
    no further attempt starts; an EndpointError sets it.
    """
    attempts = policy.retries + 1
    for attempt in range(attempts):
        if stop is not None and stop.is_set():
            raise RequestFailed("cancelled")
        try:
            return replace(endpoint.complete(messages), attempts=attempt + 1)
        except EndpointError:
            # Stop the other workers at once: waiting for the caller to see this error
            # lets a busy machine's idle worker start the next doomed request first.
            if stop is not None:
                stop.set()
            raise
        except Transient as exc:
            if attempt + 1 == attempts:
                if exc.connection:
                    raise EndpointError(f"{exc} (after {attempts} attempts)") from None
                raise RequestFailed(f"{exc} (after {attempts} attempts)") from None
            sleep(policy.delay(attempt, exc.retry_after))
    raise AssertionError("unreachable")  # pragma: no cover


class OpenAIEndpoint:
    """Chat completions through the ``openai`` client (its own retries off: ours apply)."""

    def __init__(self, model: str, base_url: str | None, api_key: str, *, timeout: float,
                 max_tokens: int, temperature: float, key_source: str = "the API key") -> None:
        import openai

        self.openai = openai
        self.model = model
        self.client = openai.OpenAI(api_key=api_key, base_url=base_url, timeout=timeout,
                                    max_retries=0)
        self.url = str(self.client.base_url).rstrip("/")
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.key_source = key_source

    def complete(self, messages: Messages) -> Reply:
        openai = self.openai
        try:
            completion: Any = self.client.chat.completions.create(
                model=self.model, messages=messages,  # type: ignore[arg-type]
                max_tokens=self.max_tokens, temperature=self.temperature)
        except (openai.AuthenticationError, openai.PermissionDeniedError) as exc:
            raise EndpointError(f"HTTP {exc.status_code} from {self.url}: the API key was "
                                f"rejected (check {self.key_source}): {_brief(exc)}") from None
        except openai.NotFoundError as exc:
            raise EndpointError(f"HTTP 404 from {self.url}: unknown model '{self.model}' "
                                f"(or a base URL without /v1): {_brief(exc)}") from None
        except openai.APIStatusError as exc:
            if exc.status_code == 429 or exc.status_code >= 500:
                raise Transient(f"HTTP {exc.status_code} from {self.url}: {_brief(exc)}",
                                _retry_after(exc.response.headers.get("retry-after"))) from None
            raise RequestFailed(f"HTTP {exc.status_code} from {self.url}: {_brief(exc)}") from None
        except openai.APITimeoutError:
            raise Transient(f"no reply from {self.url} in time") from None
        except openai.APIConnectionError as exc:
            raise Transient(f"cannot reach {self.url}: {_brief(exc)}", connection=True) from None
        except (openai.APIError, ValueError) as exc:
            raise RequestFailed(f"malformed reply from {self.url}: {_brief(exc)}") from None
        return _reply(completion, self.url)


def _reply(completion: Any, url: str) -> Reply:
    """The text and token counts of a chat completion; RequestFailed when it is not one."""
    try:
        choices = completion.choices
        text = (choices[0].message.content if choices else "") or ""
        usage = completion.usage
        if choices is None:
            raise TypeError("no choices")
    except (AttributeError, IndexError, TypeError):
        raise RequestFailed(f"malformed reply from {url}: not a chat completion") from None
    if not isinstance(text, str):
        raise RequestFailed(f"malformed reply from {url}: content is not text")
    prompt = getattr(usage, "prompt_tokens", 0) or 0
    completion_tokens = getattr(usage, "completion_tokens", 0) or 0
    return Reply(text, int(prompt), int(completion_tokens))


def _brief(exc: BaseException) -> str:
    """An exception's message on one short line."""
    text = " ".join(str(exc).split())
    return text if len(text) <= 200 else text[:197] + "..."


def _retry_after(value: str | None) -> float | None:
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:  # an HTTP date: fall back to our own backoff
        return None


# ---------------------------------------------------------------- merging (pure)

def requests_done(corpus: Corpus, model: str) -> int:
    """Requests of ``model`` already answered for this task (requests ``0 .. n-1``)."""
    return corpus.tallies.get(model, Tally()).replies


def plan(corpus: Corpus, config: SeedConfig) -> range:
    """Indices of the requests still to make; request ``i`` asks for ``PROMPT_KINDS[i % 3]``."""
    wanted = config.rounds * len(PROMPT_KINDS)
    return range(wanted) if config.force else range(requests_done(corpus, config.model), wanted)


def merge(corpus: Corpus, contract: Contract, entry_point: str, config: SeedConfig,
          replies: Sequence[tuple[int, Reply]]) -> Corpus:
    """Add the valid new inputs of the replies, in request order; count every reply."""
    for index, reply in sorted(replies, key=lambda pair: pair[0]):
        kind = PROMPT_KINDS[index % len(PROMPT_KINDS)]
        _, candidates = parse_reply(reply.text, entry_point)
        corpus, _ = admit(corpus, contract, config.model, candidates,
                          Provenance(config.model, kind, config.date), config.per_request)
        tally = corpus.tallies[config.model] + Tally(replies=1)
        corpus = replace(corpus, tallies={**corpus.tallies, config.model: tally})
    return corpus


# ---------------------------------------------------------------- the run

@dataclass(frozen=True)
class TaskReport:
    """What one task got in this run."""

    task_id: str
    replies: int
    tally: Tally
    added: int
    failures: tuple[str, ...] = ()


class _Named(Protocol):
    @property
    def task_id(self) -> str: ...


class _Reported(_Named, Protocol):
    """A task's report: what failed of its requests (nothing: the task is complete)."""

    @property
    def failures(self) -> tuple[str, ...]: ...


ReportT = TypeVar("ReportT", bound=_Reported)


@dataclass(frozen=True)
class AskSummary(Generic[ReportT]):
    """The whole run: per-task reports (in task order), the tasks already done, requests
    and tokens (``attempts`` and the token counts are those of the answered requests)."""

    reports: tuple[ReportT, ...]
    skipped: tuple[str, ...]
    requests: int
    attempts: int
    prompt_tokens: int
    completion_tokens: int

    @property
    def failed(self) -> list[ReportT]:
        return [report for report in self.reports if report.failures]


def reply_totals(replies: Sequence[Reply]) -> dict[str, int]:
    """The attempts and tokens of ``replies``, as :class:`AskSummary`'s fields."""
    return {"attempts": sum(reply.attempts for reply in replies),
            "prompt_tokens": sum(reply.prompt_tokens for reply in replies),
            "completion_tokens": sum(reply.completion_tokens for reply in replies)}


@dataclass(frozen=True)
class SeedSummary(AskSummary[TaskReport]):
    """A ``seed`` run of function tasks: :class:`AskSummary`, and the requests answered."""

    answered: int = 0

    @property
    def added(self) -> int:
        return sum(report.added for report in self.reports)


ItemT = TypeVar("ItemT")
AnswerT = TypeVar("AnswerT")


def ask_all(work: Sequence[tuple[str, ItemT]],
            ask: Callable[[ItemT, Callable[[float], object], threading.Event], AnswerT],
            stopped: Callable[[ItemT], AnswerT],
            finish: Callable[[str, list[tuple[ItemT, AnswerT]]], ReportT], workers: int,
            progress: Callable[[int, int], None] | None = None,
            sleep: Callable[[float], object] | None = None,
            ) -> tuple[list[ReportT], list[AnswerT]]:
    """Ask for each item of ``work`` (a task id and what to ask) on ``workers`` threads;
    once all of a task's items are answered, ``finish(task_id, answers)`` (in the order
    they came) makes its report. Returns the reports and every answer, as they came.

    An exception from ``ask`` (a rejected key, or a bug) stops the run: no new request
    starts, its item is answered ``stopped(item)``, the tasks answered so far are
    finished, then it is raised. An interrupt likewise, without finishing. ``sleep`` waits
    between retries (default: a wait that ends early when the run stops).
    """
    stop = threading.Event()
    wait = sleep if sleep is not None else stop.wait
    pending: dict[str, int] = defaultdict(int)
    for task_id, _item in work:
        pending[task_id] += 1
    got: dict[str, list[tuple[ItemT, AnswerT]]] = defaultdict(list)
    reports: list[ReportT] = []
    answers: list[AnswerT] = []
    done = 0
    fatal: BaseException | None = None
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="seed") as pool:
        futures: dict[Future[AnswerT], tuple[str, ItemT]] = {
            pool.submit(ask, item, wait, stop): (task_id, item) for task_id, item in work}
        try:
            for future in as_completed(futures):
                task_id, item = futures[future]
                try:
                    answer = future.result()
                except BaseException as exc:  # a rejected key, or a bug: stop, keep what came
                    if fatal is None:
                        fatal = exc
                        stop.set()
                        for other in futures:
                            other.cancel()
                    answer = stopped(item)
                got[task_id].append((item, answer))
                answers.append(answer)
                done += 1
                pending[task_id] -= 1
                if pending[task_id] == 0:
                    reports.append(finish(task_id, got[task_id]))
                if progress is not None:
                    progress(done, len(work))
        except BaseException:
            # Interrupted: requests in flight end within their timeout; nothing new starts.
            stop.set()
            pool.shutdown(wait=True, cancel_futures=True)
            raise
    if fatal is not None:
        raise fatal
    return reports, answers


def in_task_order(tasks: Sequence[_Named], reports: Sequence[ReportT]) -> tuple[ReportT, ...]:
    """``reports`` in the order of ``tasks``."""
    order = {task.task_id: position for position, task in enumerate(tasks)}
    return tuple(sorted(reports, key=lambda report: order[report.task_id]))


def run_seed(tasks: Sequence[Task], contracts: Mapping[str, Contract], out: Path,
             endpoint: Endpoint, config: SeedConfig, policy: RetryPolicy, workers: int,
             progress: Callable[[int, int], None] | None = None,
             sleep: Callable[[float], object] | None = None) -> SeedSummary:
    """Ask for every task's missing requests; write each task's corpus once it is answered.

    An EndpointError (or an interrupt) stops the run: no new attempt starts, the
    tasks answered so far are written, then it is raised. ``sleep`` waits between
    retries (default: a wait that ends early when the run stops).
    """
    corpora = {task.task_id: read_corpus(corpus_path(out, task.task_id), task.task_id)
               for task in tasks}
    by_id = {task.task_id: task for task in tasks}
    work: list[tuple[str, tuple[int, Messages]]] = []
    for task in tasks:
        for index in plan(corpora[task.task_id], config):
            kind = PROMPT_KINDS[index % len(PROMPT_KINDS)]
            examples = example_calls(task, config.examples, index // len(PROMPT_KINDS))
            work.append((task.task_id, (index, build_messages(
                task, contracts[task.task_id].source, kind, config.per_request, examples))))

    def ask(item: tuple[int, Messages], wait: Callable[[float], object],
            stop: threading.Event) -> Reply | str:
        index, messages = item
        try:
            return complete_with_retries(endpoint, messages, policy, wait, stop)
        except RequestFailed as exc:
            return f"{PROMPT_KINDS[index % len(PROMPT_KINDS)]} request: {exc}"

    def stopped(item: tuple[int, Messages]) -> Reply | str:
        return f"{PROMPT_KINDS[item[0] % len(PROMPT_KINDS)]} request: stopped"

    def finish(task_id: str, answers: list[tuple[tuple[int, Messages], Reply | str]],
               ) -> TaskReport:
        replies = [(index, got) for (index, _), got in answers if isinstance(got, Reply)]
        failures = sorted((index, got) for (index, _), got in answers if isinstance(got, str))
        return _finish(by_id[task_id], corpora[task_id], contracts[task_id], out, config,
                       replies, failures)

    reports, answers = ask_all(work, ask, stopped, finish, workers, progress, sleep)
    answered = [answer for answer in answers if isinstance(answer, Reply)]
    asked = {task_id for task_id, _item in work}
    return SeedSummary(
        reports=in_task_order(tasks, reports),
        skipped=tuple(task.task_id for task in tasks if task.task_id not in asked),
        requests=len(work), answered=len(answered), **reply_totals(answered))


def _finish(task: Task, corpus: Corpus, contract: Contract, out: Path, config: SeedConfig,
            replies: Sequence[tuple[int, Reply]],
            failures: Sequence[tuple[int, str]]) -> TaskReport:
    """Merge a fully answered task's replies and write its corpus (when anything came back).

    Only the replies before the first failed request are kept, so that the reply
    count always says which requests are done: a rerun asks exactly the rest.
    """
    if failures:
        first = min(index for index, _ in failures)
        replies = [(index, reply) for index, reply in replies if index < first]
    merged = merge(corpus, contract, task.entry_point, config, replies)
    if replies:
        write_corpus(corpus_path(out, task.task_id), merged)
    before = corpus.tallies.get(config.model, Tally())
    after = merged.tallies.get(config.model, Tally())
    gained = Tally(after.asked - before.asked, after.parsed - before.parsed,
                   after.valid - before.valid, after.replies - before.replies)
    return TaskReport(task.task_id, len(replies), gained,
                      len(merged.entries) - len(corpus.entries),
                      tuple(text for _, text in failures))
