"""The one place where untrusted code runs: processes, rlimits, privileges, time limits.

Layout. The trusted parent keeps a pool of long-lived *supervisor* processes
(one per worker, started once and recycled across jobs). A supervisor has
imported everything a sample commonly needs, then, for each job (one piece of
code and its inputs), gives the job to a fresh *child* that loads the code and
calls it on each input. Each child is forked and confines itself before its job
is known (the next job's child is made while the parent reads the last job's
end), then receives the job on a pipe of its own. The child:

* gets an empty private working folder (the previous child's, when that child
  left it untouched) and loses stdin, stdout and stderr;
* has a memory cap (``RLIMIT_AS``), a file-size cap and may not create a single
  process or thread (``RLIMIT_NPROC``);
* when the supervisor runs as root, switches to a uid of its own
  (``UID_BASE + pid``) that keeps only ``CAP_DAC_READ_SEARCH`` (so it can still
  import modules it can read but cannot write, delete or signal anything it
  does not own), and runs in a network namespace with no interface up;
* finds /tmp, /var/tmp and /dev/shm read-only (the supervisor's mount namespace
  binds them read-only onto themselves; ``TMPDIR`` is the working folder), or,
  where mount namespaces are not allowed, has what it left there removed;
* as a non-root user it still gets the rlimits, a network namespace when user
  namespaces are allowed, and Python-level guards (best effort: such a user
  should evaluate untrusted code in a container).

The supervisor enforces every time limit with ``SIGKILL`` (a sample that
ignores signals or spins in C cannot escape it) and relays each outcome to the
parent, which alone holds the expected outputs and judges them with
:mod:`evalplus_ng.oracle`; neither the supervisor nor the child ever sees an
expected output, and the parent answers ``stop`` to end a failing job early. A child
that dies, hangs or floods becomes an :class:`Outcome`, never an exception; a
supervisor that dies is restarted and the job retried once.

Frames on every pipe are a 4-byte big-endian length followed by a body. The
parent sends the supervisor pickles (trusted data only ever flows that way:
the parent never unpickles). The child sends one *outcome body* per input as
soon as the call returns: a status byte, the seconds as a big-endian double,
then the output's JSON text (or the error text). The supervisor only splits
the child's stream at frame boundaries (to apply time and size limits) and
relays whole runs of frames unparsed; the parent parses and judges them.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import functools
import gc
import json
import os
import pickle
import queue
import resource
import select
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any, TypeVar, cast

from evalplus_ng.errors import SandboxError
from evalplus_ng.files import remove_tree
from evalplus_ng.records import Outcome, Status
from evalplus_ng.types import Wire

UID_BASE = 0x40000000
_HEADER = struct.Struct(">I")
_SECONDS = struct.Struct(">d")
_INDEX = struct.Struct(">I")
#: Outcome bodies start with one of these status bytes, then the seconds.
_CODES = {Status.OK: b"o", Status.ERROR: b"e", Status.TIMEOUT: b"t", Status.CRASH: b"c",
          Status.BAD_OUTPUT: b"b"}
#: Status by first byte of an outcome body.
_STATUSES = {code[0]: status for status, code in _CODES.items()}
#: What a child may report; timeouts and crashes are the supervisor's to say.
_CHILD_STATUSES = {code: status for code, status in _STATUSES.items()
                   if status in (Status.OK, Status.ERROR, Status.BAD_OUTPUT)}
_PREFIX = 1 + _SECONDS.size
_OK_CODE = _CODES[Status.OK][0]
#: Pipe buffer asked for (the default is 64 KiB; Linux allows 1 MiB unprivileged).
_PIPE_BYTES = 1 << 20
# Parent -> supervisor frames: a job (b"J" + pickle), or an answer.
_JOB, _STOP, _CONTINUE = b"J", b"S", b"C"
# Supervisor -> parent frames: a run of child frames, one outcome of its own, done.
_RUN, _BROKEN, _DONE = b"R", b"B", b"D"


def _text_encoder() -> Callable[[Wire], str]:
    """Compact ASCII JSON text of a wire tree, the same in the child and in the parent.

    The C encoder is called directly: ``JSONEncoder.encode`` consults the builtin
    ``isinstance``, which a sample may have replaced by the time its output is encoded.
    """
    encoder = json.JSONEncoder(separators=(",", ":"))
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:  # pragma: no cover - CPython always has it
        return encoder.encode
    encode = make(None, encoder.default, json.encoder.encode_basestring_ascii, None, ":", ",",
                  False, False, True)
    return lambda wire: "".join(encode(wire, 0))


_value_text = _text_encoder()


#: The C scanner, called directly: ``JSONDecoder.decode`` first runs a regular expression
#: over the text for whitespace, which costs more than the parse of a small value.
_scan = json.scanner.make_scanner(json.JSONDecoder())  # type: ignore[attr-defined]


def _parse(text: str) -> Wire:
    """Parse a compact JSON text (as :func:`_text_encoder` writes) into a wire tree;
    trailing data is an error, as it is for ``json.loads``."""
    try:
        value, end = _scan(text, 0)
    except StopIteration as exc:
        raise ValueError(f"expecting a value at {exc.value}") from None
    if end != len(text):
        raise ValueError(f"extra data at {end}")
    return cast(Wire, value)
_CAP_DAC_READ_SEARCH = 2
_PR_SET_PDEATHSIG = 1
_PR_SET_KEEPCAPS = 8
_PR_SET_NO_NEW_PRIVS = 38
_CLONE_NEWUSER = 0x10000000
_CLONE_NEWNET = 0x40000000
_CLONE_NEWNS = 0x00020000
_MS_RDONLY, _MS_REMOUNT, _MS_BIND, _MS_REC, _MS_PRIVATE = 1, 32, 4096, 16384, 1 << 18
#: World-writable folders: read-only for children, or swept after each (see
#: :func:`_protect_shared_tmp`).
_SHARED_TMP = ("/tmp", "/var/tmp", "/dev/shm")
#: Jobs per worker that :meth:`Sandbox.map` submits ahead of the one it waits for.
MAP_WINDOW = 256
#: Time allowed beyond a test's limit for decoding, encoding and the pipe.
_SLACK_SECONDS = 0.05
#: How long a batching child holds outcomes at most (well within the slack above, so
#: holding them never turns into a timeout), and how many bytes.
_BATCH_SECONDS = 0.002
_BATCH_BYTES = 1 << 16

# Imported by the supervisor before it forks, so that children start warm. Not
# numpy: it makes every fork and exit slower (more memory to map and unmap), which
# costs more over a run than the import costs the rare sample that needs it.
_PRELOAD = (
    "abc array ast bisect calendar cmath collections collections.abc copy dataclasses "
    "datetime decimal enum fractions functools hashlib heapq itertools json math "
    "numbers operator random re statistics string sys textwrap typing unicodedata"
).split()


@dataclass(frozen=True)
class Limits:
    """Resource limits for one child process."""

    memory_bytes: int = 4 << 30
    file_bytes: int = 16 << 20
    load_seconds: float = 10.0
    output_bytes: int = 64 << 20


@dataclass(frozen=True)
class Job:
    """Run ``entry_point`` of ``code`` on each of ``inputs`` (wire-encoded arg lists).

    With ``expected`` set, the parent judges each output with the oracle and,
    when ``fail_fast``, stops the job at the first input that does not pass.
    ``inputs`` and ``expected`` must not change once a job holds them: a sandbox
    prepares each sequence once (by identity) and reuses that for later jobs.
    """

    code: str
    entry_point: str
    inputs: Sequence[Wire]
    time_limits: Sequence[float]
    expected: Sequence[Wire] | None = None
    task_id: str = ""
    atol: float = 0.0
    fail_fast: bool = True
    #: When set, a call that executes more Python lines than this fails with an
    #: ERROR naming :data:`COST_EXCEEDED`: a cost measure that, unlike time, is
    #: the same on every machine (lines of the code itself, counted by rewriting it:
    #: :mod:`evalplus_ng.linecount`). For trusted code (the ground truth) only.
    max_lines: int | None = None
    #: When set, the job stops once this many inputs have timed out or exceeded
    #: ``max_lines``: each costs a whole limit, so a looping candidate would otherwise
    #: cost one per input.
    max_timeouts: int | None = None
    #: When set, the job stops once this many inputs have failed (``fail_fast`` is 1).
    max_failures: int | None = None
    #: With ``max_lines``, lines are counted only where a plain call took at least this
    #: many seconds (it is then called again, counting): a faster call cannot have
    #: executed ``max_lines`` lines, and the counting call costs about twice the plain one.
    lines_after: float | None = None
    #: Call each input a second time (on a fresh copy of its arguments) and report an
    #: output that differs from the first as an ERROR naming :data:`UNSTABLE`. The
    #: time limit covers both calls; the seconds reported are the faster call's.
    twice: bool = False
    #: For trusted code (the ground truth): the child sends its outcomes in batches
    #: (every :data:`_BATCH_SECONDS`), not one write per input. A timeout or crash then
    #: cannot tell which of the unsent inputs caused it, so the job resumes from the
    #: first of them in a child that sends each outcome at once.
    batch: bool = False


#: The error type reported when a ``twice`` job's second call disagrees with its first.
UNSTABLE = "Unstable"


#: The error type reported when a call exceeds ``Job.max_lines``.
COST_EXCEEDED = "CostExceeded"


def too_costly(outcome: Outcome) -> bool:
    """The call timed out or ran out of its line budget (what ``max_timeouts`` counts)."""
    return outcome.status is Status.TIMEOUT or (
        outcome.status is Status.ERROR and COST_EXCEEDED in (outcome.error or ""))


class CostExceeded(BaseException):
    """Raised inside a traced call that ran too many lines (BaseException: hard to swallow)."""


def _line_budget(function: Callable[..., Any], budget: int) -> Callable[..., Any]:
    """``function`` run under a tracer that raises CostExceeded after ``budget`` line events."""

    def call(*args: Any) -> Any:
        remaining = budget

        def local(frame: Any, event: str, arg: Any) -> Any:
            nonlocal remaining
            if event == "line":
                remaining -= 1
                if remaining < 0:
                    raise CostExceeded(f"more than {budget} lines executed")
            return local

        sys.settrace(lambda frame, event, arg: local)
        try:
            return function(*args)
        finally:
            sys.settrace(None)

    return call


def _line_counted(code: str, entry_point: str, budget: int,
                  function: Callable[..., Any]) -> Callable[..., Any]:
    """``code``'s entry point rewritten to count its executed lines (raising
    CostExceeded after ``budget``, see :mod:`evalplus_ng.linecount`), loaded in a
    namespace of its own; ``function`` under the (slower) tracer when the code cannot
    be rewritten or its rewritten module does not load."""
    from evalplus_ng import linecount

    def over() -> None:
        raise CostExceeded(f"more than {budget} lines executed")

    try:
        namespace = linecount.namespace(budget, over)
        namespace.update({"__name__": "__sample__", "__builtins__": __builtins__})
        exec(linecount.instrument(code, "<sample>"), namespace)
        return linecount.counted(namespace[entry_point], namespace, over)
    except BaseException:
        return _line_budget(function, budget)


@dataclass(frozen=True)
class JobResult:
    """``load`` says whether the code loaded; ``outcomes`` has one entry per input run.

    ``passed`` is filled when the job had expected outputs. Inputs after a
    fail-fast stop are absent from both.
    """

    load: Outcome
    outcomes: tuple[Outcome, ...]
    passed: tuple[bool, ...] = field(default=())

    @property
    def all_passed(self) -> bool:
        """True when the code loaded and every input ran and passed."""
        return (
            self.load.status is Status.OK
            and len(self.passed) == len(self.outcomes)
            and all(self.passed)
        )


# --------------------------------------------------------------------------- frames


def _write_frame(fd: int, data: bytes) -> None:
    view = memoryview(_HEADER.pack(len(data)) + data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _read_exact(fd: int, size: int, deadline: float | None) -> bytes | None:
    """Read ``size`` bytes; None on EOF or when ``deadline`` (monotonic) passes."""
    chunks: list[bytes] = []
    while size:
        if deadline is not None:
            remaining = max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([fd], [], [], remaining)  # late: one last look
            if not ready:
                return None
        chunk = os.read(fd, min(size, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


class _FrameError(Exception):
    """A frame was late, truncated or oversized."""

    def __init__(self, status: Status, detail: str) -> None:
        super().__init__(detail)
        self.status = status


def _read_frame(fd: int, deadline: float | None, max_bytes: int) -> bytes:
    header = _read_exact(fd, _HEADER.size, deadline)
    if header is None:
        late = deadline is not None and time.monotonic() >= deadline
        raise _FrameError(Status.TIMEOUT if late else Status.CRASH, "no reply")
    (size,) = _HEADER.unpack(header)
    if size > max_bytes:
        raise _FrameError(Status.BAD_OUTPUT, f"output larger than {max_bytes} bytes")
    body = _read_exact(fd, size, deadline)
    if body is None:
        raise _FrameError(Status.TIMEOUT, "reply cut short")
    return body


def _widen(fd: int) -> None:
    """Give a pipe a larger buffer: fewer context switches when outputs are large."""
    with contextlib.suppress(OSError, AttributeError):
        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, _PIPE_BYTES)


def _body(status: Status, seconds: float, text: str | None = None) -> bytes:
    """An outcome body made by trusted code (the supervisor, or the child's own loop)."""
    payload = b"" if text is None else text.encode("utf-8", "backslashreplace")
    return _CODES[status] + _SECONDS.pack(seconds) + payload


def _split_body(body: bytes, allowed: Mapping[int, Status]) -> tuple[Status, float, bytes]:
    """Status, seconds and payload of an outcome body; anything malformed is bad output.

    ``allowed`` maps the status bytes the sender may use to their statuses.
    """
    status = allowed.get(body[0]) if len(body) >= _PREFIX else None
    if status is None:
        return Status.BAD_OUTPUT, 0.0, b"malformed reply"
    return status, _SECONDS.unpack_from(body, 1)[0], body[_PREFIX:]


def _text(payload: bytes) -> str:
    return payload.decode("utf-8", "replace")


# --------------------------------------------------------------------------- child side


@functools.cache
def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [
        ("effective", ctypes.c_uint32),
        ("permitted", ctypes.c_uint32),
        ("inheritable", ctypes.c_uint32),
    ]


def _drop_privileges(libc: ctypes.CDLL, uid: int) -> None:
    """As root: become ``uid``, keeping only the capability to read any file."""
    if libc.prctl(_PR_SET_KEEPCAPS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_KEEPCAPS)")
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    header = _CapHeader(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3
    data = (_CapData * 2)()
    data[0].effective = data[0].permitted = 1 << _CAP_DAC_READ_SEARCH
    if libc.capset(ctypes.byref(header), data) != 0:
        raise OSError(ctypes.get_errno(), "capset")


def _python_guards() -> None:
    """Best-effort guards for a non-root supervisor, where the kernel cannot help."""
    import posix
    import shutil as shutil_module
    import socket

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise PermissionError("not allowed in the evalplus-ng sandbox")

    names = (
        "kill killpg fork forkpty system execv execve execvp execvpe spawnv spawnve "
        "remove unlink rmdir removedirs rename renames replace truncate chmod chown "
        "putenv setuid setgid"
    ).split()
    for module in (os, posix):
        for name in names:
            if hasattr(module, name):
                setattr(module, name, refuse)
    shutil_module.rmtree = refuse  # type: ignore[assignment]
    shutil_module.move = refuse
    subprocess.Popen = refuse  # type: ignore[assignment,misc]
    socket.socket = refuse  # type: ignore[assignment,misc]
    socket.create_connection = refuse  # type: ignore[assignment]


#: CPython's default recursion limit.
_DEFAULT_RECURSION_LIMIT = 1_000


def _confine(workdir: str, limits: Limits, as_root: bool, keep: Sequence[int]) -> None:
    """Everything the child does to itself before it touches untrusted code.

    Of the inherited file descriptors, only ``keep`` stay open (stdin, stdout and
    stderr become /dev/null).
    """
    os.setsid()
    libc = _libc()
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    low = 3
    for fd in sorted(keep):
        os.closerange(low, fd)
        low = fd + 1
    os.closerange(low, 65536)
    if as_root:
        uid = UID_BASE + os.getpid()
        os.chown(workdir, uid, uid)
        _drop_privileges(libc, uid)
    os.chdir(workdir)
    # Temporary files go to the working folder (the shared ones may be read-only).
    os.environ["TMPDIR"] = workdir
    tempfile.tempdir = workdir
    resource.setrlimit(resource.RLIMIT_AS, (limits.memory_bytes, limits.memory_bytes))
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits.file_bytes, limits.file_bytes))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_NPROC, (1, 1))
    libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    # Set after the uid change, which clears it; the getppid check closes the race.
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() == 1:
        os._exit(1)
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGPIPE):
        signal.signal(signum, signal.SIG_DFL)
    if not as_root:
        _python_guards()
    # The recursion limit stays CPython's default (1,000 frames), as in a plain
    # interpreter and in EvalPlus: code that recurses once per element fails on inputs
    # of a few thousand elements there, and so it does here.
    sys.setrecursionlimit(_DEFAULT_RECURSION_LIMIT)


def _describe(exc: BaseException) -> str:
    try:
        text = str(exc)
    except BaseException:
        text = "?"
    return f"{type(exc).__name__}: {text[:200]}"


def _child_main(job_fd: int, fd: int, workdir: str, limits: Limits, as_root: bool) -> None:
    """Confine, wait for a job on ``job_fd``; load its code, then run each input from the
    start index the job came with on, one frame per result on ``fd`` (gathered into
    batches when the job's flag byte says so: trusted code only)."""
    _confine(workdir, limits, as_root, (job_fd, fd))
    # Confined before the job is known: a child can be made ahead, while the previous
    # one still runs, and take its job (from the supervisor, trusted) when it comes.
    frame = _read_frame(job_fd, None, 1 << 31)
    os.close(job_fd)
    start, batched = _INDEX.unpack_from(frame)[0], frame[_INDEX.size] == 1
    message: dict[str, Any] = pickle.loads(frame[_INDEX.size + 1:])
    del frame
    from evalplus_ng.serialize import decode
    from evalplus_ng.serialize import encode as wire

    # Own references, taken before the sample runs: a sample that patches builtins
    # or these modules garbles at most its own replies, never the framing.
    length, write, clock, loads = len, os.write, time.perf_counter, pickle.loads
    header, stamp, text, describe = _HEADER.pack, _SECONDS.pack, _value_text, _describe
    ok, error, bad = _CODES[Status.OK], _CODES[Status.ERROR], _CODES[Status.BAD_OUTPUT]

    def write_all(data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[write(fd, view):]

    def send(body: bytes) -> None:
        write_all(header(length(body)) + body)

    held: list[bytes] = []
    held_bytes = 0
    held_since = 0.0

    def hold(body: bytes) -> None:
        """Send ``body`` with the outcomes before it once enough time or bytes gathered."""
        nonlocal held_bytes, held_since
        if not held:
            held_since = clock()
        held.append(header(length(body)))
        held.append(body)
        held_bytes += length(body)
        if held_bytes >= _BATCH_BYTES or clock() - held_since >= _BATCH_SECONDS:
            flush()

    def flush() -> None:
        nonlocal held_bytes
        if held:
            data = b"".join(held)
            held.clear()
            held_bytes = 0
            write_all(data)

    inputs: list[Wire] = loads(message["inputs"])
    stop = length(inputs)
    namespace: dict[str, Any] = {"__name__": "__sample__", "__builtins__": __builtins__}
    try:
        exec(compile(message["code"], "<sample>", "exec"), namespace)
        function = namespace[message["entry_point"]]
        if not callable(function):
            raise TypeError(f"{message['entry_point']} is not callable")
    except BaseException as exc:
        send(error + stamp(0.0) + describe(exc).encode("utf-8", "backslashreplace"))
        os._exit(0)
    send(ok + stamp(0.0))
    max_lines = int(message.get("max_lines") or 0)
    lines_after = message.get("lines_after") if max_lines else None
    made: list[Callable[..., Any]] = []

    def counting(*args: Any) -> Any:
        """The entry point counting its lines, rewritten when first needed (most jobs
        with ``lines_after`` never need it)."""
        if not made:
            made.append(_line_counted(message["code"], message["entry_point"], max_lines,
                                      function))
        return made[0](*args)

    first = counting if max_lines and lines_after is None else function
    twice = bool(message.get("twice"))
    unstable = (UNSTABLE + ": a second call gave another output").encode("ascii")

    def again(item: Wire, payload: bytes, elapsed: float) -> bytes:
        """Call once more (counting lines when the first call was slow enough to need it)."""
        recount = lines_after is not None and elapsed >= lines_after
        call = counting if recount else function
        args = decode(item)
        began = clock()
        try:
            value = call(*args)
        except BaseException as exc:
            return error + stamp(elapsed) + describe(exc).encode("utf-8", "backslashreplace")
        second = clock() - began
        try:
            repeated = text(wire(value)).encode("ascii")
        except BaseException as exc:
            return bad + stamp(elapsed) + describe(exc).encode("utf-8", "backslashreplace")
        if repeated != payload:
            return error + stamp(elapsed) + unstable
        return ok + stamp(elapsed if recount or second > elapsed else second) + payload

    index = start
    while index < stop:
        item = inputs[index]
        args = decode(item)
        index += 1
        began = clock()
        try:
            value = first(*args)
        except BaseException as exc:
            elapsed = clock() - began
            body = error + stamp(elapsed) + describe(exc).encode("utf-8", "backslashreplace")
        else:
            elapsed = clock() - began
            try:
                payload = text(wire(value)).encode("ascii")
            except BaseException as exc:
                body = bad + stamp(elapsed) + describe(exc).encode("utf-8", "backslashreplace")
            else:
                if twice or (lines_after is not None and elapsed >= lines_after):
                    body = again(item, payload, elapsed)
                else:
                    body = ok + stamp(elapsed) + payload
        if batched:
            hold(body)
        else:
            send(body)
    flush()
    os._exit(0)


# --------------------------------------------------------------------------- supervisor


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


def _reap(pid: int) -> int:
    """Wait for ``pid``; return its wait status."""
    while True:
        try:
            return os.waitpid(pid, 0)[1]
        except InterruptedError:
            continue
        except ChildProcessError:
            return 0


def _death(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"killed by signal {signal.Signals(os.WTERMSIG(status)).name}"
    return f"exited with code {os.waitstatus_to_exitcode(status)}"


#: The supervisor reads a child's CPU time at most this often (see ``_collect``).
_CPU_SAMPLE_SECONDS = 0.02
_CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def _cpu_seconds(pid: int | None) -> float | None:
    """CPU time (user + system) process ``pid`` has used so far; None when unknown."""
    if pid is None:
        return None
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            fields = handle.read().rsplit(b")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / _CLOCK_TICKS
    except (OSError, ValueError, IndexError):
        return None


def _wall_cap(limit: float) -> float:
    """Wall-clock time after which a late reply is a timeout whatever the CPU time says
    (a child that sleeps or waits uses none)."""
    return 2 * limit + 1.0


#: How long the supervisor waits after relaying replies before it looks for more.
_RELAY_PAUSE_SECONDS = 0.0005


class _Supervisor:
    """Runs jobs by forking confined children; lives in its own process.

    It never sees expected outputs: it relays each outcome to the parent, which
    judges it and may answer ``stop``. After a timeout or crash it waits for the
    parent's ``continue`` or ``stop`` before starting a fresh child.
    """

    def __init__(self, limits: Limits, fd_in: int, fd_out: int, root: str,
                 writable: Sequence[str] = _SHARED_TMP) -> None:
        self.limits = limits
        self.fd_in = fd_in
        self.fd_out = fd_out
        self.as_root = os.geteuid() == 0
        self.root = root  # made, and removed, by the parent
        #: World-writable folders a child could write to: swept after each child (as
        #: root, where each child has a uid of its own that marks what it made).
        self.sweep = tuple(writable) if self.as_root else ()
        self.workdir: str | None = None
        #: A finished child still to reap and clean up after (once the parent has its answer).
        self.deferred: tuple[int, int, str, dict[str, int]] | None = None
        #: A confined child waiting for the next job (see :meth:`_spawn`).
        self.spare: tuple[int, int, int, str] | None = None

    def serve(self) -> None:
        """Serve jobs until the parent closes the pipe."""
        while True:
            try:
                frame = _read_frame(self.fd_in, None, 1 << 31)
            except _FrameError:
                return
            if frame[:1] == _JOB:
                self.run(frame[1:])
            # Anything else is a stale answer for a job that had already finished.

    def serve_forever(self) -> None:
        """:meth:`serve`, with a confined child made ahead for the first job."""
        self.spare = self._spawn()
        self.serve()

    def run(self, payload: bytes) -> None:
        """Run one job (its pickle, as the parent sent it) to the end, restarting the
        child after a timeout or crash when told."""
        job: dict[str, Any] = pickle.loads(payload)
        count = len(job["time_limits"])
        load: Outcome | None = None
        start = 0
        batched = bool(job.get("batch"))
        while True:
            child_load, resume_at, batched = self._run_child(job, payload, start, batched)
            if load is None or child_load.status is not Status.OK:
                load = child_load
            if child_load.status is not Status.OK or resume_at is None or resume_at >= count:
                break
            start = resume_at
        _write_frame(self.fd_out, _DONE + _body(load.status, load.seconds, load.error))
        if self.deferred is not None:
            self._finish(*self.deferred)
            self.deferred = None
        # The next job's child, made and confined while the parent reads this job's end.
        self.spare = self._spawn()

    def _spawn(self) -> tuple[int, int, int, str]:
        """Fork a child that confines itself and waits for its job.

        Returns its pid, the read end of its result pipe, the write end of its job
        pipe and its working folder.
        """
        workdir = self.workdir or tempfile.mkdtemp(dir=self.root)
        self.workdir = None
        read_fd, write_fd = os.pipe()
        job_read, job_write = os.pipe()
        _widen(read_fd)
        _widen(job_write)
        pid = os.fork()
        if pid == 0:  # pragma: no cover - runs in the child
            try:
                os.close(read_fd)
                os.close(job_write)
                _child_main(job_read, write_fd, workdir, self.limits, self.as_root)
            finally:
                os._exit(70)
        os.close(write_fd)
        os.close(job_read)
        return pid, read_fd, job_write, workdir

    def _answer(self) -> bytes:
        """The parent's next control frame; a parent that is gone means stop."""
        try:
            return _read_frame(self.fd_in, None, 1 << 20)
        except _FrameError:
            return _STOP

    def _run_child(self, job: dict[str, Any], payload: bytes, start: int,
                   batched: bool = False) -> tuple[Outcome, int | None, bool]:
        """Give the job to a fresh child (the spare one, if any) to run from ``start`` on,
        sending its outcomes in batches when ``batched``.

        Returns the load outcome, where a fresh child should resume (None: the
        job is over) and whether that child batches. A timeout or crash ends the
        child: its outcome is relayed and the parent decides whether the job goes
        on; a batching child's is not (the cause may be any input it had not sent
        yet): a child that does not batch resumes at the first of them.
        """
        frame = _INDEX.pack(start) + (b"\x01" if batched else b"\x00") + payload
        pid, read_fd, job_fd, workdir = self.spare or self._spawn()
        self.spare = None
        stamps = _tmp_stamps(self.sweep)
        try:
            _write_frame(job_fd, frame)
        except OSError:
            # The waiting child died before its job came (nothing of the job ran):
            # a fresh one takes it; if that one is gone too, it shows as a crash.
            os.close(job_fd)
            self._finish(pid, read_fd, workdir, stamps)
            pid, read_fd, job_fd, workdir = self._spawn()
            stamps = _tmp_stamps(self.sweep)
            with contextlib.suppress(OSError):
                _write_frame(job_fd, frame)
        os.close(job_fd)
        try:
            load, broken = self._collect(read_fd, job, start, pid)
        except BaseException:
            self._finish(pid, read_fd, workdir, stamps)
            raise
        _kill(pid)
        if broken is None and load.status is not Status.CRASH:
            # Nothing needs its exit status: reap it once the parent has been answered.
            self.deferred = (pid, read_fd, workdir, stamps)
            return load, None, batched
        status = self._finish(pid, read_fd, workdir, stamps)
        if load.status is Status.CRASH and load.error is None:
            load = Outcome(Status.CRASH, None, _death(status), 0.0)
        if broken is None:
            return load, None, batched
        index, outcome = broken
        if batched:
            return load, index, False
        if outcome.status is Status.CRASH and outcome.error is None:
            outcome = Outcome(Status.CRASH, None, _death(status), outcome.seconds)
        _write_frame(self.fd_out, _BROKEN + _INDEX.pack(index)
                     + _body(outcome.status, outcome.seconds, outcome.error))
        return load, (index + 1 if self._answer() == _CONTINUE else None), False

    def _finish(self, pid: int, read_fd: int, workdir: str, stamps: dict[str, int]) -> int:
        """Kill and reap a child, clean up after it; return its wait status."""
        _kill(pid)
        status = _reap(pid)
        os.close(read_fd)
        self._release(workdir)
        if self.sweep:
            _remove_owned_by(UID_BASE + pid, stamps, self.sweep)
        return status

    def _release(self, workdir: str) -> None:
        """Keep a child's working folder for the next child when it is left as it was given.

        Removing a folder is slow on some file systems (milliseconds with online
        discard); an empty folder with no extended attributes, given back to the
        supervisor with mode 0700, is as good as a new one.
        """
        try:
            pristine = not os.listdir(workdir)
            with contextlib.suppress(OSError):
                pristine = pristine and not os.listxattr(workdir)
            if pristine:
                if self.as_root:
                    os.chown(workdir, os.geteuid(), os.getegid())
                os.chmod(workdir, 0o700)
                self.workdir = workdir
                return
        except OSError:
            pass
        remove_tree(workdir)

    def _collect(self, fd: int, job: dict[str, Any], start: int,
                 pid: int | None = None) -> tuple[Outcome, tuple[int, Outcome] | None]:
        """Relay the child's outcomes; return the load outcome and the input it broke on.

        Each input's frame is due ``time_limit + slack`` after the previous frame
        was handled (the load frame ``load_seconds`` after the fork). A child whose
        frame is late but that has used less CPU time than the limit since then was
        kept waiting by a busy machine, not by its own work: it gets the rest of its
        limit in CPU time, up to :func:`_wall_cap` (which a sleeping child reaches).
        Frames that arrive together are relayed together, unparsed. A ``stop`` from
        the parent ends the child at once.
        """
        limits = job["time_limits"]
        count = len(limits)
        cap = self.limits.output_bytes
        pending = bytearray()
        index = -1  # the frame awaited: -1 is the load frame
        load = Outcome(Status.OK)
        began = time.monotonic()
        deadline = began + self.limits.load_seconds
        cpu_mark: float | None = None  # the child's CPU time when ``index`` became due
        sampled = -float("inf")
        while index < count:
            # Past the deadline, still look (without waiting): a reply that came while
            # this supervisor itself was not running is a reply, not a timeout.
            remaining = max(0.0, deadline - time.monotonic())
            ready = select.select([fd, self.fd_in], [], [], remaining)[0]
            if self.fd_in in ready and self._answer() == _STOP:
                return load, None
            if fd not in ready:
                now = time.monotonic()
                if now < deadline:
                    continue
                if index >= 0 and cpu_mark is not None:
                    limit = float(limits[index])
                    cpu = _cpu_seconds(pid)
                    last = began + _wall_cap(limit)
                    if cpu is not None and cpu - cpu_mark < limit and now < last:
                        deadline = min(now + limit - (cpu - cpu_mark) + _SLACK_SECONDS, last)
                        continue
                cut = len(pending) >= _HEADER.size
                return self._broken(load, index, Status.TIMEOUT,
                                    "reply cut short" if cut else "no reply", began)
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                if len(pending) >= _HEADER.size:
                    return self._broken(load, index, Status.TIMEOUT, "reply cut short", began)
                return self._broken(load, index, Status.CRASH, None, began)
            pending += chunk
            position = 0
            run_start = run_first = -1
            oversized = False
            while index < count and len(pending) - position >= _HEADER.size:
                (size,) = _HEADER.unpack_from(pending, position)
                if size > cap:
                    oversized = True
                    break
                end = position + _HEADER.size + size
                if end > len(pending):
                    break
                if index < 0:
                    load = self._load(bytes(pending[position + _HEADER.size:end]))
                    if load.status is not Status.OK:
                        return load, None
                    index = start
                elif run_start < 0:
                    run_start, run_first = position, index
                    index += 1
                else:
                    index += 1
                position = end
            if run_start >= 0:
                _write_frame(self.fd_out, _RUN + _INDEX.pack(run_first)
                             + bytes(pending[run_start:position]))
            if oversized:
                return self._broken(load, index, Status.BAD_OUTPUT,
                                    f"output larger than {cap} bytes", began)
            if position:
                del pending[:position]
                began = time.monotonic()
                if began - sampled >= _CPU_SAMPLE_SECONDS:
                    # An older mark only overstates what the awaited input used.
                    cpu_mark, sampled = _cpu_seconds(pid), began
                if index < count:
                    deadline = began + float(limits[index]) + _SLACK_SECONDS
                    # Let the child's next replies gather: one wake-up (here and in the
                    # parent) per batch instead of one per input, which on a busy
                    # machine costs more than the inputs themselves.
                    time.sleep(_RELAY_PAUSE_SECONDS)
        return load, None

    @staticmethod
    def _load(body: bytes) -> Outcome:
        status, _, payload = _split_body(body, _CHILD_STATUSES)
        if status is Status.OK:
            return Outcome(Status.OK)
        return Outcome(status, None, _text(payload))

    @staticmethod
    def _broken(load: Outcome, index: int, status: Status, error: str | None,
                began: float) -> tuple[Outcome, tuple[int, Outcome] | None]:
        """The child failed while ``index`` was awaited (-1: while loading)."""
        if index < 0:
            return Outcome(status, None, error), None
        return load, (index, Outcome(status, None, error, time.monotonic() - began))


def _tmp_stamps(folders: Sequence[str]) -> dict[str, int]:
    """Modification times of shared temporary folders (an entry added changes it)."""
    stamps = {}
    for folder in folders:
        with contextlib.suppress(OSError):
            stamps[folder] = os.stat(folder).st_mtime_ns
    return stamps


def _remove_owned_by(uid: int, before: dict[str, int], folders: Sequence[str]) -> None:
    """Delete what a finished child left in the shared temporary folders.

    Only folders whose modification time moved since ``before`` are listed: a
    busy /tmp can hold many thousands of entries.
    """
    for folder, stamp in _tmp_stamps(folders).items():
        if before.get(folder) == stamp:
            continue
        with contextlib.suppress(OSError), os.scandir(folder) as entries:
            for entry in entries:
                with contextlib.suppress(OSError):
                    if entry.stat(follow_symlinks=False).st_uid != uid:
                        continue
                    if entry.is_dir(follow_symlinks=False):
                        remove_tree(entry.path)
                    else:
                        os.unlink(entry.path)


def _preload() -> None:
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    for name in _PRELOAD:
        with contextlib.suppress(ImportError):
            __import__(name)
    from evalplus_ng import linecount, serialize  # noqa: F401


def _isolate_as_root(libc: ctypes.CDLL) -> None:
    """Own network namespace with no interface up."""
    libc.unshare(_CLONE_NEWNET)


def _mount(libc: ctypes.CDLL, source: str | None, target: str, flags: int) -> bool:
    mount = libc.mount
    mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong,
                      ctypes.c_void_p]
    encoded = None if source is None else os.fsencode(source)
    return bool(mount(encoded, os.fsencode(target), None, flags, None) == 0)


def _protect_shared_tmp(libc: ctypes.CDLL, keep: str) -> tuple[str, ...]:
    """In a mount namespace of its own, make the world-writable folders read-only for
    this process and its children, except ``keep`` (the supervisor's own folder, where
    the children's working folders are); return the folders still writable.

    The checkout, the virtual environment and the samples may all live under /tmp,
    so it cannot be replaced, only bound read-only onto itself. Mounts are made
    private first: nothing here reaches the rest of the machine. Without the
    rights to do so (no root, no user namespace), every folder stays writable and
    what a child leaves there is removed after it (:func:`_remove_owned_by`).
    """
    folders = tuple(f for f in _SHARED_TMP if os.path.isdir(f) and not os.path.islink(f))
    if libc.unshare(_CLONE_NEWNS) != 0 or not _mount(libc, "none", "/", _MS_REC | _MS_PRIVATE):
        return _SHARED_TMP
    for folder in folders:
        if not _mount(libc, folder, folder, _MS_BIND | _MS_REC):
            return _SHARED_TMP
    # Its own mount on top: it stays writable when the folder around it is not.
    if not _mount(libc, keep, keep, _MS_BIND):
        return _SHARED_TMP
    return tuple(f for f in _SHARED_TMP if f not in folders or not _mount(
        libc, None, f, _MS_REMOUNT | _MS_BIND | _MS_RDONLY | _kept_flags(f)))


def _kept_flags(folder: str) -> int:
    """The mount's nosuid, nodev, noexec and atime flags (a remount would clear them;
    in a user namespace it may not, and then fails)."""
    return os.statvfs(folder).f_flag & (2 | 4 | 8 | 1024 | 2048 | 4096)


def _isolate_as_user(libc: ctypes.CDLL) -> None:
    """Best effort without root: a user namespace that owns an empty network namespace."""
    uid, gid = os.getuid(), os.getgid()
    if libc.unshare(_CLONE_NEWUSER | _CLONE_NEWNET) != 0:
        return
    with contextlib.suppress(OSError):
        for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"),
                           ("gid_map", f"{gid} {gid} 1")):
            with open(f"/proc/self/{name}", "w") as handle:
                handle.write(text)


def supervisor_main() -> None:
    """Entry point of a supervisor process: serve jobs on stdin/stdout until EOF."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    settings = json.loads(sys.argv[1])
    libc = _libc()
    # A parent that dies, however it dies, takes its supervisors (and so their children).
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != settings["parent"]:
        return  # the parent died before the death signal was armed
    if os.geteuid() == 0:
        _isolate_as_root(libc)
    else:
        _isolate_as_user(libc)
    writable = _protect_shared_tmp(libc, settings["root"])
    _preload()
    # Children inherit every object: frozen, the collector in a child never walks (and
    # so never copies) the supervisor's pages.
    gc.freeze()
    # Keep the reply pipe away from fd 1 so that stray prints cannot corrupt it.
    fd_out = os.dup(sys.stdout.fileno())
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    supervisor = _Supervisor(Limits(**settings["limits"]), sys.stdin.fileno(), fd_out,
                             settings["root"], writable)
    supervisor.serve_forever()


# --------------------------------------------------------------------------- parent side

T = TypeVar("T")


class _Memo:
    """Values computed once per distinct object (by identity) for the last ``size`` objects.

    Jobs of one task share their ``inputs`` and ``expected`` sequences, so their
    pickles and texts are made once per task, not once per sample.
    """

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self.lock = threading.Lock()
        # The key object is kept alive with its value, so its id cannot be reused.
        self.items: OrderedDict[int, tuple[object, Any]] = OrderedDict()

    def get(self, key: object, make: Callable[[], T]) -> T:
        with self.lock:
            found = self.items.get(id(key))
            if found is not None and found[0] is key:
                self.items.move_to_end(id(key))
                return cast(T, found[1])
        value = make()
        with self.lock:
            self.items[id(key)] = (key, value)
            self.items.move_to_end(id(key))
            while len(self.items) > self.size:
                self.items.popitem(last=False)
        return value


def _pickled_inputs(inputs: Sequence[Wire]) -> bytes:
    """The wire-encoded inputs as one pickle; the child decodes each input it runs."""
    return pickle.dumps(list(inputs), pickle.HIGHEST_PROTOCOL)


class _Judge:
    """The trusted comparison of outputs with a job's expected outputs (parent side only)."""

    def __init__(self, job: Job, texts: _Texts) -> None:
        from evalplus_ng.oracle import SPECIAL_ORACLES

        assert job.expected is not None
        self.job = job
        self.expected = job.expected
        self.texts = texts
        # Identical JSON text is identical typed values, which ``check`` passes, except
        # where NaN occurs (NaN != NaN inside sets and dict keys) or a task has its own
        # oracle: those always take the full check.
        self.by_text = job.task_id not in SPECIAL_ORACLES

    def identical(self, index: int, payload: bytes) -> bool:
        """The output's text is the expected output's text (so it passes)."""
        return self.by_text and payload == self.texts.get(index) and b"NaN" not in payload

    def check(self, index: int, value: Wire) -> bool:
        """The full typed comparison with :func:`evalplus_ng.oracle.check`."""
        from evalplus_ng.oracle import check
        from evalplus_ng.serialize import decode

        job = self.job
        try:
            return check(job.task_id, decode(job.inputs[index]), decode(self.expected[index]),
                         decode(value), job.atol)
        except Exception:
            return False


class _Texts:
    """JSON texts of expected outputs, each made when first compared (most jobs stop early)."""

    def __init__(self, expected: Sequence[Wire]) -> None:
        self.expected = expected
        self.texts: list[bytes | None] = [None] * len(expected)

    def get(self, index: int) -> bytes:
        text = self.texts[index]
        if text is None:
            text = self.texts[index] = _value_text(self.expected[index]).encode("ascii")
        return text


def _outcome(body: bytes, index: int, judge: _Judge | None,
             allowed: Mapping[int, Status]) -> tuple[Outcome, bool]:
    """Parse one outcome body (untrusted) and judge it: ``(outcome, passed)``."""
    status, seconds, payload = _split_body(body, allowed)
    if status is not Status.OK:
        return Outcome(status, None, _text(payload), seconds), False
    if judge is not None and judge.identical(index, payload):
        return Outcome(Status.OK, judge.expected[index], None, seconds), True
    try:
        value = _parse(payload.decode("ascii"))
    except (ValueError, RecursionError) as exc:
        return Outcome(Status.BAD_OUTPUT, None, f"malformed reply: {exc}", seconds), False
    return Outcome(Status.OK, value, None, seconds), judge is not None and judge.check(index, value)


def _parse_run(frame: bytes, position: int, first: int,
               judge: _Judge | None) -> tuple[list[Outcome], list[bool]]:
    """Outcomes of a run of child frames (untrusted) from ``position`` on, judged;
    ``first`` is the first one's input index.

    Plain outputs (status OK) are parsed in place from one Latin-1 text of the whole
    run (the child's encoder writes ASCII; other bytes can only spell strings that
    ``\\u`` escapes spell too); anything else, and outputs the judge compares by
    text, go through :func:`_outcome`. The supervisor relays whole frames only.
    """
    outcomes: list[Outcome] = []
    passed: list[bool] = []
    end = len(frame)
    header, prefix, ok_code = _HEADER.size, _PREFIX, _OK_CODE
    unpack_header, unpack_seconds, scan = _HEADER.unpack_from, _SECONDS.unpack_from, _scan
    in_place = judge is None or not judge.by_text
    text = frame.decode("latin-1") if in_place else ""
    index = first
    while position + header <= end:
        (size,) = unpack_header(frame, position)
        start = position + header
        position = start + size
        if in_place and size >= prefix and frame[start] == ok_code:
            try:
                value, stop = scan(text, start + prefix)
            except (StopIteration, ValueError, RecursionError):
                stop = -1
            if stop == position:
                seconds = unpack_seconds(frame, start + 1)[0]
                outcomes.append(Outcome(Status.OK, value, None, seconds))
                passed.append(judge is not None and judge.check(index, value))
                index += 1
                continue
        outcome, ok = _outcome(frame[start:position], index, judge, _CHILD_STATUSES)
        outcomes.append(outcome)
        passed.append(ok)
        index += 1
    return outcomes, passed


class _Worker:
    """The parent's handle on one supervisor process."""

    def __init__(self, limits: Limits, closed: threading.Event) -> None:
        self.limits = limits
        self.closed = closed
        self.process: subprocess.Popen[bytes] | None = None
        self.root: str | None = None

    def _start(self) -> subprocess.Popen[bytes]:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in [os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        env.get("PYTHONPATH", "")] if p
        )
        env.setdefault("OPENBLAS_NUM_THREADS", "1")
        # The parent owns the supervisor's folder: a supervisor killed with SIGKILL
        # cannot clean up after itself.
        self.root = tempfile.mkdtemp(prefix="evalplus-ng-sandbox-")
        os.chmod(self.root, 0o711)
        settings = json.dumps({"limits": asdict(self.limits), "parent": os.getpid(),
                               "root": self.root})
        process = subprocess.Popen(
            [sys.executable, "-c", "from evalplus_ng.sandbox import supervisor_main as m; m()",
             settings],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            start_new_session=True, env=env, cwd=tempfile.gettempdir(),
        )
        assert process.stdin is not None and process.stdout is not None
        _widen(process.stdin.fileno())
        _widen(process.stdout.fileno())
        return process

    def start(self) -> None:
        """Start the supervisor process unless it runs already."""
        if self.process is None and not self.closed.is_set():
            self.process = self._start()

    def run(self, payload: bytes, judge: _Judge | None, fail_fast: bool,
            patience: float, max_timeouts: int | None = None,
            max_failures: int | None = None) -> JobResult:
        """Run a job, retrying once on a fresh supervisor if the supervisor itself fails."""
        for _attempt in range(2):
            if self.closed.is_set():
                raise SandboxError("the sandbox was closed")
            if self.process is None:  # a supervisor that died shows as a broken pipe
                self.process = self._start()
            try:
                return self._converse(self.process, payload, judge, fail_fast, patience,
                                      max_timeouts, max_failures)
            except (_FrameError, OSError, struct.error, IndexError, ValueError):
                self.stop()  # the supervisor died or hung: start afresh
        raise SandboxError("sandbox supervisor failed twice on the same job")

    @staticmethod
    def _converse(process: subprocess.Popen[bytes], payload: bytes, judge: _Judge | None,
                  fail_fast: bool, patience: float, max_timeouts: int | None = None,
                  max_failures: int | None = None) -> JobResult:
        assert process.stdin is not None and process.stdout is not None
        fd_in, fd_out = process.stdin.fileno(), process.stdout.fileno()
        _write_frame(fd_in, payload)
        outcomes: list[Outcome] = []
        passed: list[bool] = []
        stopped = False
        timeouts = failures = 0
        if fail_fast:
            max_failures = 1
        while True:
            frame = _read_frame(fd_out, time.monotonic() + patience, 1 << 31)
            kind = frame[:1]
            if kind == _DONE:
                status, seconds, text = _split_body(frame[1:], _STATUSES)
                load = Outcome(status, None, None if status is Status.OK else _text(text), seconds)
                return JobResult(load, tuple(outcomes), tuple(passed) if judge is not None else ())
            if stopped:
                continue  # outcomes the supervisor sent before it saw our "stop"
            if kind not in (_RUN, _BROKEN):
                raise ValueError("unknown frame from the supervisor")
            if _INDEX.unpack_from(frame, 1)[0] != len(outcomes):
                raise ValueError("supervisor skipped an input")
            start = 1 + _INDEX.size
            if kind == _RUN:
                got, oks = _parse_run(frame, start, len(outcomes), judge)
                if judge is None and max_timeouts is None:
                    outcomes += got
                    passed += oks
                    continue
                for outcome, ok in zip(got, oks, strict=True):
                    outcomes.append(outcome)
                    passed.append(ok)
                    timeouts += too_costly(outcome)
                    failures += judge is not None and not ok
                    if ((max_failures is not None and failures >= max_failures)
                            or (max_timeouts is not None and timeouts >= max_timeouts)):
                        _write_frame(fd_in, _STOP)
                        stopped = True
                        break
                continue
            outcome, ok = _outcome(frame[start:], len(outcomes), judge, _STATUSES)
            outcomes.append(outcome)
            passed.append(ok)
            timeouts += too_costly(outcome)
            failures += judge is not None and not ok
            stopped = ((max_failures is not None and failures >= max_failures)
                       or (max_timeouts is not None and timeouts >= max_timeouts))
            _write_frame(fd_in, _STOP if stopped else _CONTINUE)

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        process.kill()
        process.wait()
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        if self.root is not None:
            remove_tree(self.root)
            self.root = None


class Sandbox:
    """A pool of ``workers`` supervisors; thread-safe. Use as a context manager."""

    def __init__(self, workers: int = 1, limits: Limits | None = None) -> None:
        self.limits = limits or Limits()
        self.workers = max(1, workers)
        self._closed = threading.Event()
        self._idle: queue.SimpleQueue[_Worker] = queue.SimpleQueue()
        self._all = [_Worker(self.limits, self._closed) for _ in range(self.workers)]
        for worker in self._all:
            self._idle.put(worker)
        # Long-lived threads: a supervisor dies with the thread that started it
        # (PR_SET_PDEATHSIG is per thread), so it must not be a short-lived one.
        self._pool = ThreadPoolExecutor(max_workers=self.workers,
                                        thread_name_prefix="evalplus-ng-sandbox")
        self._inputs = _Memo()
        self._texts = _Memo()

    def __enter__(self) -> Sandbox:
        return self

    def start(self) -> None:
        """Start every supervisor now, in the background (otherwise each starts on first use).

        A supervisor takes a while to boot (a Python process that imports what samples
        commonly need); started early, it boots while the caller still prepares jobs.
        """
        for _ in self._all:
            self._pool.submit(self._start_one)

    def _start_one(self) -> None:
        # On a pool thread: the supervisor dies with the thread that started it.
        worker = self._idle.get()
        try:
            worker.start()
        finally:
            self._idle.put(worker)

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop every supervisor (and so every child); later runs raise SandboxError."""
        self._closed.set()
        self._pool.shutdown(wait=False, cancel_futures=True)
        for worker in self._all:
            worker.stop()
        self._pool.shutdown(wait=True)
        # A supervisor that start() was still booting has started by now: stop it and
        # remove its folder too.
        for worker in self._all:
            worker.stop()

    def run(self, job: Job) -> JobResult:
        """Run one job on an idle supervisor; never raises for anything the code does."""
        message = {
            "code": job.code,
            "entry_point": job.entry_point,
            "inputs": self._inputs.get(job.inputs, lambda: _pickled_inputs(job.inputs)),
            "time_limits": [float(t) for t in job.time_limits],
            "max_lines": job.max_lines,
            "lines_after": job.lines_after,
            "twice": job.twice,
            "batch": job.batch,
        }
        payload = _JOB + pickle.dumps(message, pickle.HIGHEST_PROTOCOL)
        judge = None
        if job.expected is not None:
            expected = job.expected
            judge = _Judge(job, self._texts.get(expected, lambda: _Texts(expected)))
        patience = self.limits.load_seconds + _wall_cap(max(job.time_limits, default=0.0)) + 30.0
        worker = self._idle.get()
        try:
            return worker.run(payload, judge, job.fail_fast, patience,
                              job.max_timeouts, job.max_failures)
        finally:
            self._idle.put(worker)

    def map(self, jobs: Iterable[Job],
            on_result: Callable[[int, JobResult], None] | None = None) -> Iterator[JobResult]:
        """Run jobs on all workers; yield results in job order.

        Jobs are submitted a bounded window ahead of the consumer, so a long
        iterable of jobs is never materialized at once. The window is wide
        (:data:`MAP_WINDOW` jobs per worker): results come back in order, so a job
        that runs to its time limit holds up the consumer while the other workers
        keep going on the jobs after it.
        """
        window: deque[Future[JobResult]] = deque()
        iterator = iter(jobs)
        index = 0
        try:
            while True:
                while len(window) < MAP_WINDOW * self.workers:
                    job = next(iterator, None)
                    if job is None:
                        break
                    window.append(self._pool.submit(self.run, job))
                if not window:
                    return
                result = window.popleft().result()
                if on_result is not None:
                    on_result(index, result)
                index += 1
                yield result
        finally:
            for future in window:
                future.cancel()
