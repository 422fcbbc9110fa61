"""`seed` against a real chat-completions server on 127.0.0.1 that replays scripted replies.

The server is an in-process ``ThreadingHTTPServer``: every request goes through the
``openai`` client and HTTP, so retries, status codes, timeouts and malformed bodies
are the real thing. Injection tests check, with an audit hook, that nothing in a
reply is ever opened, run or executed.
"""

from __future__ import annotations

import contextlib
import json
import sys
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest
from click.testing import CliRunner

from evalplus_ng.cli import main, seed
from evalplus_ng.errors import EndpointError
from evalplus_ng.generate import llmseed
from evalplus_ng.generate.contract import Contract, load_contract
from evalplus_ng.generate.corpus import (
    MAX_REPLY_CALLS,
    MAX_REPLY_CHARS,
    Corpus,
    Tally,
    corpus_path,
    parse_reply,
    read_corpus,
    write_corpus,
)
from evalplus_ng.generate.llmseed import (
    OpenAIEndpoint,
    Reply,
    RetryPolicy,
    SeedConfig,
    SeedSummary,
    build_messages,
    example_calls,
    run_seed,
)
from evalplus_ng.records import Task

# ---------------------------------------------------------------- a scripted server

Response = tuple[int, dict[str, str], bytes]
Responder = Callable[[dict[str, Any], int], Response]


def completion(text: str, prompt_tokens: int = 100, completion_tokens: int = 20) -> Response:
    body = {"id": "chatcmpl-test", "object": "chat.completion", "created": 0, "model": "m",
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": text}}],
            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                      "total_tokens": prompt_tokens + completion_tokens}}
    return 200, {}, json.dumps(body).encode()


def error(status: int, message: str, headers: dict[str, str] | None = None) -> Response:
    return status, headers or {}, json.dumps({"error": {"message": message}}).encode()


class Server:
    """Chat completions on 127.0.0.1: ``respond(request body, request number)`` answers."""

    def __init__(self, respond: Responder) -> None:
        self.respond = respond
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["content-length"])))
                with server.lock:
                    number = len(server.requests)
                    server.requests.append({"path": self.path, **body,
                                            "authorization": self.headers["authorization"]})
                status, headers, data = server.respond(body, number)
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                # The client may have given up already (the timeout test).
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    self.wfile.write(data)

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.05,),
                                       daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def serve() -> Iterator[Callable[[Responder], Server]]:
    servers: list[Server] = []

    def start(respond: Responder) -> Server:
        servers.append(Server(respond))
        return servers[-1]

    yield start
    for server in servers:
        server.close()


def replay(*responses: Response) -> Responder:
    """Answer request ``n`` with ``responses[n]`` (the last one repeats)."""
    return lambda _body, number: responses[min(number, len(responses) - 1)]


def prompt_of(body: dict[str, Any]) -> str:
    return str(body["messages"][-1]["content"])


# ---------------------------------------------------------------- two small tasks

ADD_PROMPT = 'def add_pos(x: int, y: int) -> int:\n    """Sum of two positive ints."""\n'
PAL_PROMPT = 'def is_pal(text: str) -> bool:\n    """Is text a palindrome? At most 50 chars."""\n'
ADD = Task("Toy/0", ADD_PROMPT, "add_pos", ADD_PROMPT + "    return x + y\n",
           ([1, 2], [3, 4], [10, 20]))
PAL = Task("Toy/1", PAL_PROMPT, "is_pal", PAL_PROMPT + "    return text == text[::-1]\n",
           (["abba"], ["abc"]))
CONTRACTS = {
    "Toy_0.py": "def pre(x: int, y: int) -> bool:\n    return x > 0 and y > 0\n",
    "Toy_1.py": "def pre(text: str) -> bool:\n    return len(text) <= 50\n",
}


@pytest.fixture
def contracts(tmp_path: Path) -> dict[str, Contract]:
    folder = tmp_path / "contracts"
    folder.mkdir()
    for name, source in CONTRACTS.items():
        (folder / name).write_text(source, encoding="utf-8")
    return {task.task_id: load_contract(task, folder) for task in (ADD, PAL)}


def endpoint(url: str, *, model: str = "test-model", timeout: float = 5.0) -> OpenAIEndpoint:
    return OpenAIEndpoint(model, url, "sk-test", timeout=timeout, max_tokens=512,
                          temperature=0.0, key_source="$TEST_KEY")


FAST = RetryPolicy(retries=3, backoff=0.001, cap=0.01)
CONFIG = SeedConfig(model="test-model", date="2026-01-02")


def run(tasks: list[Task], contracts: dict[str, Contract], out: Path, url: str, *,
        config: SeedConfig = CONFIG, policy: RetryPolicy = FAST, workers: int = 1,
        sleep: Callable[[float], None] | None = None, timeout: float = 5.0) -> SeedSummary:
    return run_seed(tasks, contracts, out, endpoint(url, timeout=timeout), config, policy,
                    workers, sleep=sleep or (lambda _seconds: None))


def fenced(*lines: str) -> str:
    return "Here are the inputs:\n```python\n" + "\n".join(lines) + "\n```\n"


def args_of(out: Path, task: Task) -> list[list[Any]]:
    return read_corpus(corpus_path(out, task.task_id), task.task_id).inputs()


# ---------------------------------------------------------------- prompts

def test_prompt_shows_ground_truth_contract_examples_and_the_reply_format(
        contracts: dict[str, Contract]) -> None:
    examples = example_calls(ADD, 2)
    assert examples == ["add_pos(1, 2)", "add_pos(3, 4)"]
    assert example_calls(ADD, 2, offset=1) == ["add_pos(10, 20)", "add_pos(1, 2)"]
    messages = build_messages(ADD, contracts["Toy/0"].source, "corner-case", 7, examples)
    assert [message["role"] for message in messages] == ["system", "user"]
    text = messages[1]["content"]
    assert ADD.solution.strip() in text
    assert "return x > 0 and y > 0" in text
    assert "add_pos(1, 2)\nadd_pos(3, 4)" in text
    assert "corner-case inputs" in text
    assert "7 new inputs in one ```python fenced block" in text
    assert "`add_pos(argument, ...)`" in text


def test_examples_skip_long_and_non_literal_inputs() -> None:
    task = Task("Toy/9", "def f(a):\n    pass\n", "f", "def f(a):\n    return a\n",
                ([list(range(500))], [float("inf")], [[1]]))
    assert example_calls(task, 5) == ["f([1])"]


# ---------------------------------------------------------------- the happy path

def test_seed_writes_inputs_with_provenance_tallies_and_tokens(
        tmp_path: Path, serve: Callable[[Responder], Server],
        contracts: dict[str, Contract]) -> None:
    replies = {"complex": fenced("add_pos(123456, 789)", "add_pos(5, 5)"),
               "corner-case": fenced("add_pos(1, 1)", "add_pos(0, 1)"),
               "difficult": fenced("add_pos(2**70, 1)", "add_pos(5, 5)", "add_pos(9, 1)")}

    def respond(body: dict[str, Any], _number: int) -> Response:
        kind = next(kind for kind in replies if f"Write {kind} inputs" in prompt_of(body))
        return completion(replies[kind])

    server = serve(respond)
    out = tmp_path / "seeds"
    summary = run([ADD], contracts, out, server.url)
    assert [request["path"] for request in server.requests] == ["/v1/chat/completions"] * 3
    assert {request["model"] for request in server.requests} == {"test-model"}
    assert {request["authorization"] for request in server.requests} == {"Bearer sk-test"}
    assert all(request["max_tokens"] == 512 for request in server.requests)
    corpus = read_corpus(corpus_path(out, "Toy/0"), "Toy/0")
    assert [(list(entry.args), entry.provenance.prompt) for entry in corpus.entries] == [
        ([123456, 789], "complex"), ([5, 5], "complex"),
        ([1, 1], "corner-case"), ([9, 1], "difficult")]
    assert {entry.provenance.model for entry in corpus.entries} == {"test-model"}
    assert {entry.provenance.date for entry in corpus.entries} == {"2026-01-02"}
    # 2**70 is not a literal; (0, 1) breaks the contract; the second (5, 5) is a duplicate.
    assert corpus.tallies == {"test-model": Tally(asked=30, parsed=6, valid=5, replies=3)}
    assert (summary.requests, summary.answered, summary.attempts, summary.added) == (3, 3, 3, 4)
    assert (summary.prompt_tokens, summary.completion_tokens) == (300, 60)
    assert summary.skipped == () and summary.failed == []


def test_concurrent_runs_write_the_same_bytes_as_sequential_ones(
        tmp_path: Path, serve: Callable[[Responder], Server],
        contracts: dict[str, Contract]) -> None:
    def respond(body: dict[str, Any], number: int) -> Response:
        time.sleep(0.01 * (number % 3))  # replies arrive out of order
        text = prompt_of(body)
        kind = next(k for k in ("complex", "corner-case", "difficult") if f"Write {k}" in text)
        if "def is_pal" in text:
            return completion(fenced(f"is_pal('{kind}')", "is_pal('racecar')"))
        return completion(fenced(f"add_pos({len(kind)}, 1)", "add_pos(3, 3)"))

    server = serve(respond)
    config = SeedConfig(model="test-model", date="2026-01-02", rounds=2)
    run([ADD, PAL], contracts, tmp_path / "one", server.url, config=config, workers=1)
    summary = run([ADD, PAL], contracts, tmp_path / "four", server.url, config=config, workers=4)
    assert summary.requests == 12 and len(server.requests) == 24
    for name in ("Toy_0.json", "Toy_1.json"):
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "four" / name).read_bytes()
    assert args_of(tmp_path / "four", PAL) == [["complex"], ["racecar"], ["corner-case"],
                                               ["difficult"]]


# ---------------------------------------------------------------- replies of every shape

def test_prose_fences_and_invalid_literals(tmp_path: Path, serve: Callable[[Responder], Server],
                                           contracts: dict[str, Contract]) -> None:
    reply = "\n".join([
        "Sure! A good one is add_pos(4, 4), and another: `add_pos(6, 7)`.",
        "```python",
        "add_pos(8, 9)",
        "add_pos(x, 2)",          # a variable
        "add_pos(1 +, 2)",        # not Python
        "add_pos(1, 2, 3)",       # arity
        "add_pos('1', 2)",        # annotation
        "add_pos(-5, 2)",         # contract
        "add_pos(x=1, y=2)",      # keywords
        "add_pos(*[1, 2])",       # starred
        "add_pos(1.0, 2)",        # a float is not an int
        "add_pos(True, 2)",       # nor is a bool
        "add_pos(8, 9)",          # duplicate
        "```",
        "```",
        "add_pos(11, 12)  # in a second, untagged fence",
        "```",
    ])
    server = serve(replay(completion(reply)))
    out = tmp_path / "seeds"
    run([ADD], contracts, out, server.url, config=SeedConfig("test-model", "2026-01-02",
                                                             per_request=5))
    assert args_of(out, ADD) == [[4, 4], [6, 7], [8, 9], [11, 12]]
    tally = read_corpus(corpus_path(out, "Toy/0"), "Toy/0").tallies["test-model"]
    # Per reply: 10 literal calls (4 new, 1 duplicate, 5 rejected by arity, annotation,
    # contract, float and bool); the other five are not literal calls.
    assert tally == Tally(asked=15, parsed=30, valid=15, replies=3)


def test_ints_written_for_floats_become_floats(tmp_path: Path,
                                               serve: Callable[[Responder], Server]) -> None:
    prompt = "from typing import List\n\ndef mean(xs: List[float]) -> float:\n    pass\n"
    task = Task("Toy/2", prompt, "mean", prompt.replace("pass", "return sum(xs) / len(xs)"),
                ([[1.5]],))
    server = serve(replay(completion(fenced("mean([1, 2.5, 3])", "mean([1.0, 2.5, 3.0])",
                                            "mean([2**60])", "mean([True])", "mean([4])"))))
    out = tmp_path / "seeds"
    run([task], {"Toy/2": load_contract(task, None)}, out, server.url,
        config=SeedConfig("test-model", "2026-01-02", rounds=1))
    inputs = args_of(out, task)
    assert inputs == [[[1.0, 2.5, 3.0]], [[4.0]]]  # the second call is the same input
    assert [type(value) for value in inputs[0][0]] == [float, float, float]


def test_empty_and_chatty_replies_add_nothing(tmp_path: Path,
                                              serve: Callable[[Responder], Server],
                                              contracts: dict[str, Contract]) -> None:
    server = serve(replay(completion(""), completion("I cannot help with that."),
                          completion("def add_pos(x, y):\n    return add_pos(x - 1, y + 1)\n")))
    out = tmp_path / "seeds"
    summary = run([ADD], contracts, out, server.url)
    assert args_of(out, ADD) == []
    assert read_corpus(corpus_path(out, "Toy/0"), "Toy/0").tallies["test-model"] == Tally(
        asked=30, parsed=0, valid=0, replies=3)
    assert summary.failed == []


SENTINEL = "SEED_SENTINEL_7f3a"
WATCHED = {"open", "os.system", "subprocess.Popen", "os.exec", "os.posix_spawn", "os.remove",
           "shutil.rmtree", "exec"}


class Watch:
    """An audit hook that records events naming the sentinel, only while ``on``.

    Audit hooks cannot be removed, so it is installed once, on first use, and is a
    no-op outside the injection tests (forked sandbox children inherit it switched off).
    """

    installed: ClassVar[bool] = False
    on: ClassVar[bool] = False
    events: ClassVar[list[tuple[str, str]]] = []

    @classmethod
    def hook(cls, event: str, args: tuple[Any, ...]) -> None:
        if not cls.on or event not in WATCHED:
            return
        if event == "exec" and hasattr(args[0], "co_consts"):
            if _names_sentinel(args[0]):
                cls.events.append((event, repr(args[0])))
        elif SENTINEL in repr(args):
            cls.events.append((event, repr(args)))


def _names_sentinel(code: Any) -> bool:
    return any((isinstance(const, str) and SENTINEL in const)
               or (hasattr(const, "co_consts") and _names_sentinel(const))
               for const in code.co_consts)


@pytest.fixture
def watch() -> Iterator[list[tuple[str, str]]]:
    if not Watch.installed:
        sys.addaudithook(Watch.hook)
        Watch.installed = True
    Watch.events = []
    Watch.on = True
    try:
        yield Watch.events
    finally:
        Watch.on = False


def injection_reply(folder: Path) -> tuple[str, list[str]]:
    """A reply full of attacks naming a sentinel file, and the attack lines."""
    target = str(folder / SENTINEL)
    attacks = [
        f"add_pos(__import__('os').system('touch {target}'), 1)",
        f"__import__('os').system('touch {target}')",
        f"add_pos(open('{target}', 'w').write('x'), 1)",
        f"add_pos(exec(\"open('{target}', 'w')\"), 2)",
        f"add_pos(eval(\"__import__('os').system('touch {target}')\"), 3)",
        f"add_pos((lambda: open('{target}', 'w'))(), 4)",
        f"add_pos(f\"{{__import__('os').system('touch {target}')}}\", 5)",
        "add_pos([c for c in ().__class__.__base__.__subclasses__()], 6)",
        f"add_pos(__builtins__.open('{target}', 'w'), 7)",
        f"add_pos(globals()['__builtins__'].exec('open(\"{target}\", \"w\")'), 8)",
        f"add_pos(compile('open(\"{target}\",\"w\")', 's', 'exec'), 9)",
        f"add_pos(1, 2) or open('{target}', 'w')",
        f"import os; os.system('touch {target}')",
        f"add_pos({{'k': __import__('subprocess').run(['touch', '{target}'])}}, 10)",
        f"add_pos(b'\\x00' + open('{target}', 'wb'), 11)",
    ]
    return fenced(*attacks, "add_pos(31, 41)"), attacks


def test_injected_code_never_runs(tmp_path: Path, serve: Callable[[Responder], Server],
                                  contracts: dict[str, Contract],
                                  watch: list[tuple[str, str]]) -> None:
    text, attacks = injection_reply(tmp_path)
    server = serve(replay(completion(text)))
    out = tmp_path / "seeds"
    summary = run([ADD], contracts, out, server.url)
    assert not (tmp_path / SENTINEL).exists()
    assert watch == []
    # The only inputs: the literal call at the head of "add_pos(1, 2) or open(...)"
    # (the rest of that line is never looked at), and the clean line.
    assert args_of(out, ADD) == [[1, 2], [31, 41]]
    assert summary.added == 2
    saved = corpus_path(out, "Toy/0").read_text(encoding="utf-8")
    assert SENTINEL not in saved and "__import__" not in saved
    assert len(attacks) == 15


def test_the_audit_hook_would_catch_an_escape(tmp_path: Path,
                                              watch: list[tuple[str, str]]) -> None:
    # Guards the guard: a real open, and running code that names the sentinel, are seen.
    (tmp_path / SENTINEL).write_text("x")
    exec(compile(f"name = (lambda: '{SENTINEL}')()", "<test>", "exec"), {})
    assert [event for event, _ in watch] == ["open", "exec"]


@pytest.mark.parametrize("line", [
    "is_pal(__import__('os').getcwd())",
    "is_pal(''.join(map(chr, [97])))",
    "is_pal('a' * 10**8)",
    "is_pal(str(open('/etc/passwd').read()))",
    "is_pal(\"\"\"'\"\"\" + __import__('os').system('true'))",
])
def test_expressions_are_never_evaluated(line: str) -> None:
    assert parse_reply(fenced(line), "is_pal") == (1, [])


# ---------------------------------------------------------------- size caps

def test_huge_replies_are_capped(tmp_path: Path, serve: Callable[[Responder], Server],
                                 contracts: dict[str, Contract]) -> None:
    flood = "\n".join(f"add_pos({i}, 1)" for i in range(1, 100_000))
    late = "x" * MAX_REPLY_CHARS + "\nadd_pos(777, 777)\n"
    bombs = fenced("add_pos(" + "[" * 3000 + "]" * 3000 + ", 1)",
                   "add_pos(" + "9" * 30_000 + ", 1)",
                   "add_pos(" + "1" * 5000 + ", 2)",
                   "add_pos('" + "a" * 50_000 + "', 3)",
                   "add_pos(5, 6)")
    server = serve(replay(completion(flood), completion(late), completion(bombs)))
    assert len(flood) > MAX_REPLY_CHARS // 2 and len(late) > MAX_REPLY_CHARS
    out = tmp_path / "seeds"
    run([ADD], contracts, out, server.url)
    inputs = args_of(out, ADD)
    assert inputs[:MAX_REPLY_CALLS] == [[i, 1] for i in range(1, MAX_REPLY_CALLS + 1)]
    assert inputs[MAX_REPLY_CALLS:] == [[5, 6]]  # nothing past the cut, no bomb
    tally = read_corpus(corpus_path(out, "Toy/0"), "Toy/0").tallies["test-model"]
    assert tally.parsed == MAX_REPLY_CALLS + 1


# ---------------------------------------------------------------- retries and errors

def test_429_and_5xx_are_retried_with_capped_backoff(
        tmp_path: Path, serve: Callable[[Responder], Server],
        contracts: dict[str, Contract]) -> None:
    server = serve(replay(error(429, "slow down", {"retry-after": "0.5"}), error(500, "oops"),
                          error(503, "busy"), error(502, "bad gateway"),
                          completion(fenced("add_pos(2, 3)"))))
    waits: list[float] = []
    summary = run([ADD], contracts, tmp_path / "seeds", server.url,
                  config=SeedConfig("test-model", "2026-01-02", rounds=1),
                  policy=RetryPolicy(retries=4, backoff=0.1, cap=0.35), sleep=waits.append)
    # Request 1 took five attempts; requests 2 and 3 one each.
    assert len(server.requests) == 7 and summary.attempts == 7
    assert waits == [0.35, 0.2, 0.35, 0.35]  # Retry-After 0.5 capped; 0.1*2**n capped
    assert args_of(tmp_path / "seeds", ADD) == [[2, 3]]


def test_retry_delays() -> None:
    policy = RetryPolicy(retries=9, backoff=0.5, cap=4.0)
    assert [policy.delay(n) for n in range(5)] == [0.5, 1.0, 2.0, 4.0, 4.0]
    assert policy.delay(0, hint=3.0) == 3.0 and policy.delay(0, hint=60.0) == 4.0
    assert policy.delay(2, hint=0.0) == 2.0


def test_a_request_that_keeps_failing_fails_only_its_task(
        tmp_path: Path, serve: Callable[[Responder], Server],
        contracts: dict[str, Contract]) -> None:
    def respond(body: dict[str, Any], _number: int) -> Response:
        if "def is_pal" in prompt_of(body):
            return error(500, "internal error")
        return completion(fenced("add_pos(1, 9)"))

    server = serve(respond)
    out = tmp_path / "seeds"
    summary = run([ADD, PAL], contracts, out, server.url,
                  policy=RetryPolicy(retries=2, backoff=0.001))
    assert len(server.requests) == 3 + 3 * 3
    assert [report.task_id for report in summary.failed] == ["Toy/1"]
    assert (summary.requests, summary.answered, summary.attempts) == (6, 3, 3)
    failures = summary.failed[0].failures
    assert len(failures) == 3 and "HTTP 500" in failures[0] and "after 3 attempts" in failures[0]
    assert args_of(out, ADD) == [[1, 9]]
    assert not corpus_path(out, "Toy/1").exists()


def test_a_bad_request_is_not_retried(tmp_path: Path, serve: Callable[[Responder], Server],
                                      contracts: dict[str, Contract]) -> None:
    server = serve(replay(error(400, "context length exceeded")))
    summary = run([ADD], contracts, tmp_path / "seeds", server.url)
    assert len(server.requests) == 3
    assert "HTTP 400" in summary.failed[0].failures[0]
    assert "context length exceeded" in summary.failed[0].failures[0]


@pytest.mark.parametrize(("response", "words"), [
    (error(401, "Incorrect API key provided"), ["HTTP 401", "API key was rejected",
                                                "$TEST_KEY", "Incorrect API key"]),
    (error(403, "not allowed"), ["HTTP 403", "API key was rejected"]),
    (error(404, "The model `test-model` does not exist"), ["HTTP 404",
                                                           "unknown model 'test-model'"]),
])
def test_bad_key_or_unknown_model_stops_the_run(
        tmp_path: Path, serve: Callable[[Responder], Server], contracts: dict[str, Contract],
        response: Response, words: list[str]) -> None:
    server = serve(replay(response))
    with pytest.raises(EndpointError) as caught:
        run([ADD, PAL], contracts, tmp_path / "seeds", server.url)
    message = str(caught.value)
    assert "\n" not in message and all(word in message for word in words), message
    assert len(server.requests) <= 2  # no retries; the rest are cancelled (1 worker)


def test_a_rejected_key_stops_the_other_requests_retrying(
        tmp_path: Path, serve: Callable[[Responder], Server],
        contracts: dict[str, Contract]) -> None:
    def respond(body: dict[str, Any], _number: int) -> Response:
        if "def is_pal" in prompt_of(body):
            return error(401, "bad key")
        return error(503, "busy")

    server = serve(respond)
    with pytest.raises(EndpointError, match="HTTP 401"):
        run_seed([ADD, PAL], contracts, tmp_path / "seeds", endpoint(server.url), CONFIG,
                 RetryPolicy(retries=1000, backoff=0.02, cap=0.02), workers=6)
    # Without the stop, the three ADD requests would try 1001 times each.
    assert len(server.requests) < 60
    assert not (tmp_path / "seeds").exists()


def test_malformed_bodies_fail_the_request_without_crashing(
        tmp_path: Path, serve: Callable[[Responder], Server],
        contracts: dict[str, Contract]) -> None:
    server = serve(replay((200, {}, b"<html>not json</html>"), (200, {}, b"{}"),
                          (200, {}, b'{"choices": [{"message": {"content": 7}}]}')))
    summary = run([ADD], contracts, tmp_path / "seeds", server.url)
    failures = summary.failed[0].failures
    assert len(failures) == 3 and all("malformed reply" in failure for failure in failures)
    assert len(server.requests) == 3  # not retried


def test_timeouts_are_retried(tmp_path: Path, serve: Callable[[Responder], Server],
                              contracts: dict[str, Contract]) -> None:
    def respond(_body: dict[str, Any], number: int) -> Response:
        if number == 0:
            time.sleep(1.0)
        return completion(fenced("add_pos(4, 2)"))

    server = serve(respond)
    summary = run([ADD], contracts, tmp_path / "seeds", server.url, timeout=0.3)
    assert summary.attempts == 4 and summary.failed == []
    assert args_of(tmp_path / "seeds", ADD) == [[4, 2]]


def test_an_unreachable_server_stops_the_run(tmp_path: Path,
                                             contracts: dict[str, Contract]) -> None:
    closed = Server(replay(completion("")))
    url = closed.url
    closed.close()
    with pytest.raises(EndpointError, match=r"cannot reach .*\(after 4 attempts\)$"):
        run([ADD], contracts, tmp_path / "seeds", url)


# ---------------------------------------------------------------- resume

def test_resume_skips_answered_rounds_and_force_asks_again(
        tmp_path: Path, serve: Callable[[Responder], Server],
        contracts: dict[str, Contract]) -> None:
    server = serve(lambda _body, number: completion(fenced(f"add_pos({number + 1}, 1)")))
    out = tmp_path / "seeds"
    first = run([ADD], contracts, out, server.url)
    assert first.requests == 3 and len(server.requests) == 3
    again = run([ADD], contracts, out, server.url)
    assert again.requests == 0 and again.skipped == ("Toy/0",) and len(server.requests) == 3
    more = run([ADD], contracts, out, server.url,
               config=SeedConfig("test-model", "2026-01-03", rounds=2))
    assert more.requests == 3
    # Round 2 shows the next window of existing inputs.
    assert "add_pos(10, 20)\nadd_pos(1, 2)" not in prompt_of(server.requests[0])
    assert "add_pos(1, 2)\nadd_pos(3, 4)\nadd_pos(10, 20)" in prompt_of(server.requests[0])
    corpus = read_corpus(corpus_path(out, "Toy/0"), "Toy/0")
    assert corpus.tallies["test-model"].replies == 6
    assert [entry.provenance.date for entry in corpus.entries] == ["2026-01-02"] * 3 + [
        "2026-01-03"] * 3
    other = run([ADD], contracts, out, server.url, config=SeedConfig("other-model", "d"))
    assert other.requests == 3  # another model has its own rounds
    forced = run([ADD], contracts, out, server.url,
                 config=SeedConfig("test-model", "2026-01-04", rounds=2, force=True))
    assert forced.requests == 6 and len(server.requests) == 15


def test_a_partly_failed_task_resumes_where_it_stopped(
        tmp_path: Path, serve: Callable[[Responder], Server],
        contracts: dict[str, Contract]) -> None:
    server = serve(replay(completion(fenced("add_pos(1, 5)")), error(500, "x"),
                          completion(fenced("add_pos(2, 5)"))))
    out = tmp_path / "seeds"
    first = run([ADD], contracts, out, server.url, policy=RetryPolicy(retries=0))
    # The reply after the failed request is dropped: the file says "request 0 is done".
    assert len(first.failed) == 1 and args_of(out, ADD) == [[1, 5]]
    assert read_corpus(corpus_path(out, "Toy/0"), "Toy/0").tallies["test-model"].replies == 1
    second = run([ADD], contracts, out, server.url, policy=RetryPolicy(retries=0))
    assert second.requests == 2 and second.failed == []
    kinds = [next(k for k in ("complex", "corner-case", "difficult")
                  if f"Write {k}" in prompt_of(request)) for request in server.requests]
    assert kinds == ["complex", "corner-case", "difficult", "corner-case", "difficult"]
    assert [entry.provenance.prompt for entry in
            read_corpus(corpus_path(out, "Toy/0"), "Toy/0").entries] == ["complex", "corner-case"]


class Interrupting:
    """An endpoint (no HTTP) that answers ADD and is interrupted on PAL."""

    def complete(self, messages: list[dict[str, str]]) -> Reply:
        if "def is_pal" in messages[-1]["content"]:
            raise KeyboardInterrupt
        return Reply(fenced("add_pos(6, 6)"))


def test_an_interrupted_run_keeps_finished_tasks(tmp_path: Path,
                                                 contracts: dict[str, Contract]) -> None:
    out = tmp_path / "seeds"
    with pytest.raises(KeyboardInterrupt):
        run_seed([ADD, PAL], contracts, out, Interrupting(), CONFIG, FAST, workers=1)
    assert args_of(out, ADD) == [[6, 6]]
    assert not corpus_path(out, PAL.task_id).exists()


def test_cli_interrupt_says_how_to_continue(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*_args: object, **_kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(llmseed, "run_seed", interrupted)
    result = CliRunner().invoke(main, ["seed", "--model", "m", "--base-url",
                                       "http://127.0.0.1:9/v1", "--tasks", "0",
                                       "--out", str(tmp_path)])
    assert result.exit_code == 130
    assert "interrupted: finished tasks are saved" in result.stderr


# ---------------------------------------------------------------- corpus format

def test_reply_counts_round_trip_and_authored_files_keep_their_format(tmp_path: Path) -> None:
    path = tmp_path / "T.json"
    write_corpus(path, Corpus("T", (), {"authored": Tally(3, 3, 2),
                                        "m": Tally(10, 4, 4, replies=1)}))
    text = path.read_text(encoding="utf-8")
    assert '"authored": {"asked": 3, "parsed": 3, "valid": 2}' in text
    assert '"m": {"asked": 10, "parsed": 4, "replies": 1, "valid": 4}' in text
    assert read_corpus(path, "T").tallies["m"].replies == 1
    assert text.endswith(' "inputs": []}\n')


def test_parse_reply_stops_after_the_call_limit() -> None:
    text = " ".join(f"f({i})" for i in range(50))
    assert parse_reply(text, "f", limit=5) == (5, [[0], [1], [2], [3], [4]])


# ---------------------------------------------------------------- the command line

def _add_server(serve: Callable[[Responder], Server]) -> Server:
    return serve(replay(completion(fenced("add(123, 456)", "add(-7, 0)", "add('x', 1)"))))


def test_cli_seed_against_a_local_server(tmp_path: Path, serve: Callable[[Responder], Server],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    server = _add_server(serve)
    out = tmp_path / "seeds"
    args = ["seed", "--model", "local", "--base-url", server.url, "--tasks", "53",
            "--out", str(out), "--date", "2026-02-03", "-j", "2"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "1 tasks asked, 0 already done; 2 new inputs" in result.stdout
    assert "3 requests, 3 answered (3 attempts); tokens: 300 prompt + 60 completion" \
        in result.stdout
    document = json.loads((out / "HumanEval_53.json").read_text(encoding="utf-8"))
    assert document["tallies"] == {"local": {"asked": 30, "parsed": 9, "valid": 6, "replies": 3}}
    assert document["inputs"][0] == {"args": [123, 456], "provenance": {
        "model": "local", "prompt": "complex", "date": "2026-02-03"}}
    assert "def add(x: int, y: int)" in prompt_of(server.requests[0])
    assert server.requests[0]["authorization"] == "Bearer no-key"
    rerun = CliRunner().invoke(main, args)
    assert rerun.exit_code == 0 and "0 tasks asked, 1 already done" in rerun.stdout


def test_cli_reads_the_key_from_the_named_variable(
        tmp_path: Path, serve: Callable[[Responder], Server],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_SEED_KEY", "sk-secret")
    server = _add_server(serve)
    result = CliRunner().invoke(main, ["seed", "--model", "m", "--base-url", server.url,
                                       "--api-key-env", "MY_SEED_KEY", "--tasks", "53",
                                       "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert {request["authorization"] for request in server.requests} == {"Bearer sk-secret"}


@pytest.mark.parametrize(("response", "expected"), [
    (error(401, "bad key"), "the API key was rejected (check $SEED_TEST_KEY)"),
    (error(404, "no such model"), "unknown model 'nope'"),
])
def test_cli_bad_key_or_unknown_model_is_one_line_exit_2(
        tmp_path: Path, serve: Callable[[Responder], Server], monkeypatch: pytest.MonkeyPatch,
        response: Response, expected: str) -> None:
    monkeypatch.setenv("SEED_TEST_KEY", "sk-wrong")
    server = serve(replay(response))
    result = CliRunner().invoke(main, ["seed", "--model", "nope", "--base-url", server.url,
                                       "--api-key-env", "SEED_TEST_KEY", "--tasks", "0-3",
                                       "--out", str(tmp_path), "-j", "1"])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert lines[-1].startswith("error: HTTP ") and expected in lines[-1], result.stderr
    assert list(tmp_path.iterdir()) == []


def test_cli_without_key_or_base_url_says_what_to_set(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    result = CliRunner().invoke(main, ["seed", "--model", "gpt-x", "--tasks", "0",
                                       "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert result.stderr.strip() == ("error: no API key: set $OPENAI_API_KEY (or pass "
                                     "--base-url URL for a local server)")


def test_cli_reports_incomplete_tasks_with_exit_1(tmp_path: Path,
                                                  serve: Callable[[Responder], Server]) -> None:
    server = serve(replay(error(503, "overloaded")))
    result = CliRunner().invoke(main, ["seed", "--model", "m", "--base-url", server.url,
                                       "--tasks", "53", "--out", str(tmp_path),
                                       "--retries", "1", "--backoff", "0"])
    assert result.exit_code == 1
    assert "failed: HumanEval/53: complex request: HTTP 503" in result.stderr
    assert "1 task(s) incomplete; run again to retry them" in result.stderr
    assert len(server.requests) == 6


def test_the_docs_seed_examples_use_real_options() -> None:
    """The examples of the seeds guide (docs/how-to/seeds.md) parse as `seed` commands."""
    guide = Path(__file__).resolve().parent.parent / "docs" / "how-to" / "seeds.md"
    section = guide.read_text(encoding="utf-8").split("## Any OpenAI-compatible server", 1)[1]
    section = section.split("\n## ", 1)[0]
    examples = [line.split()[2:] for line in section.splitlines()
                if line.startswith("evalplus-ng seed ") and "[" not in line]
    urls = [args[args.index("--base-url") + 1] for args in examples]
    assert urls == ["http://localhost:8000/v1", "http://localhost:8080/v1"]
    for args in examples:
        with seed.make_context("seed", list(args)) as context:
            assert context.params["base_url"] in urls
