"""Trusted code on untrusted text, in a worker process that a pathological input cannot stall.

:func:`bounded_map` calls one function (named ``module:function``, importable in a fresh
interpreter, returning a ``str``) on a batch of argument tuples, in order, in one worker
process: the common case costs one process start per batch, not one per call. Each call
gets ``cpu_seconds`` of CPU time (a profiling timer, ``ITIMER_PROF``, abandons it; the
worker goes on with the next) under an address-space cap for the whole worker
(``RLIMIT_AS``). A call stuck where the timer's handler cannot run (in C code) meets
``RLIMIT_CPU`` a second later, and the parent gives up on a call after a generous
wall-clock allowance; a call out of memory, or either of those, costs the worker, and a
fresh one takes the rest of the batch. Whatever happens, the call becomes an
:class:`Exceeded`.

The worker runs no untrusted code, so it is not jailed; only its cost is bounded. The
parent sends it a pickle (trusted data flows that way only) and reads back text frames
(:mod:`.protocol`), never a pickle.
"""

from __future__ import annotations

import importlib
import math
import pickle
import resource
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from evalplus_ng.errors import SandboxError
from evalplus_ng.records import Status
from evalplus_ng.sandbox.environ import sandbox_environment
from evalplus_ng.sandbox.protocol import FrameError, read_frame, write_frame

#: Reply kinds, worker -> parent: a result (UTF-8 text follows), out of time or memory.
_RESULT, _TIME, _MEMORY = b"r", b"t", b"m"


@dataclass(frozen=True)
class CallLimits:
    """What one call in a bounded worker may use."""

    cpu_seconds: float = 1.0
    memory_bytes: int = 1 << 30

    @property
    def wall_seconds(self) -> float:
        """The parent's own allowance per call: CPU time is the real limit (a busy machine
        slows a call down without making it use more), this only catches a stuck worker."""
        return 100 * self.cpu_seconds + 30


@dataclass(frozen=True)
class Exceeded:
    """A call cut short: ``limit`` is ``"time"`` (CPU or wall), ``"memory"``, or
    ``"crash"`` (the worker died of another signal, e.g. the parser overflowed its stack)."""

    limit: str


def bounded_map(function: str, items: Sequence[tuple[Any, ...]],
                limits: CallLimits = CallLimits()) -> list[str | Exceeded]:
    """``function(*item)`` for each item, in order, each call under ``limits``."""
    results: list[str | Exceeded] = []
    while len(results) < len(items):
        results += _one_worker(function, items[len(results):], limits)
    return results


def _one_worker(function: str, items: Sequence[tuple[Any, ...]],
                limits: CallLimits) -> list[str | Exceeded]:
    """Results of a prefix of ``items`` from one worker: up to and including the first
    call that ends the worker (out of memory, or stuck past ``RLIMIT_CPU`` or the wall
    allowance), else all of them."""
    process = subprocess.Popen(
        [sys.executable, "-c", "from evalplus_ng.sandbox.bounded import serve; serve()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        env=sandbox_environment())
    assert process.stdin is not None and process.stdout is not None
    results: list[str | Exceeded] = []
    try:
        # The worker reads the whole batch before it writes anything: no deadlock.
        write_frame(process.stdin.fileno(), pickle.dumps(
            (function, limits.cpu_seconds, limits.memory_bytes, list(items)),
            pickle.HIGHEST_PROTOCOL))
        process.stdin.close()
        for _item in items:
            try:
                frame = read_frame(process.stdout.fileno(),
                                   time.monotonic() + limits.wall_seconds, 1 << 31)
            except FrameError as exc:
                late = exc.status is not Status.CRASH
                results.append(Exceeded("time" if late else _limit_of(process, results)))
                break
            if frame[:1] == _TIME:
                results.append(Exceeded("time"))
                continue
            if frame[:1] == _MEMORY:
                results.append(Exceeded("memory"))
                break
            if frame[:1] != _RESULT:
                raise ValueError("unknown frame from a bounded worker")
            results.append(frame[1:].decode("utf-8", "surrogatepass"))
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
        process.stdout.close()
    return results


def _limit_of(process: subprocess.Popen[bytes], replies: Sequence[object]) -> str:
    """Which limit ended a worker that closed its pipe; an exit without a signal is a
    bug of the worker's own (e.g. the function cannot be imported), raised as such."""
    try:
        code = process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        process.kill()
        return "time"
    if code == -signal.SIGXCPU:
        return "time"
    if code == -signal.SIGKILL:
        return "memory"  # the OOM killer's signal (the parent's own kill is for time)
    if code < 0:
        return "crash"
    raise SandboxError(f"bounded worker exited with status {code} after {len(replies)} "
                       "replies")


class _OverTime(BaseException):
    """Raised in the worker when a call's CPU time is up (a BaseException: the called
    code's own ``except Exception`` cannot swallow it)."""


def _over_time(_signum: int, _frame: object) -> None:
    raise _OverTime


def serve() -> None:
    """The worker: read one batch, reply to each call in order (see :func:`bounded_map`).

    A call's CPU time is up when ``ITIMER_PROF`` fires: the call is abandoned and the
    worker goes on. ``RLIMIT_CPU``, a second later, kills a worker stuck in C code
    (where the timer's handler cannot run)."""
    fd_in, fd_out = sys.stdin.fileno(), sys.stdout.fileno()
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # SIGXCPU would dump core
    name, cpu_seconds, memory_bytes, items = pickle.loads(read_frame(fd_in, None, 1 << 31))
    module, _, attribute = name.partition(":")
    function: Callable[..., str] = getattr(importlib.import_module(module), attribute)
    resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    signal.signal(signal.SIGPROF, _over_time)
    for item in items:
        used = resource.getrusage(resource.RUSAGE_SELF)
        soft = math.ceil(used.ru_utime + used.ru_stime + cpu_seconds + 1)
        if hard != resource.RLIM_INFINITY:
            soft = min(soft, hard)
        resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))
        try:
            try:
                signal.setitimer(signal.ITIMER_PROF, cpu_seconds)
                reply = _RESULT + function(*item).encode("utf-8", "surrogatepass")
            finally:
                signal.setitimer(signal.ITIMER_PROF, 0)
        except _OverTime:
            reply = _TIME
        except MemoryError:
            reply = _MEMORY
        write_frame(fd_out, reply)
        if reply == _MEMORY:
            return
