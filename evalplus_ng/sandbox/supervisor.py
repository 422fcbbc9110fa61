"""The supervisor: one long-lived process per worker that forks children and times them.

:func:`main` is its entry point (the parent starts it with ``python -c``): it enters
its namespaces (:mod:`evalplus_ng.sandbox.jail`), imports what samples commonly need,
then serves jobs from the parent on stdin, one confined child
(:mod:`evalplus_ng.sandbox.child`) at a time, relaying the child's frames to stdout
under the job's time and size limits. It enforces every time limit with ``SIGKILL``
and cleans up after each child.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import pickle
import select
import signal
import sys
import tempfile
import time
from collections.abc import Sequence
from typing import Any

from evalplus_ng.files import remove_tree
from evalplus_ng.records import Outcome, Status
from evalplus_ng.sandbox import rootfs
from evalplus_ng.sandbox.child import child_main
from evalplus_ng.sandbox.jail import (
    CHILD_SETUP,
    GLOBAL_COUNTERS,
    PR_SET_DUMPABLE,
    PR_SET_PDEATHSIG,
    REFUSED,
    SHARED_TMP,
    UID_BASE,
    Cell,
    Mode,
    c_library,
    child_alone_or_raise,
    enter_namespaces,
    fork_alone,
    harden_zygote,
    hide,
    isolate_as_root,
    isolate_as_user,
    leave_proc,
    protect_shared_tmp,
    seccomp_loader,
    share_mounts,
)
from evalplus_ng.sandbox.protocol import (
    BROKEN,
    CHILD_STATUSES,
    CONTINUE,
    DONE,
    HEADER,
    INDEX,
    JOB,
    RUN,
    STOP,
    FrameError,
    Limits,
    error_text,
    outcome_body,
    read_frame,
    split_body,
    widen,
    write_frame,
)
from evalplus_ng.sandbox.zygote import Birth, Zygote, plain_fork

_MS_NOSUID, _MS_NODEV, _MNT_DETACH = 2, 4, 2
#: Files and folders a child's own tmpfs holds at most.
_FOLDER_INODES = 10_000
def _mount_tmpfs(folder: str, size: int) -> bool:
    """Mount a fresh tmpfs of ``size`` bytes on ``folder`` (mode 0700); True when it worked."""
    options = f"size={size},nr_inodes={_FOLDER_INODES},mode=0700".encode()
    return bool(c_library().mount(b"none", os.fsencode(folder), b"tmpfs",
                                  _MS_NOSUID | _MS_NODEV, options) == 0)

#: Time allowed beyond a test's limit for decoding, encoding and the pipe.
_SLACK_SECONDS = 0.05


# Imported by the supervisor before it forks, so that children start warm. Not
# numpy: it makes every fork and exit slower (more memory to map and unmap), which
# costs more over a run than the import costs the rare sample that needs it.
_PRELOAD = (
    "abc array ast bisect calendar cmath collections collections.abc copy dataclasses "
    "datetime decimal enum fractions functools hashlib heapq itertools json math "
    "numbers operator random re statistics string sys textwrap typing unicodedata"
).split()


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


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


def wall_cap(limit: float) -> float:
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
                 zygote: Zygote, writable: Sequence[str] = SHARED_TMP) -> None:
        self.limits = limits
        self.fd_in = fd_in
        self.fd_out = fd_out
        self.as_root = os.geteuid() == 0
        self.root = root  # made, and removed, by the parent (or the jail's tmpfs)
        self.zygote = zygote
        #: World-writable folders a child could write to: swept after each child (as
        #: root, where each child has a uid of its own that marks what it made).
        self.sweep = tuple(writable) if self.as_root else ()
        #: Whether working folders get a tmpfs of their own (until a mount fails).
        self.mounts = True
        self.mounted: set[str] = set()
        self.folder_bytes = rootfs.tmpfs_bytes(limits)
        #: A finished child still to reap and clean up after (once the parent has its answer).
        self.deferred: tuple[int, int, str, dict[str, int]] | None = None
        #: A confined child waiting for the next job (see :meth:`_spawn`), and whether it
        #: was made for a program (with a /proc of its own).
        self.spare: tuple[int, int, int, str] | None = None
        self.spare_program = False
        #: The uid of each child not yet reaped (as root: ``UID_BASE`` + its ticket).
        self.owners: dict[int, int] = {}
        #: The parent said ``stop`` during the job being run.
        self.halted = False

    def serve(self) -> None:
        """Serve jobs until the parent closes the pipe."""
        while True:
            try:
                frame = read_frame(self.fd_in, None, 1 << 31)
            except FrameError:
                return
            if frame[:1] == JOB:
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
        self.halted = False
        while True:
            child_load, resume_at, batched = self._run_child(job, payload, start, batched)
            if load is None or child_load.status is not Status.OK:
                load = child_load
            if child_load.status is not Status.OK or resume_at is None or resume_at >= count:
                break
            start = resume_at
        write_frame(self.fd_out, DONE + outcome_body(load.status, load.seconds, load.error,
                                                     load.fault))
        if self.deferred is not None:
            self._finish(*self.deferred)
            self.deferred = None
        # The next job's child, made and confined while the parent reads this job's end
        # (for a job of the same kind: jobs of one kind come in runs).
        self.spare_program = bool(job.get("program"))
        self.spare = self._spawn(self.spare_program)

    def _spawn(self, program: bool = False) -> tuple[int, int, int, str]:
        """Have the zygote fork a child that confines itself and waits for its job (a
        program's child with a /proc of its own).

        Returns its pid, the read end of its result pipe, the write end of its job
        pipe and its working folder.
        """
        workdir = self._new_workdir()
        read_fd, write_fd = os.pipe()
        job_read, job_write = os.pipe()
        widen(read_fd)
        widen(job_write)
        try:
            pid, ticket = self.zygote.fork(job_read, write_fd, workdir, program)
        except OSError:
            os.close(read_fd)
            os.close(job_write)
            raise
        self.owners[pid] = UID_BASE + ticket
        return pid, read_fd, job_write, workdir

    def _answer(self) -> bytes:
        """The parent's next control frame; a parent that is gone means stop."""
        try:
            return read_frame(self.fd_in, None, 1 << 20)
        except FrameError:
            return STOP

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
        frame = INDEX.pack(start) + (b"\x01" if batched else b"\x00") + payload
        program = bool(job.get("program"))
        if self.spare is not None and self.spare_program != program:
            # Made for the other kind of job: it never ran anything; a fresh one takes it.
            pid, read_fd, job_fd, workdir = self.spare
            self.spare = None
            os.close(job_fd)
            self._finish(pid, read_fd, workdir, _tmp_stamps(self.sweep))
        pid, read_fd, job_fd, workdir = self.spare or self._spawn(program)
        self.spare = None
        stamps = _tmp_stamps(self.sweep)
        try:
            write_frame(job_fd, frame)
        except OSError:
            # The waiting child died before its job came (nothing of the job ran):
            # a fresh one takes it; if that one is gone too, it shows as a crash.
            os.close(job_fd)
            self._finish(pid, read_fd, workdir, stamps)
            pid, read_fd, job_fd, workdir = self._spawn(program)
            stamps = _tmp_stamps(self.sweep)
            with contextlib.suppress(OSError):
                write_frame(job_fd, frame)
        os.close(job_fd)
        try:
            load, broken = self._collect(read_fd, job, start, pid)
        except BaseException:
            self._finish(pid, read_fd, workdir, stamps)
            raise
        _kill(pid)
        if (job.get("program") and broken is None and load.status is Status.OK
                and not self.halted and start + 1 < len(job["time_limits"])):
            # A program runs once per child: the next input gets a fresh one.
            self._finish(pid, read_fd, workdir, stamps)
            return load, start + 1, False
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
        write_frame(self.fd_out, BROKEN + INDEX.pack(index)
                     + outcome_body(outcome.status, outcome.seconds, outcome.error,
                                    outcome.fault))
        return load, (index + 1 if self._answer() == CONTINUE else None), False

    def _finish(self, pid: int, read_fd: int, workdir: str, stamps: dict[str, int]) -> int:
        """Kill and reap a child, clean up after it; return its wait status."""
        _kill(pid)
        status = self.zygote.reap(pid)
        owner = self.owners.pop(pid, UID_BASE)
        os.close(read_fd)
        self._release(workdir)
        if self.sweep:
            _remove_owned_by(owner, stamps, self.sweep)
        return status

    def _new_workdir(self) -> str:
        """A working folder no child has seen (nothing of one child reaches the next).

        A new folder under an unpredictable name, its times set to 0, in the
        supervisor's folder (which children may not write). Where the supervisor may
        mount, it holds a tmpfs of its own: inode numbers, which every file made on a
        file system moves, start afresh in it too, and removing it is one unmount.
        """
        workdir = tempfile.mkdtemp(dir=self.root)
        if self.mounts and _mount_tmpfs(workdir, self.folder_bytes):
            self.mounted.add(workdir)
        else:
            self.mounts = False
        os.utime(workdir, ns=(0, 0))
        return workdir

    def _release(self, workdir: str) -> None:
        """Remove a finished child's working folder (never handed to another child)."""
        if workdir in self.mounted:
            self.mounted.discard(workdir)
            if c_library().umount2(os.fsencode(workdir), _MNT_DETACH) == 0:
                with contextlib.suppress(OSError):
                    os.rmdir(workdir)
                    return
        remove_tree(workdir)

    def _collect(self, fd: int, job: dict[str, Any], start: int,
                 pid: int | None = None) -> tuple[Outcome, tuple[int, Outcome] | None]:
        """Relay the child's outcomes; return the load outcome and the input it broke on.

        Each input's frame is due ``time_limit + slack`` after the previous frame
        was handled (the load frame ``load_seconds`` after the fork). A child whose
        frame is late but that has used less CPU time than the limit since then was
        kept waiting by a busy machine, not by its own work: it gets the rest of its
        limit in CPU time, up to :func:`wall_cap` (which a sleeping child reaches).
        Frames that arrive together are relayed together, unparsed. A ``stop`` from
        the parent ends the child at once. A program job's child runs the one input
        ``start`` (:mod:`evalplus_ng.sandbox.stdio`).
        """
        limits = job["time_limits"]
        count = min(len(limits), start + 1) if job.get("program") else len(limits)
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
            if self.fd_in in ready and self._answer() == STOP:
                self.halted = True
                return load, None
            if fd not in ready:
                now = time.monotonic()
                if now < deadline:
                    continue
                if index >= 0 and cpu_mark is not None:
                    limit = float(limits[index])
                    cpu = _cpu_seconds(pid)
                    last = began + wall_cap(limit)
                    if cpu is not None and cpu - cpu_mark < limit and now < last:
                        deadline = min(now + limit - (cpu - cpu_mark) + _SLACK_SECONDS, last)
                        continue
                cut = len(pending) >= HEADER.size
                return self._broken(load, index, Status.TIMEOUT,
                                    "reply cut short" if cut else "no reply", began)
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                if len(pending) >= HEADER.size:
                    return self._broken(load, index, Status.TIMEOUT, "reply cut short", began)
                return self._broken(load, index, Status.CRASH, None, began)
            pending += chunk
            position = 0
            run_start = run_first = -1
            oversized = False
            while index < count and len(pending) - position >= HEADER.size:
                (size,) = HEADER.unpack_from(pending, position)
                if size > cap:
                    oversized = True
                    break
                end = position + HEADER.size + size
                if end > len(pending):
                    break
                if index < 0:
                    load = self._load(bytes(pending[position + HEADER.size:end]))
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
                write_frame(self.fd_out, RUN + INDEX.pack(run_first)
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
        (status, fault), _, payload = split_body(body, CHILD_STATUSES)
        if status is Status.OK:
            return Outcome(Status.OK)
        return Outcome(status, None, error_text(payload), fault=fault)

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


def _mount_namespace() -> int | None:
    """Which mount namespace this process is in (None: unknown)."""
    try:
        return os.stat("/proc/self/ns/mnt").st_ino
    except OSError:
        return None


def _can_fork_alone() -> bool:
    """Whether a child forked alone can mount a /proc of its own here (the weak mode's
    probe: in a jail it must, see :func:`jail.namespaces_problem`)."""
    try:
        child_alone_or_raise(c_library())
    except OSError:
        return False
    return True


def _preload() -> None:
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    for name in _PRELOAD:
        with contextlib.suppress(ImportError):
            __import__(name)
    from evalplus_ng import serialize  # noqa: F401
    from evalplus_ng.sandbox import linecount  # noqa: F401


def main() -> None:
    """Entry point of a supervisor process: serve jobs on stdin/stdout until EOF.

    In a bubblewrap jail (``settings["mode"]``) the namespaces and the root are
    made already; in the namespaces mode the supervisor makes the same jail from
    ``settings["plan"]`` (any failure ends it: it never runs unjailed); in the weak mode
    it enters what namespaces it may. Either way it forks the zygote before it reads
    any job.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    settings = json.loads(sys.argv[1])
    libc = c_library()
    # A parent that dies, however it dies, takes its supervisors (and so their children).
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    jail = Mode(settings["mode"])
    if jail is not Mode.BUBBLEWRAP and os.getppid() != settings["parent"]:
        return  # the parent died before the death signal was armed
    writable: tuple[str, ...] = ()
    host_mounts = _mount_namespace()
    if jail is Mode.NAMESPACES:
        # Still dumpable: its user namespace's maps are written in /proc/self.
        enter_namespaces(libc)  # returns in pid 1 of a new pid namespace
        rootfs.build([rootfs.Step(**{**step, "kind": rootfs.Kind(step["kind"])})
                      for step in settings["plan"]])
        os.chdir(settings["root"])
    elif jail is Mode.WEAK:
        if os.geteuid() == 0:
            isolate_as_root(libc)
        else:
            isolate_as_user(libc)
        writable = protect_shared_tmp(libc, settings["root"])
        hide(libc, settings["hidden"])
    # Nothing of this process (it holds ground-truth jobs) is for its children to read.
    libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    # In either jail (its /proc shows them too), never in the machine's own mount
    # namespace; where mounts are not allowed (weak, as an ordinary user) they stay readable.
    if jail is not Mode.WEAK or _mount_namespace() != host_mounts:
        hide(libc, GLOBAL_COUNTERS)
    _preload()
    # In a jail each child is forked alone (a pid namespace of its own) from a zygote
    # that left /proc; a program's child gets a mount namespace and mounts its own
    # /proc: the zygote's filter lets it, a second filter then refuses it (every child
    # alone loads it). The weak mode does so where the kernel lets it.
    alone = jail is not Mode.WEAK or _can_fork_alone()
    load_filter = seccomp_loader(
        [name for name in REFUSED if not alone or name not in CHILD_SETUP])
    seal = seccomp_loader(CHILD_SETUP, everything=False) if alone else None
    # Children inherit every object: frozen, the collector in a child never walks (and
    # so never copies) the supervisor's pages.
    gc.freeze()
    limits = Limits(**settings["limits"])
    as_root = os.geteuid() == 0
    supervisor_pid = os.getpid()

    if alone:
        share_mounts(libc)

    def prepare() -> None:
        harden_zygote(libc, supervisor_pid)
        if alone:
            leave_proc(libc)
        if load_filter is not None:
            load_filter()

    cell = Cell(limits, as_root, read_search=jail is Mode.WEAK, alone=alone, seal=seal)

    def run_child(birth: Birth) -> None:
        child_main(birth, cell)

    # Forked before any job is read: the zygote, and so every child, never holds one.
    zygote = Zygote(run_child, prepare, fork_alone if alone else plain_fork)
    # Keep the reply pipe away from fd 1 so that stray prints cannot corrupt it.
    fd_out = os.dup(sys.stdout.fileno())
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    supervisor = _Supervisor(limits, sys.stdin.fileno(), fd_out, settings["root"], zygote,
                             writable)
    supervisor.serve_forever()
