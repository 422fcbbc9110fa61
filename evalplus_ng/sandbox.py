"""The one place where untrusted code runs: processes, rlimits, privileges, time limits.

Layout. The trusted parent keeps a pool of long-lived *supervisor* processes
(one per worker, started once and recycled across jobs). A supervisor has
imported everything a sample commonly needs, then, for each job (one piece of
code and its inputs), forks a *child* that loads the code and calls it on each
input. The child:

* gets a fresh temporary working folder and loses stdin, stdout and stderr;
* has a memory cap (``RLIMIT_AS``), a file-size cap and may not create a single
  process or thread (``RLIMIT_NPROC``);
* when the supervisor runs as root, switches to a uid of its own
  (``UID_BASE + pid``) that keeps only ``CAP_DAC_READ_SEARCH`` (so it can still
  import modules it can read but cannot write, delete or signal anything it
  does not own), and runs in a network namespace with no interface up;
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

Frames on every pipe are a 4-byte big-endian length followed by JSON.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import queue
import resource
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

from evalplus_ng.errors import SandboxError
from evalplus_ng.records import Outcome, Status
from evalplus_ng.types import Wire

UID_BASE = 0x40000000
_HEADER = struct.Struct(">I")
_CAP_DAC_READ_SEARCH = 2
_PR_SET_PDEATHSIG = 1
_PR_SET_KEEPCAPS = 8
_PR_SET_NO_NEW_PRIVS = 38
_CLONE_NEWUSER = 0x10000000
_CLONE_NEWNET = 0x40000000
#: World-writable folders: whatever a child leaves there is removed after it.
_SHARED_TMP = ("/tmp", "/var/tmp", "/dev/shm")
#: Time allowed beyond a test's limit for decoding, encoding and the pipe.
_SLACK_SECONDS = 0.05

# Imported by the supervisor before it forks, so that children start warm.
_PRELOAD = (
    "abc array ast bisect calendar cmath collections collections.abc copy dataclasses "
    "datetime decimal enum fractions functools hashlib heapq itertools json math "
    "numbers operator random re statistics string sys textwrap typing unicodedata numpy"
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
    #: the same on every machine. For trusted code (the ground truth) only.
    max_lines: int | None = None
    #: When set, the job stops once this many inputs have timed out: each timeout
    #: costs a whole time limit, so a looping candidate would otherwise cost one per input.
    max_timeouts: int | None = None
    #: When set, the job stops once this many inputs have failed (``fail_fast`` is 1).
    max_failures: int | None = None


#: The error type reported when a call exceeds ``Job.max_lines``.
COST_EXCEEDED = "CostExceeded"


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


def _write_frame(fd: int, payload: Any) -> None:
    data = json.dumps(payload, separators=(",", ":")).encode()
    view = memoryview(_HEADER.pack(len(data)) + data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _read_exact(fd: int, size: int, deadline: float | None) -> bytes | None:
    """Read ``size`` bytes; None on EOF or when ``deadline`` (monotonic) passes."""
    chunks: list[bytes] = []
    while size:
        if deadline is not None:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            ready, _, _ = select.select([fd], [], [], remaining)
            if not ready:
                return None
        chunk = os.read(fd, min(size, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


class _FrameError(Exception):
    """A frame was late, truncated, oversized or not JSON."""

    def __init__(self, status: Status, detail: str) -> None:
        super().__init__(detail)
        self.status = status


def _read_frame(fd: int, deadline: float | None, max_bytes: int) -> Any:
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
    try:
        return json.loads(body)
    except (ValueError, RecursionError) as exc:
        raise _FrameError(Status.BAD_OUTPUT, f"malformed reply: {exc}") from None


def _outcome_to_wire(outcome: Outcome) -> Wire:
    return [outcome.status.value, outcome.value, outcome.error, outcome.seconds]


def _outcome_from_wire(wire: Wire) -> Outcome:
    """Parse an outcome frame; anything malformed is the sender's bad output."""
    try:
        status, value, error, seconds = wire
        return Outcome(Status(status), value, None if error is None else str(error),
                       float(seconds))
    except (TypeError, ValueError) as exc:
        raise _FrameError(Status.BAD_OUTPUT, f"malformed reply: {exc}") from None


# --------------------------------------------------------------------------- child side


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


def _confine(workdir: str, limits: Limits, as_root: bool, result_fd: int) -> None:
    """Everything the child does to itself before it touches untrusted code."""
    os.setsid()
    libc = _libc()
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    os.closerange(3, result_fd)
    os.closerange(result_fd + 1, 65536)
    if as_root:
        uid = UID_BASE + os.getpid()
        os.chown(workdir, uid, uid)
        _drop_privileges(libc, uid)
    os.chdir(workdir)
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
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))


def _describe(exc: BaseException) -> str:
    try:
        text = str(exc)
    except BaseException:
        text = "?"
    return f"{type(exc).__name__}: {text[:200]}"


def _child_main(message: dict[str, Any], start: int, fd: int, workdir: str, limits: Limits,
                as_root: bool) -> None:
    """Load the code, then run each input from ``start`` on, one frame per result."""
    _confine(workdir, limits, as_root, fd)
    from evalplus_ng.serialize import decode, encode

    namespace: dict[str, Any] = {"__name__": "__sample__", "__builtins__": __builtins__}
    try:
        exec(compile(message["code"], "<sample>", "exec"), namespace)
        function = namespace[message["entry_point"]]
        if not callable(function):
            raise TypeError(f"{message['entry_point']} is not callable")
    except BaseException as exc:
        _write_frame(fd, [Status.ERROR.value, None, _describe(exc), 0.0])
        os._exit(0)
    _write_frame(fd, [Status.OK.value, None, None, 0.0])
    if message.get("max_lines"):
        function = _line_budget(function, int(message["max_lines"]))
    inputs = message["inputs"]
    for index in range(start, len(inputs)):
        args = decode(inputs[index])
        began = time.perf_counter()
        try:
            value = function(*args)
        except BaseException as exc:
            elapsed = time.perf_counter() - began
            frame = [Status.ERROR.value, None, _describe(exc), elapsed]
        else:
            elapsed = time.perf_counter() - began
            try:
                frame = [Status.OK.value, encode(value), None, elapsed]
            except BaseException as exc:
                frame = [Status.BAD_OUTPUT.value, None, _describe(exc), elapsed]
        _write_frame(fd, frame)
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


class _Supervisor:
    """Runs jobs by forking confined children; lives in its own process.

    It never sees expected outputs: it relays each outcome to the parent, which
    judges it and may answer ``stop``. After a timeout or crash it waits for the
    parent's ``continue`` or ``stop`` before starting a fresh child.
    """

    def __init__(self, limits: Limits, fd_in: int, fd_out: int, root: str) -> None:
        self.limits = limits
        self.fd_in = fd_in
        self.fd_out = fd_out
        self.as_root = os.geteuid() == 0
        self.root = root  # made, and removed, by the parent

    def serve(self) -> None:
        """Serve jobs until the parent closes the pipe."""
        while True:
            try:
                message = _read_frame(self.fd_in, None, 1 << 31)
            except _FrameError:
                return
            if isinstance(message, dict) and "job" in message:
                self.run(message["job"])
            # Anything else is a stale "stop" for a job that had already finished.

    def run(self, job: dict[str, Any]) -> None:
        """Run one job to the end, then send ``done`` with the load outcome."""
        count = len(job["inputs"])
        load: Outcome | None = None
        start = 0
        while True:
            child_load, resume_at = self._run_child(job, start)
            if load is None or child_load.status is not Status.OK:
                load = child_load
            if child_load.status is not Status.OK or resume_at is None or resume_at >= count:
                break
            start = resume_at
        _write_frame(self.fd_out, {"done": _outcome_to_wire(load)})

    def _relay(self, index: int, outcome: Outcome, end: bool = False) -> None:
        """Send one outcome; ``end`` says the child is gone and an answer is awaited."""
        _write_frame(self.fd_out, {"i": index, "o": _outcome_to_wire(outcome), "end": end})

    def _stop_requested(self) -> bool:
        ready, _, _ = select.select([self.fd_in], [], [], 0)
        return bool(ready) and _read_frame(self.fd_in, None, 1 << 20) == "stop"

    def _run_child(self, job: dict[str, Any], start: int) -> tuple[Outcome, int | None]:
        """Fork one child that runs inputs from ``start`` on.

        Returns the load outcome and where a fresh child should resume (None: the
        job is over). A timeout or crash ends the child: its outcome is relayed
        and the parent decides whether the job goes on.
        """
        workdir = tempfile.mkdtemp(dir=self.root)
        stamps = _tmp_stamps() if self.as_root else {}
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - runs in the child
            try:
                os.close(read_fd)
                _child_main(job, start, write_fd, workdir, self.limits, self.as_root)
            finally:
                os._exit(70)
        os.close(write_fd)
        try:
            load, broken = self._collect(read_fd, job, start)
        finally:
            _kill(pid)
            status = _reap(pid)
            os.close(read_fd)
            shutil.rmtree(workdir, ignore_errors=True)
            if self.as_root:
                _remove_owned_by(UID_BASE + pid, stamps)
        if load.status is Status.CRASH and load.error is None:
            load = Outcome(Status.CRASH, None, _death(status), 0.0)
        if broken is None:
            return load, None
        index, outcome = broken
        if outcome.status is Status.CRASH and outcome.error is None:
            outcome = Outcome(Status.CRASH, None, _death(status), outcome.seconds)
        self._relay(index, outcome, end=True)
        answer = _read_frame(self.fd_in, None, 1 << 20)
        return load, (index + 1 if answer == "continue" else None)

    def _collect(self, fd: int, job: dict[str, Any],
                 start: int) -> tuple[Outcome, tuple[int, Outcome] | None]:
        """Relay the child's outcomes; return the load outcome and the input it broke on."""
        limits = job["time_limits"]
        cap = self.limits.output_bytes
        try:
            load = _outcome_from_wire(
                _read_frame(fd, time.monotonic() + self.limits.load_seconds, cap)
            )
        except _FrameError as exc:
            return Outcome(exc.status, None, None if exc.status is Status.CRASH else str(exc)), None
        if load.status is not Status.OK:
            return load, None
        for index in range(start, len(job["inputs"])):
            began = time.monotonic()
            try:
                frame = _read_frame(fd, began + float(limits[index]) + _SLACK_SECONDS, cap)
                outcome = _outcome_from_wire(frame)
            except _FrameError as exc:
                elapsed = time.monotonic() - began
                error = None if exc.status is Status.CRASH else str(exc)
                return load, (index, Outcome(exc.status, None, error, elapsed))
            self._relay(index, outcome)
            if self._stop_requested():
                return load, None
        return load, None


def _tmp_stamps() -> dict[str, int]:
    """Modification times of the shared temporary folders (an entry added changes it)."""
    stamps = {}
    for folder in _SHARED_TMP:
        with contextlib.suppress(OSError):
            stamps[folder] = os.stat(folder).st_mtime_ns
    return stamps


def _remove_owned_by(uid: int, before: dict[str, int]) -> None:
    """Delete what a finished child left in the shared temporary folders.

    Only folders whose modification time moved since ``before`` are listed: a
    busy /tmp can hold many thousands of entries.
    """
    for folder, stamp in _tmp_stamps().items():
        if before.get(folder) == stamp:
            continue
        with contextlib.suppress(OSError), os.scandir(folder) as entries:
            for entry in entries:
                with contextlib.suppress(OSError):
                    if entry.stat(follow_symlinks=False).st_uid != uid:
                        continue
                    if entry.is_dir(follow_symlinks=False):
                        shutil.rmtree(entry.path, ignore_errors=True)
                    else:
                        os.unlink(entry.path)


def _preload() -> None:
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    for name in _PRELOAD:
        with contextlib.suppress(ImportError):
            __import__(name)
    from evalplus_ng import serialize  # noqa: F401


def _isolate_as_root(libc: ctypes.CDLL) -> None:
    """Own network namespace with no interface up.

    The mount table stays shared: the checkout, the virtual environment and
    the samples may all live under /tmp, so it cannot be replaced. Files a
    child leaves in the world-writable folders are removed after it instead.
    """
    libc.unshare(_CLONE_NEWNET)


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
    _preload()
    # Keep the reply pipe away from fd 1 so that stray prints cannot corrupt it.
    fd_out = os.dup(sys.stdout.fileno())
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    supervisor = _Supervisor(Limits(**settings["limits"]), sys.stdin.fileno(), fd_out,
                             settings["root"])
    supervisor.serve()


# --------------------------------------------------------------------------- parent side

Judge = Callable[[int, Outcome], bool]


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
        return subprocess.Popen(
            [sys.executable, "-c", "from evalplus_ng.sandbox import supervisor_main as m; m()",
             settings],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            start_new_session=True, env=env, cwd=tempfile.gettempdir(),
        )

    def run(self, job: dict[str, Any], judge: Judge | None, fail_fast: bool,
            patience: float, max_timeouts: int | None = None,
            max_failures: int | None = None) -> JobResult:
        """Run a job, retrying once on a fresh supervisor if the supervisor itself fails."""
        for _attempt in range(2):
            if self.closed.is_set():
                raise SandboxError("the sandbox was closed")
            if self.process is None or self.process.poll() is not None:
                self.process = self._start()
            try:
                return self._converse(self.process, job, judge, fail_fast, patience,
                                      max_timeouts, max_failures)
            except (_FrameError, OSError, KeyError, TypeError, ValueError):
                self.stop()  # the supervisor died or hung: start afresh
        raise SandboxError("sandbox supervisor failed twice on the same job")

    @staticmethod
    def _converse(process: subprocess.Popen[bytes], job: dict[str, Any], judge: Judge | None,
                  fail_fast: bool, patience: float,
                  max_timeouts: int | None = None,
                  max_failures: int | None = None) -> JobResult:
        assert process.stdin is not None and process.stdout is not None
        fd_in, fd_out = process.stdin.fileno(), process.stdout.fileno()
        _write_frame(fd_in, {"job": job})
        outcomes: list[Outcome] = []
        passed: list[bool] = []
        stopped = False
        timeouts = failures = 0
        if fail_fast:
            max_failures = 1
        while True:
            frame = _read_frame(fd_out, time.monotonic() + patience, 1 << 31)
            if "done" in frame:
                return JobResult(_outcome_from_wire(frame["done"]), tuple(outcomes),
                                 tuple(passed) if judge is not None else ())
            outcome = _outcome_from_wire(frame["o"])
            if stopped:
                continue  # outcomes the supervisor sent before it saw our "stop"
            if frame["i"] != len(outcomes):
                raise ValueError("supervisor skipped an input")
            ok = judge is not None and outcome.status is Status.OK and judge(len(outcomes), outcome)
            outcomes.append(outcome)
            passed.append(ok)
            timeouts += outcome.status is Status.TIMEOUT
            failures += judge is not None and not ok
            if ((max_failures is not None and failures >= max_failures)
                    or (max_timeouts is not None and timeouts >= max_timeouts)):
                _write_frame(fd_in, "stop")
                stopped = True
            elif frame["end"]:
                _write_frame(fd_in, "continue")

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
            shutil.rmtree(self.root, ignore_errors=True)
            self.root = None


def _judge_with(job: Job) -> Judge | None:
    """The trusted comparison of one outcome with the job's expected output."""
    if job.expected is None:
        return None
    expected = job.expected

    def judge(index: int, outcome: Outcome) -> bool:
        from evalplus_ng.oracle import check
        from evalplus_ng.serialize import decode

        try:
            return check(job.task_id, decode(job.inputs[index]), decode(expected[index]),
                         decode(outcome.value), job.atol)
        except Exception:
            return False

    return judge


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

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop every supervisor (and so every child); later runs raise SandboxError."""
        self._closed.set()
        self._pool.shutdown(wait=False, cancel_futures=True)
        for worker in self._all:
            worker.stop()
        self._pool.shutdown(wait=True)

    def run(self, job: Job) -> JobResult:
        """Run one job on an idle supervisor; never raises for anything the code does."""
        payload: dict[str, Any] = {
            "code": job.code,
            "entry_point": job.entry_point,
            "inputs": list(job.inputs),
            "time_limits": [float(t) for t in job.time_limits],
            "max_lines": job.max_lines,
        }
        patience = self.limits.load_seconds + max(job.time_limits, default=0.0) + 30.0
        worker = self._idle.get()
        try:
            return worker.run(payload, _judge_with(job), job.fail_fast, patience,
                              job.max_timeouts, job.max_failures)
        finally:
            self._idle.put(worker)

    def map(self, jobs: Iterable[Job],
            on_result: Callable[[int, JobResult], None] | None = None) -> Iterator[JobResult]:
        """Run jobs on all workers; yield results in job order.

        Jobs are submitted a bounded window ahead of the consumer, so a long
        iterable of jobs is never materialized at once.
        """
        window: deque[Future[JobResult]] = deque()
        iterator = iter(jobs)
        index = 0
        try:
            while True:
                while len(window) < 4 * self.workers:
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
