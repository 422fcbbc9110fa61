"""What a child does with a program job (:attr:`evalplus_ng.records.Job.program`): run the
program as ``__main__`` on one input, given on stdin, and send what it wrote on stdout.

The child (:mod:`.child`) has confined itself already; its supervisor forks a fresh one
for each input, so nothing one run leaves (modules, globals, a raised recursion limit)
reaches the next, as when a judge starts ``python main.py`` once per test. Here the child:

* compiles the program and sends its load outcome (a syntax error fails every input
  unrun, as a function that does not load does);
* gives the input as stdin in a regular file, not a pipe (some programs size stdin with
  ``os.fstat(0).st_size``), and a regular file as stdout: both made in its working
  folder and unlinked at once, so nothing is left behind and no other process can reach
  them;
* caps what stdout may hold with ``RLIMIT_FSIZE`` (one byte over the job's
  ``max_output_bytes``, :data:`~evalplus_ng.records.PROGRAM_OUTPUT_BYTES` by default)
  with ``SIGXFSZ`` ignored: a write past it fails, and an output over the cap is an
  :attr:`~evalplus_ng.records.Fault.TOO_LARGE` error, read by no one (a flood costs a
  file of that size, never memory);
* sends what stdout holds as it is, bytes for bytes (the parent reads it as UTF-8 text:
  :mod:`.replies`; stdout that is not UTF-8 is a wrong answer);
* ends the program as CPython ends ``python main.py``: ``atexit`` handlers run, then
  ``sys.stdout`` (whatever the program made it) and the original stdout are flushed;
  ``os._exit`` ends it on the spot with nothing flushed (it raises here, so the output
  written so far is still sent). Exit code 0 (``exit()``, ``sys.exit(0)``) is a normal end;
  an exception, another code or a failed flush is an error, as a judge's runtime error.

The seconds sent with an outcome are the CPU time (user and system) the program used, not
wall-clock time: the supervisor enforces a limit in CPU time where the machine is busy
(a late reply within its CPU time gets more wall time, up to a cap), and CPU time moves
far less with load (the same slow CodeContests inputs, run 6 times beside two busy
loops: wall time up to 3.4 times its fastest, CPU time up to 1.5), so the limits
calibrated from it (:mod:`evalplus_ng.oracle.programs.timelimits`) change less from run to run.

Threads cannot be made in the sandbox (``RLIMIT_NPROC``). A program starting one (the
contest idiom: ``threading.stack_size(10**8)`` then a thread running ``main`` for a
deeper stack) has the thread's target run at once, in the main thread, to its end, with
the main stack's soft limit raised by the size it asked for; an exception there ends
that "thread" only, as it would a real one. Programs whose threads wait for each other
do not finish (a timeout).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import pickle
import posix
import resource
import signal
import sys
import threading
import time
import types
from typing import Any, NoReturn

from evalplus_ng.records import PROGRAM_OUTPUT_BYTES, Fault, Status
from evalplus_ng.sandbox.protocol import (
    CODES,
    HEADER,
    SECONDS,
    Limits,
    describe_error,
)

#: Taken at import, before a child confines itself: as an ordinary user the child's
#: Python-level guards replace ``os.unlink`` (the jail, not the guard, keeps it inside
#: its folder).
_UNLINK = os.unlink

#: Taken at import, before any program runs (it may rebind ``os._exit``).
_EXIT = os._exit


class Exited(BaseException):
    """``os._exit(code)`` called by the program: the process ends at once, nothing flushed."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


def _exit(code: int) -> NoReturn:
    raise Exited(int(code))


def _exit_code(exc: SystemExit) -> int:
    """The process's exit status for ``sys.exit(code)``, as CPython sets it."""
    code = exc.code
    if code is None:
        return 0
    return code if isinstance(code, int) else 1


def _inline_threads() -> None:
    """A started thread runs its target at once, in the calling thread (see the module's
    docstring); ``join`` returns, ``is_alive`` is false once it has run."""

    def start(self: threading.Thread) -> None:
        if self._started.is_set():  # type: ignore[attr-defined]
            raise RuntimeError("threads can only be started once")
        wanted = threading.stack_size()
        soft, hard = resource.getrlimit(resource.RLIMIT_STACK)
        if wanted and soft != resource.RLIM_INFINITY:
            grown = soft + wanted if hard == resource.RLIM_INFINITY else min(soft + wanted, hard)
            with contextlib.suppress(ValueError, OSError):
                resource.setrlimit(resource.RLIMIT_STACK, (grown, hard))
        self._started.set()  # type: ignore[attr-defined]
        try:
            self.run()
        except Exited:  # os._exit ends the process, from any thread
            raise
        except BaseException:  # sys.exit or an exception ends that thread only
            pass
        finally:
            self._is_stopped = True  # type: ignore[attr-defined]
            self._tstate_lock = None  # type: ignore[attr-defined]

    def join(self: threading.Thread, timeout: float | None = None) -> None:
        if not self._started.is_set():  # type: ignore[attr-defined]
            raise RuntimeError("cannot join thread before it is started")

    def is_alive(self: threading.Thread) -> bool:
        return False

    threading.Thread.start = start  # type: ignore[method-assign]
    threading.Thread.join = join  # type: ignore[method-assign]
    threading.Thread.is_alive = is_alive  # type: ignore[method-assign]


def _regular_file(name: str, data: bytes = b"") -> int:
    """A new file in the working folder holding ``data``, unlinked at once; its descriptor,
    at offset 0."""
    fd = os.open(name, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    _UNLINK(name)
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


def prepare_program_process() -> None:
    """Make this process ready for :func:`run_as_main`, as the module's docstring says:
    no ``atexit`` handler left from before, ``os._exit`` (and ``posix._exit``) raising
    :class:`Exited` instead of ending the process (so what the program did so far still
    counts), and a started thread running its target at once in the calling thread.
    For a child process that runs one program and ends: nothing of this is undone."""
    atexit._clear()
    os._exit = posix._exit = _exit  # type: ignore[assignment]
    _inline_threads()


def run_as_main(code: types.CodeType) -> tuple[BaseException | None, bool]:
    """Run ``code`` as ``__main__``, then end as the interpreter ends (``atexit``
    handlers, then ``sys.stdout`` flushed); (what ended it abnormally or None, whether it
    ended by ``os._exit``). Call :func:`prepare_program_process` first."""
    module = types.ModuleType("__main__")
    module.__file__ = "main.py"
    sys.modules["__main__"] = module
    failure: BaseException | None = None
    try:
        exec(code, module.__dict__)
    except Exited as exc:
        return (None if exc.code == 0 else exc), True
    except SystemExit as exc:
        failure = None if _exit_code(exc) == 0 else exc
    except BaseException as exc:
        failure = exc
    try:  # the interpreter's own end: atexit handlers, then the current stdout
        atexit._run_exitfuncs()
        stream = sys.stdout
        if stream is not None and not stream.closed:
            stream.flush()
    except Exited as exc:
        return (failure or (None if exc.code == 0 else exc)), True
    except BaseException as exc:
        failure = failure or exc
    return failure, False


def run_program(message: dict[str, Any], start: int, fd: int, limits: Limits) -> NoReturn:
    """Run the job's program on its input ``start``, send the load outcome and that
    input's outcome on ``fd``, and end the process."""
    # Own references, taken before the program runs: one that patches builtins or these
    # modules garbles at most its own reply, never the framing.
    length, write, view_of, clock, is_a = len, os.write, memoryview, time.process_time, isinstance
    fstat, pread, header, stamp = os.fstat, os.pread, HEADER.pack, SECONDS.pack
    describe = describe_error
    ok, raised, deep, large, bad = (CODES[Status.OK, None], CODES[Status.ERROR, Fault.RAISED],
                                    CODES[Status.ERROR, Fault.RECURSION],
                                    CODES[Status.ERROR, Fault.TOO_LARGE],
                                    CODES[Status.BAD_OUTPUT, None])

    def send(body: bytes) -> None:
        view = view_of(header(length(body)) + body)
        while view:
            view = view[write(fd, view):]

    def failed(exc: BaseException, seconds: float) -> bytes:
        code = getattr(exc, "code", None)
        text = (f"exit code {code}" if is_a(exc, Exited)
                else f"SystemExit: {code!r}" if is_a(exc, SystemExit) else describe(exc))
        return ((deep if is_a(exc, RecursionError) else raised) + stamp(seconds)
                + text.encode("utf-8", "backslashreplace"))

    try:
        code = compile(message["code"], "main.py", "exec")
    except BaseException as exc:
        send(failed(exc, 0.0))
        _EXIT(0)
    send(ok + stamp(0.0))
    cap = min(int(message.get("max_output") or PROGRAM_OUTPUT_BYTES), limits.file_bytes - 1)
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the cap fails instead
    try:
        given: str = pickle.loads(message["inputs"])[start]
        stdin = _regular_file("stdin", given.encode("utf-8", "surrogateescape"))
        stdout = _regular_file("stdout")
    except OSError as exc:  # an input over the file-size cap
        send(bad + stamp(0.0) + f"input not given: {describe_error(exc)}".encode())
        _EXIT(0)
    os.dup2(stdin, 0)
    os.dup2(stdout, 1)
    os.close(stdin)
    resource.setrlimit(resource.RLIMIT_FSIZE, (cap + 1, cap + 1))
    # As CPython makes them for ``python main.py < file > file``: buffered, UTF-8, no
    # newline translation (``open`` gives them the ``mode`` fast-IO templates read).
    sys.stdin = open(0, encoding="utf-8", newline="\n", closefd=False)  # noqa: SIM115
    original = sys.stdout = open(1, "w", encoding="utf-8", newline="\n",  # noqa: SIM115
                                 closefd=False)
    sys.__stdin__, sys.__stdout__ = sys.stdin, sys.stdout  # type: ignore[misc]
    sys.argv = ["main.py"]
    prepare_program_process()
    began = clock()
    failure, abrupt = run_as_main(code)
    if not abrupt:
        try:
            original.flush()  # the interpreter closes it at its end, whatever replaced it
        except Exited:
            pass
        except BaseException as exc:
            failure = failure or exc
    seconds = clock() - began
    try:
        size = fstat(stdout).st_size
    except BaseException as exc:  # the program closed the file behind stdout
        send(bad + stamp(seconds) + f"stdout lost: {describe(exc)}".encode())
        _EXIT(0)
    if size > cap:
        send(large + stamp(seconds) + f"output limit: more than {cap} bytes on stdout"
             .encode("ascii"))
    elif failure is not None:
        send(failed(failure, seconds))
    else:
        chunks: list[bytes] = []
        offset = 0
        while offset < size:
            chunk = pread(stdout, size - offset, offset)
            if not chunk:
                break
            chunks.append(chunk)
            offset += length(chunk)
        send(ok + stamp(seconds) + b"".join(chunks))  # its own bytes: the parent reads them
    _EXIT(0)
