"""The zygote: the clean process every child is forked from.

The supervisor handles jobs (ground-truth code among them); a child forked from it
would inherit that memory. So before it reads any job, the supervisor forks a
*zygote* that has never held a job's data, and asks it for each child. The zygote
forks, hands the child the two pipe ends the supervisor made (one to receive the
job, one to send outcomes), and answers with the child's pid; later the supervisor
asks it to reap that pid and gets the wait status back. A child therefore holds
nothing but its own job.

The zygote forks with the function it is given (:func:`evalplus_ng.sandbox.jail.fork_alone`
in a jail: each child in a pid namespace of its own, where it is pid 1; the zygote shows
its children no /proc, so that a child sees no process but itself and none of the
counters the zygote accumulates from the children it reaped). A child that runs a
program gets a mount namespace too, for a /proc of its own (``/dev/stdin`` and its
kin point into it). Each child gets a *ticket*, a number drawn at random (the child's uid is made
from it, never from its pid, which would count the children forked before it), and the
read end of a pipe only the zygote can write: it reads end-of-file once the zygote died.

Requests on the zygote's socket are one message each: ``F`` + whether the child gets
a /proc of its own (one byte) + the working folder (with the two pipe ends attached)
or ``W`` + a pid; the answers are a pid and a ticket,
or a wait status, 4 bytes each.
"""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import socket
import struct
from collections.abc import Callable
from dataclasses import dataclass

_NUMBER = struct.Struct(">i")
_PAIR = struct.Struct(">ii")
_FORK, _WAIT = b"F", b"W"
#: Tickets are drawn from 0 .. TICKETS - 1.
TICKETS = 1 << 29


@dataclass(frozen=True)
class Birth:
    """What a new child is handed: its two pipe ends (job in, results out), its working
    folder, its ticket, the read end of the zygote's liveness pipe and whether it was
    forked to mount a /proc of its own."""

    job_fd: int
    result_fd: int
    workdir: str
    ticket: int
    alive_fd: int
    own_proc: bool = False


def draw_ticket() -> int:
    """A random ticket (see the module's docstring)."""
    return int.from_bytes(os.urandom(4), "big") % TICKETS


def plain_fork(_own_proc: bool = False) -> int:
    """``os.fork``, as the zygote calls a fork function: a child in no namespace of its own
    (``own_proc`` cannot be honoured and is ignored)."""
    return os.fork()


class Zygote:
    """The supervisor's handle on its zygote process."""

    def __init__(self, run_child: Callable[[Birth], None], prepare: Callable[[], None],
                 fork: Callable[[bool], int] = plain_fork) -> None:
        """Fork the zygote now. In it, ``prepare()`` runs once (e.g. loading a seccomp
        filter every child inherits); each child is made by ``fork(own_proc)`` (as
        ``os.fork``: 0 in the child) and runs ``run_child(birth)``, which must not
        return."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        pid = os.fork()
        if pid == 0:  # pragma: no cover - runs in the zygote
            try:
                ours.close()
                _serve(theirs, run_child, prepare, fork)
            finally:
                os._exit(0)
        theirs.close()
        self.pid = pid
        self.socket = ours

    def fork(self, job_fd: int, result_fd: int, workdir: str,
             own_proc: bool = False) -> tuple[int, int]:
        """A new child's pid and ticket; it owns ``job_fd`` and ``result_fd`` (closed here)
        and, with ``own_proc``, mounts a /proc of its own. OSError when the zygote is gone
        or could not fork."""
        request = _FORK + (b"\x01" if own_proc else b"\x00") + os.fsencode(workdir)
        try:
            socket.send_fds(self.socket, [request], [job_fd, result_fd])
        finally:
            os.close(job_fd)
            os.close(result_fd)
        data = self.socket.recv(_PAIR.size)
        if len(data) == _NUMBER.size and (code := _NUMBER.unpack(data)[0]) < 0:
            raise OSError(-code, f"the zygote could not fork a child: {os.strerror(-code)}")
        if len(data) != _PAIR.size:
            raise OSError("the zygote is gone")
        pid, ticket = _PAIR.unpack(data)
        return int(pid), int(ticket)

    def reap(self, pid: int) -> int:
        """Wait for child ``pid`` (killed already); its wait status."""
        self.socket.sendall(_WAIT + _NUMBER.pack(pid))
        return self._answer()

    def _answer(self) -> int:
        data = self.socket.recv(_NUMBER.size)
        if len(data) != _NUMBER.size:
            raise OSError("the zygote is gone")
        return int(_NUMBER.unpack(data)[0])

    def close(self) -> None:
        self.socket.close()
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.pid, 0)


def _serve(sock: socket.socket, run_child: Callable[[Birth], None],
           prepare: Callable[[], None],
           fork: Callable[[bool], int]) -> None:  # pragma: no cover - runs in the zygote
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    alive_read, alive_write = os.pipe()
    prepare()
    gc.freeze()
    while True:
        message, fds, _flags, _address = socket.recv_fds(sock, 1 << 16, 2)
        if not message:
            return
        if message[:1] == _WAIT:
            pid = _NUMBER.unpack_from(message, 1)[0]
            try:
                status = os.waitpid(pid, 0)[1]
            except ChildProcessError:
                status = 0
            sock.sendall(_NUMBER.pack(status))
            continue
        ticket = draw_ticket()
        own_proc = message[1:2] == b"\x01"
        try:
            if len(fds) != 2:
                raise OSError(22, "a fork request without its two pipe ends")
            pid = fork(own_proc)
        except OSError as exc:
            for fd in fds:
                os.close(fd)
            sock.sendall(_NUMBER.pack(-(exc.errno or 1)))
            continue
        if pid == 0:
            try:
                sock.close()
                os.close(alive_write)
                run_child(Birth(fds[0], fds[1], os.fsdecode(message[2:]), ticket, alive_read,
                                own_proc))
            finally:
                os._exit(70)
        for fd in fds:
            os.close(fd)
        sock.sendall(_PAIR.pack(pid, ticket))
