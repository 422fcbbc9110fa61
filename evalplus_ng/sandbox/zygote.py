"""The zygote: the clean process every child is forked from.

The supervisor handles jobs (ground-truth code among them); a child forked from it
would inherit that memory. So before it reads any job, the supervisor forks a
*zygote* that has never held a job's data, and asks it for each child. The zygote
forks, hands the child the two pipe ends the supervisor made (one to receive the
job, one to send outcomes), and answers with the child's pid; later the supervisor
asks it to reap that pid and gets the wait status back. A child therefore holds
nothing but its own job.

Requests on the zygote's socket are one message each: ``F`` + the working folder
(with the two pipe ends attached) or ``W`` + a pid; the answers are a pid or a wait
status, 4 bytes each.
"""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import socket
import struct
from collections.abc import Callable

_NUMBER = struct.Struct(">i")
_FORK, _WAIT = b"F", b"W"


class Zygote:
    """The supervisor's handle on its zygote process."""

    def __init__(self, run_child: Callable[[int, int, str, int], None],
                 prepare: Callable[[], None]) -> None:
        """Fork the zygote now. In it, ``prepare()`` runs once (e.g. loading a seccomp
        filter every child inherits); each child runs ``run_child(job_fd, result_fd,
        workdir, zygote_pid)``, which must not return."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        pid = os.fork()
        if pid == 0:  # pragma: no cover - runs in the zygote
            try:
                ours.close()
                _serve(theirs, run_child, prepare)
            finally:
                os._exit(0)
        theirs.close()
        self.pid = pid
        self.socket = ours

    def fork(self, job_fd: int, result_fd: int, workdir: str) -> int:
        """A new child's pid; it owns ``job_fd`` and ``result_fd`` (closed here)."""
        try:
            socket.send_fds(self.socket, [_FORK + os.fsencode(workdir)], [job_fd, result_fd])
        finally:
            os.close(job_fd)
            os.close(result_fd)
        return self._answer()

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


def _serve(sock: socket.socket, run_child: Callable[[int, int, str, int], None],
           prepare: Callable[[], None]) -> None:  # pragma: no cover - runs in the zygote
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    me = os.getpid()
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
        if len(fds) != 2:
            for fd in fds:
                os.close(fd)
            sock.sendall(_NUMBER.pack(-1))
            continue
        pid = os.fork()
        if pid == 0:
            try:
                sock.close()
                run_child(fds[0], fds[1], os.fsdecode(message[1:]), me)
            finally:
                os._exit(70)
        for fd in fds:
            os.close(fd)
        sock.sendall(_NUMBER.pack(pid))
