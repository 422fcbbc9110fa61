"""Confinement: what a child does to itself, and the jail its supervisor enters.

:func:`confine` runs in each fresh child before it touches untrusted code (file
descriptors, uid and capabilities, rlimits, death signal, Python-level guards for a
non-root user). A supervisor runs in a jail (:class:`Mode`): bubblewrap's
(:func:`bubblewrap_command`) or the same one made by itself (:func:`enter_namespaces`,
then :func:`evalplus_ng.sandbox.rootfs.build`), both from :func:`rootfs.plan`; only
when asked by name, the weak mode's namespaces (:func:`isolate_as_root`,
:func:`isolate_as_user`, :func:`protect_shared_tmp`, :func:`hide`). Every child it
forks inherits them.
"""

from __future__ import annotations

import contextlib
import ctypes
import enum
import errno
import functools
import os
import platform
import resource
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from evalplus_ng.sandbox import rootfs
from evalplus_ng.sandbox.environ import sandbox_environment
from evalplus_ng.sandbox.protocol import Limits
from evalplus_ng.sandbox.zygote import Birth

#: As root, each child switches to the uid ``UID_BASE + its ticket`` (a random number:
#: see :mod:`evalplus_ng.sandbox.zygote` and :func:`confine`).
UID_BASE = 0x40000000
_CAP_DAC_READ_SEARCH = 2
PR_SET_PDEATHSIG = 1
_PR_SET_KEEPCAPS = 8
_PR_SET_NO_NEW_PRIVS = 38
_CLONE_NEWUSER = 0x10000000
_CLONE_NEWNET = 0x40000000
_CLONE_NEWNS = 0x00020000
_CLONE_NEWIPC = 0x08000000
_CLONE_NEWUTS = 0x04000000
_CLONE_NEWPID = 0x20000000
_CLONE_NEWCGROUP = 0x02000000
_PR_CAPBSET_DROP = 24
_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL = 47, 4
PR_SET_DUMPABLE = 4
_MS_RDONLY, _MS_REMOUNT, _MS_BIND, _MS_REC, _MS_PRIVATE = 1, 32, 4096, 16384, 1 << 18
_MS_NOSUID, _MS_NODEV, _MS_NOEXEC = 2, 4, 8
#: Files of /proc that count what the whole machine (or the supervisor's namespaces)
#: did, and so what an earlier child did: covered with /dev/null for children, which
#: could otherwise move a counter and have the next child read it.
GLOBAL_COUNTERS = tuple(f"/proc/{name}" for name in (
    "stat vmstat meminfo loadavg interrupts softirqs schedstat diskstats zoneinfo "
    "buddyinfo pagetypeinfo slabinfo locks sys/fs/file-nr sys/fs/inode-nr "
    "sys/fs/inode-state sys/fs/dentry-state sys/kernel/random/entropy_avail "
    "sys/kernel/ns_last_pid pressure/cpu pressure/memory pressure/io").split())
#: World-writable folders: read-only for children, or swept after each (see
#: :func:`protect_shared_tmp`).
SHARED_TMP = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock")


# --------------------------------------------------------------------------- child side


@functools.cache
def c_library() -> ctypes.CDLL:
    """The C library, for the system calls Python does not wrap (prctl, capset, unshare, mount)."""
    return ctypes.CDLL(None, use_errno=True)


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [
        ("effective", ctypes.c_uint32),
        ("permitted", ctypes.c_uint32),
        ("inheritable", ctypes.c_uint32),
    ]


def _set_capabilities(libc: ctypes.CDLL, read_search: bool) -> None:
    """Keep no capability, or (``read_search``, the weak mode only) only the one to
    read any file: where Python lives in a folder others may not enter (/root) and no
    jail shows it to them."""
    libc.prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    header = _CapHeader(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3
    data = (_CapData * 2)()
    data[0].effective = data[0].permitted = (1 << _CAP_DAC_READ_SEARCH) if read_search else 0
    if libc.capset(ctypes.byref(header), data) != 0:
        raise OSError(ctypes.get_errno(), "capset")


def _drop_privileges(libc: ctypes.CDLL, uid: int, read_search: bool) -> None:
    """As root: become ``uid`` with no capability (see :func:`_set_capabilities`)."""
    if libc.prctl(_PR_SET_KEEPCAPS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_KEEPCAPS)")
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    _set_capabilities(libc, read_search)


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


@dataclass(frozen=True)
class Cell:
    """How a child confines itself: its limits, whether it starts as root, whether it
    keeps the capability to read any file (the weak mode as root only), and whether it
    was forked alone (:func:`fork_alone`: it then sees no /proc, or mounts one of its
    own where it was forked for that)."""

    limits: Limits
    as_root: bool
    read_search: bool
    alone: bool
    #: Loads the filter refusing what only the child's own set-up does
    #: (:data:`CHILD_SETUP`), once that is done; None: nothing to load.
    seal: Callable[[], None] | None = None


#: clone(2) by machine (Python's os.fork takes no flags).
_CLONE = {"x86_64": 56, "aarch64": 220, "riscv64": 220, "ppc64le": 120, "s390x": 120}


@functools.cache
def _clone_call() -> Callable[..., int]:
    # PyDLL: the call keeps the GIL, as os.fork does.
    call = ctypes.PyDLL(None, use_errno=True).syscall
    call.restype = ctypes.c_long
    call.argtypes = [ctypes.c_long] * 6
    return call


def fork_alone(own_proc: bool = True) -> int:
    """os.fork, with the child in a new pid namespace of its own, where it is pid 1 (in
    a process that has left /proc, :func:`leave_proc`, it then sees no other process);
    with ``own_proc`` in a new mount namespace too, where it mounts a /proc of its own
    (:func:`confine`). OSError where the kernel refuses (no CAP_SYS_ADMIN in this user
    namespace)."""
    number = _CLONE.get(platform.machine())
    if number is None:
        raise OSError(errno.ENOSYS, f"clone: unknown on {platform.machine()}")
    flags = _CLONE_NEWPID | (_CLONE_NEWNS if own_proc else 0)
    api = ctypes.pythonapi
    api.PyOS_BeforeFork()
    pid = _clone_call()(number, flags | signal.SIGCHLD, 0, 0, 0, 0)
    if pid == 0:
        api.PyOS_AfterFork_Child()
        return 0
    code = ctypes.get_errno()
    api.PyOS_AfterFork_Parent()
    if pid < 0:
        raise OSError(code, f"clone (new namespaces): {os.strerror(code)}")
    return int(pid)


_MNT_DETACH = 2


_MS_SLAVE, _MS_SHARED = 1 << 19, 1 << 20


def _own_mount_namespace(libc: ctypes.CDLL, propagation: int) -> bool:
    """Enter a mount namespace of its own, every mount in it made ``propagation``
    (private, shared or slave); False (errno set) when that fails."""
    return (libc.unshare(_CLONE_NEWNS) == 0
            and _mount(libc, "none", "/", _MS_REC | propagation))


def share_mounts(libc: ctypes.CDLL) -> None:
    """In a mount namespace of its own (one this process's user namespace owns: the
    jail's may belong to another one), make every mount shared, so that what it mounts
    later (children's working folders) reaches the namespace of :func:`leave_proc`.
    OSError when that fails."""
    if not _own_mount_namespace(libc, _MS_SHARED):
        code = ctypes.get_errno()
        raise OSError(code, f"share mounts: {os.strerror(code)}")


def leave_proc(libc: ctypes.CDLL) -> None:
    """In a mount namespace of its own, cover /proc with an empty read-only folder, so
    that the children this process forks alone see no process, not even themselves, and
    no counter. (Covered, not unmounted: in a user namespace the mounts it inherited may
    not be taken apart.) Its mounts are slaves of the ones they were copied from
    (:func:`share_mounts`): what the supervisor mounts later shows here, nothing done
    here shows there. OSError when that fails."""
    if not _own_mount_namespace(libc, _MS_SLAVE):
        code = ctypes.get_errno()
        raise OSError(code, f"a mount namespace of its own: {os.strerror(code)}")
    if not _mount(libc, "none", "/proc", _MS_RDONLY | _MS_NOSUID | _MS_NODEV | _MS_NOEXEC,
                  "tmpfs", "size=4k,nr_inodes=1,mode=0555"):
        code = ctypes.get_errno()
        raise OSError(code, f"cover /proc: {os.strerror(code)}")


#: Files of a process's own /proc folder that count what others did too: its place in
#: the run queue (``se.vruntime`` follows every task that ran on that CPU).
_OWN_COUNTERS = ("sched", "schedstat")


def mount_own_proc(libc: ctypes.CDLL) -> None:
    """In a child forked alone: a /proc of its own pid namespace (where it is pid 1),
    showing process folders only (``subset=pid``: none of the machine's counters), with
    its own scheduler counters covered. Where the kernel refuses ``subset=pid`` (before
    Linux 5.8), the whole /proc with the machine's counters covered
    (:data:`GLOBAL_COUNTERS`). OSError names what failed."""
    flags = _MS_NOSUID | _MS_NODEV | _MS_NOEXEC
    if not _mount(libc, "proc", "/proc", flags, "proc", "subset=pid"):
        if not _mount(libc, "proc", "/proc", flags, "proc"):
            code = ctypes.get_errno()
            raise OSError(code, f"mount a /proc of its own: {os.strerror(code)}")
        hide(libc, GLOBAL_COUNTERS)
    me = os.getpid()
    hide(libc, [f"/proc/{me}/{name}" for name in _OWN_COUNTERS]
         + [f"/proc/{me}/task/{me}/{name}" for name in _OWN_COUNTERS])


def confine(birth: Birth, cell: Cell, keep: Sequence[int]) -> None:
    """Everything the child does to itself before it touches untrusted code.

    Of the inherited file descriptors, only ``keep`` stay open (stdin, stdout and
    stderr become /dev/null). The zygote it was forked from has loaded the seccomp
    filter (:func:`seccomp_loader`) already; a child forked alone for a /proc of its
    own mounts it first, then every child alone loads the second filter (``cell.seal``)
    that refuses mounts too.
    """
    limits, as_root, workdir = cell.limits, cell.as_root, birth.workdir
    libc = c_library()
    # Set first (the fork cleared it); the liveness pipe closes the race with the
    # zygote's death (a child alone sees no parent: its getppid() is 0).
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if select.select([birth.alive_fd], [], [], 0)[0]:
        os._exit(1)
    if cell.alone and birth.own_proc:
        mount_own_proc(libc)
    if cell.seal is not None:
        libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
        cell.seal()
    os.setsid()
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    low = 3
    for fd in sorted({*keep, birth.alive_fd}):
        os.closerange(low, fd)
        low = fd + 1
    os.closerange(low, 65536)
    if as_root:
        uid = UID_BASE + birth.ticket
        os.chown(workdir, uid, uid)
        _drop_privileges(libc, uid, cell.read_search)
    else:
        # In a user namespace of its own the supervisor holds every capability there.
        _set_capabilities(libc, False)
    os.chdir(workdir)
    # Temporary files go to the working folder (the shared ones may be read-only).
    os.environ["TMPDIR"] = workdir
    tempfile.tempdir = workdir
    resource.setrlimit(resource.RLIMIT_AS, (limits.memory_bytes, limits.memory_bytes))
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits.file_bytes, limits.file_bytes))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_NPROC, (1, 1))
    libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    # Set again after the uid change, which clears it; the pipe closes the race again.
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if select.select([birth.alive_fd], [], [], 0)[0]:
        os._exit(1)
    os.close(birth.alive_fd)
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGPIPE):
        signal.signal(signum, signal.SIG_DFL)
    if not as_root:
        _python_guards()
    # The recursion limit stays CPython's default (1,000 frames), as in a plain
    # interpreter and in EvalPlus: code that recurses once per element fails on inputs
    # of a few thousand elements there, and so it does here.
    sys.setrecursionlimit(_DEFAULT_RECURSION_LIMIT)


# --------------------------------------------------------------------------- supervisor side


def isolate_as_root(libc: ctypes.CDLL) -> None:
    """Own network namespace with no interface up; own SysV IPC and host name."""
    if libc.unshare(_CLONE_NEWNET | _CLONE_NEWIPC | _CLONE_NEWUTS) != 0:
        libc.unshare(_CLONE_NEWNET)


def _mount(libc: ctypes.CDLL, source: str | None, target: str, flags: int,
           fstype: str | None = None, data: str | None = None) -> bool:
    """mount(2); True when it worked."""
    mount = libc.mount
    mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong,
                      ctypes.c_char_p]

    def encoded(text: str | None) -> bytes | None:
        return None if text is None else os.fsencode(text)

    return bool(mount(encoded(source), os.fsencode(target), encoded(fstype), flags,
                      encoded(data)) == 0)


def protect_shared_tmp(libc: ctypes.CDLL, keep: str) -> tuple[str, ...]:
    """In a mount namespace of its own, make the world-writable folders read-only for
    this process and its children, except ``keep`` (the supervisor's own folder, where
    the children's working folders are); return the folders still writable.

    The checkout, the virtual environment and the samples may all live under /tmp,
    so it cannot be replaced, only bound read-only onto itself. Mounts are made
    private first: nothing here reaches the rest of the machine. Without the
    rights to do so (no root, no user namespace), every folder stays writable and
    what a child leaves there is removed after it
    (:func:`evalplus_ng.sandbox.supervisor._remove_owned_by`).
    """
    folders = tuple(f for f in SHARED_TMP if os.path.isdir(f) and not os.path.islink(f))
    if not _own_mount_namespace(libc, _MS_PRIVATE):
        return SHARED_TMP
    for folder in folders:
        if not _mount(libc, folder, folder, _MS_BIND | _MS_REC):
            return SHARED_TMP
    # Its own mount on top: it stays writable when the folder around it is not.
    if not _mount(libc, keep, keep, _MS_BIND):
        return SHARED_TMP
    return tuple(f for f in SHARED_TMP if f not in folders or not _mount(
        libc, None, f, _MS_REMOUNT | _MS_BIND | _MS_RDONLY | _kept_flags(f)))


def _kept_flags(folder: str) -> int:
    """The mount's nosuid, nodev, noexec and atime flags (a remount would clear them;
    in a user namespace it may not, and then fails)."""
    return os.statvfs(folder).f_flag & (2 | 4 | 8 | 1024 | 2048 | 4096)


def isolate_as_user(libc: ctypes.CDLL) -> None:
    """Best effort without root: a user namespace that owns an empty network namespace."""
    uid, gid = os.getuid(), os.getgid()
    if libc.unshare(_CLONE_NEWUSER | _CLONE_NEWNET) != 0:
        return
    with contextlib.suppress(OSError):
        for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"),
                           ("gid_map", f"{gid} {gid} 1")):
            with open(f"/proc/self/{name}", "w") as handle:
                handle.write(text)


def hide(libc: ctypes.CDLL, paths: Sequence[str]) -> None:
    """In the supervisor's own mount namespace (made by :func:`protect_shared_tmp`),
    cover each of ``paths`` with an empty read-only tmpfs (a folder) or /dev/null (a
    file); where that is not allowed they stay visible."""
    for path in paths:
        if os.path.isdir(path):
            _mount(libc, "none", path, _MS_RDONLY, "tmpfs", "size=4k,mode=0555")
        elif os.path.isfile(path):
            _mount(libc, os.devnull, path, _MS_BIND)


# --------------------------------------------------------------------------- the jail


class Mode(enum.Enum):
    """How supervisors and their children are confined (docs/explanation/sandbox.md)."""

    #: A jail bubblewrap sets up once per supervisor from :func:`rootfs.plan`: a
    #: read-only root that shows only the system, Python and its packages (answer keys
    #: covered), a tmpfs for working folders, and new pid, ipc, net and uts namespaces.
    BUBBLEWRAP = "bubblewrap"
    #: The same jail, made by the supervisor itself without bubblewrap: new user (not
    #: as root), mount, pid, net, ipc and uts namespaces and the root of the same plan
    #: (:func:`enter_namespaces`, :func:`rootfs.build`).
    NAMESPACES = "namespaces"
    #: No jail of its own, only what the machine allows (network and mount namespaces
    #: where it may: the shared temporary folders read-only, known answer keys covered);
    #: a child may read what its capability to read any file reaches. Chosen only by
    #: name (``EVALPLUS_NG_JAIL=weak`` or the commands' ``--allow-weak-jail``).
    WEAK = "weak"


#: Environment variable that picks a mode by name (default: bubblewrap where it works,
#: else namespaces where they work, else an error).
MODE_VARIABLE = "EVALPLUS_NG_JAIL"
#: What the error says to do where no jail can be made.
_REMEDY = ("install bubblewrap (apt-get install bubblewrap) or run where namespaces may be "
           "made (CAP_SYS_ADMIN as root, user namespaces otherwise), or pass "
           "--allow-weak-jail (EVALPLUS_NG_JAIL=weak) to run untrusted code where it can read "
           "this machine's files")


@functools.cache
def _bubblewrap() -> str | None:
    """bwrap's path when it is installed and can make a jail here (some containers forbid it)."""
    path = shutil.which("bwrap")
    if path is None:
        return None
    probe = [path, "--die-with-parent", "--unshare-pid", "--unshare-ipc", "--unshare-net",
             "--unshare-uts", *(["--unshare-user"] if os.geteuid() else []),
             "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "true"]
    try:
        done = subprocess.run(probe, capture_output=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return path if done.returncode == 0 else None


@functools.cache
def namespaces_problem() -> str | None:
    """Why the namespaces jail cannot be made here (None: it can), found by making one in
    a throwaway process: forked from this one when it runs a single thread (a fork is
    cheap), else a fresh interpreter (:func:`probe`)."""
    if threading.active_count() == 1:
        return _forked_probe(rootfs.plan(Limits()))
    try:
        done = subprocess.run(
            [sys.executable, "-c", "from evalplus_ng.sandbox.jail import probe; probe()"],
            capture_output=True, timeout=60, check=False, env=sandbox_environment(), text=True)
    except (OSError, subprocess.SubprocessError) as exc:
        return str(exc)
    if done.returncode == 0:
        return None
    lines = done.stderr.strip().splitlines()
    return lines[-1] if lines else f"exit code {done.returncode}"


def _forked_probe(steps: Sequence[rootfs.Step]) -> str | None:
    """:func:`probe` in a forked process; the reason comes back on a pipe."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the throwaway process
        os.close(read_end)
        os.dup2(write_end, 2)
        _jail_or_exit(steps)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as handle:
        text = handle.read().decode("utf-8", "replace").strip()
    code = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    if code == 0:
        return None
    return text.splitlines()[-1] if text else f"exit code {code}"


def child_alone_or_raise(libc: ctypes.CDLL) -> None:
    """Fork a child alone that mounts its own /proc (as a program's child in a jail does)
    and then leaves /proc (as the zygote does); OSError when that fails."""
    pid = fork_alone()
    if pid == 0:  # pragma: no cover - the throwaway child
        try:
            mount_own_proc(libc)
            share_mounts(libc)
            leave_proc(libc)
        except OSError:
            os._exit(1)
        os._exit(0)
    if os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) != 0:
        raise OSError("a child forked alone cannot mount a /proc of its own and leave it")


def probe() -> None:
    """Entry point of the throwaway interpreter of :func:`namespaces_problem`."""
    _jail_or_exit(rootfs.plan(Limits()))


def _jail_or_exit(steps: Sequence[rootfs.Step]) -> None:
    """Make the jail ``steps`` describe and exit: code 0 once inside, else 1 with the
    reason on stderr."""
    libc = c_library()
    try:
        enter_namespaces(libc)
        rootfs.build(steps)
        if os.listdir(rootfs.JAIL_ROOT) != []:
            raise OSError("the jail's working folder is not empty")
        child_alone_or_raise(libc)
    except (OSError, rootfs.JailError) as exc:
        os.write(2, f"{exc}\n".encode("utf-8", "replace"))
        os._exit(1)
    os._exit(0)


def mode() -> Mode:
    """The mode sandboxes use here: :data:`MODE_VARIABLE` when set, else bubblewrap where
    it works, else namespaces where they work; ValueError (one line) where no jail works
    and none was named."""
    chosen = os.environ.get(MODE_VARIABLE, "")
    if chosen:
        try:
            picked = Mode(chosen)
        except ValueError:
            names = ", ".join(m.value for m in Mode)
            raise ValueError(f"{MODE_VARIABLE}={chosen!r}: expected one of {names}") from None
        if picked is Mode.BUBBLEWRAP and _bubblewrap() is None:
            raise ValueError(f"{MODE_VARIABLE}=bubblewrap, but bwrap is missing or cannot "
                             "make a jail here")
        if picked is Mode.NAMESPACES and (problem := namespaces_problem()) is not None:
            raise ValueError(f"{MODE_VARIABLE}=namespaces, but the kernel refuses the jail "
                             f"({problem})")
        return picked
    if _bubblewrap():
        return Mode.BUBBLEWRAP
    problem = namespaces_problem()
    if problem is None:
        return Mode.NAMESPACES
    missing = "missing" if shutil.which("bwrap") is None else "unable to make a jail here"
    raise ValueError(f"no jail for untrusted code here: bubblewrap is {missing} and the "
                     f"namespaces jail failed ({problem}); {_REMEDY}")


def bubblewrap_command(steps: Sequence[rootfs.Step]) -> list[str]:
    """The bwrap command line that runs a supervisor in the jail ``steps`` describe
    (:func:`rootfs.plan`; the supervisor's own command line follows it). It dies with
    its parent; its pid 1 takes every process of the jail with it."""
    bwrap = _bubblewrap()
    if bwrap is None:
        raise OSError("bubblewrap (bwrap) is missing or cannot make a jail here")
    command = [bwrap, "--die-with-parent", "--unshare-pid", "--unshare-ipc", "--unshare-net",
               "--unshare-uts", "--unshare-cgroup-try", "--hostname", "sandbox"]
    if os.geteuid() != 0:
        # The supervisor keeps CAP_SYS_ADMIN in its user namespace (as in the namespaces
        # mode): its children, forked alone, mount a /proc of their own with it, then
        # drop every capability before their code runs. CAP_SETPCAP lets the zygote
        # empty its bounding set (:func:`harden_zygote`).
        command += ["--unshare-user", "--cap-add", "CAP_SYS_ADMIN",
                    "--cap-add", "CAP_SETPCAP"]
    kind = rootfs.Kind
    for step in steps:
        target = step.target
        if step.kind is kind.LINK:
            command += ["--symlink", step.source, target]
        elif step.kind is kind.DIR:
            command += ["--perms", "0755", "--dir", target]
        elif step.kind is kind.BIND:
            command += ["--ro-bind", step.source, target]
        elif step.kind is kind.COVER:
            if os.path.isdir(target):
                command += ["--perms", "0555", "--tmpfs", target, "--remount-ro", target]
            else:
                command += ["--ro-bind", os.devnull, target]
        elif step.kind is kind.PROC:
            command += ["--proc", target]
        elif step.kind is kind.DEV:
            command += ["--dev", target, "--remount-ro", target]
        else:
            command += ["--size", str(step.size), "--perms", "0711", "--tmpfs", target]
    command += ["--remount-ro", "/", "--chdir", rootfs.JAIL_ROOT, "--"]
    return command


def enter_namespaces(libc: ctypes.CDLL) -> None:
    """Put this process in new mount, pid, net, ipc and uts namespaces (and a user
    namespace that maps its uid to itself, when not root), then fork: the child, pid 1
    of the new pid namespace, returns (when it dies, the kernel kills every process of
    the namespace); this process waits for it and exits with its exit code.

    :class:`rootfs.JailError` names what the kernel refused.
    """
    uid, gid = os.getuid(), os.getgid()
    as_user = os.geteuid() != 0
    flags = _CLONE_NEWNS | _CLONE_NEWPID | _CLONE_NEWNET | _CLONE_NEWIPC | _CLONE_NEWUTS
    if libc.unshare(flags | (_CLONE_NEWUSER if as_user else 0)) != 0:
        code = ctypes.get_errno()
        what = "user, mount, pid and network" if as_user else "mount, pid and network"
        raise rootfs.JailError(f"unshare({what} namespaces): {os.strerror(code)}")
    if as_user:
        for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"),
                           ("gid_map", f"{gid} {gid} 1")):
            with open(f"/proc/self/{name}", "w") as handle:
                handle.write(text)
    libc.unshare(_CLONE_NEWCGROUP)  # where allowed, as bubblewrap's --unshare-cgroup-try
    libc.sethostname(b"sandbox", 7)
    alive_read, alive_write = os.pipe()
    pid = os.fork()
    if pid:  # pragma: no cover - the waiting process, not measured
        os.close(alive_read)
        for fd in (0, 1):  # the pipes to the parent belong to pid 1 alone
            os.close(fd)
        status = os.waitpid(pid, 0)[1]
        code = os.waitstatus_to_exitcode(status)
        os._exit(code if code >= 0 else 128 - code)
    os.close(alive_write)
    # Pid 1 dies with the waiting process; the pipe's end says it died first.
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if select.select([alive_read], [], [], 0)[0]:
        os._exit(1)
    os.close(alive_read)


#: System calls no sample needs, refused (EPERM) by the children's seccomp filter:
#: reading or steering other processes, namespaces and mounts, kernel keys and
#: programs, memory the address-space cap does not count (memfd, SysV shared memory),
#: SysV IPC and message queues, signals (a child may not signal anyone) and sockets.
REFUSED = (
    "ptrace process_vm_readv process_vm_writev kcmp pidfd_open pidfd_getfd "
    "mount umount2 pivot_root chroot unshare setns fsopen fsmount fsconfig fspick "
    "open_tree move_mount mount_setattr "
    "bpf perf_event_open keyctl add_key request_key userfaultfd io_uring_setup "
    "kexec_load kexec_file_load init_module finit_module delete_module reboot swapon "
    "swapoff acct quotactl syslog "
    "memfd_create memfd_secret shmget shmat msgget semget mq_open "
    "kill tkill tgkill rt_sigqueueinfo rt_tgsigqueueinfo pidfd_send_signal "
    # Sockets of every family: unix sockets reach host processes, vsock the hypervisor,
    # netlink and packet the kernel's network stack, and even an internet socket in the
    # empty network namespace moves its counters (/proc/net/snmp) for the next child.
    "socket socketpair "
    # Counters the kernel keeps for the whole machine, which every child's own mount
    # namespace, /proc and working folder move: a mount's 64-bit id (also through a
    # file handle) and the mount list.
    "name_to_handle_at open_by_handle_at"
).split()
#: Refused by number where libseccomp may not know their names yet (the same number
#: on every machine since Linux 5.x): statmount, listmount.
_REFUSED_NUMBERS = (457, 458)
#: What a child alone still does itself, after its fork and before the code it runs
#: (:func:`mount_own_proc`): refused by a second filter it loads then.
CHILD_SETUP = ("mount",)
_STATX_MNT_ID_UNIQUE = 0x4000
#: ioctl requests of the namespace files (NS_GET_*: a namespace's 64-bit id counts
#: every namespace made on the machine).
_NSIO = 0xB7


def seccomp_loader(refused: Sequence[str] = REFUSED,
                   everything: bool = True) -> Callable[[], None] | None:
    """A function that loads a seccomp filter (built now) refusing ``refused`` into the
    calling process and so into every process it forks; with ``everything`` also the
    filter's argument rules (the death signal, mount ids through statx, namespace ids
    through ioctl). None where libseccomp is missing."""
    try:
        import pyseccomp as seccomp
    except (ImportError, RuntimeError, OSError):
        return None
    refuse = seccomp.ERRNO(errno.EPERM)
    rules = seccomp.SyscallFilter(seccomp.ALLOW)
    for name in refused:
        with contextlib.suppress(ValueError, OSError):  # unknown to this kernel or arch
            rules.add_rule(refuse, name)
    if everything:
        for number in _REFUSED_NUMBERS:
            with contextlib.suppress(ValueError, OSError):
                rules.add_rule(refuse, number)
        # The parent-death signal may be set to SIGKILL (each child does), never cleared.
        rules.add_rule(refuse, "prctl", seccomp.Arg(0, seccomp.EQ, PR_SET_PDEATHSIG),
                       seccomp.Arg(1, seccomp.NE, int(signal.SIGKILL)))
        with contextlib.suppress(ValueError, OSError):
            rules.add_rule(refuse, "statx", seccomp.Arg(3, seccomp.MASKED_EQ,
                                                        _STATX_MNT_ID_UNIQUE,
                                                        _STATX_MNT_ID_UNIQUE))
        rules.add_rule(refuse, "ioctl", seccomp.Arg(1, seccomp.MASKED_EQ, 0xFF00, _NSIO << 8))
    load: Callable[[], None] = rules.load
    return load


def harden_zygote(libc: ctypes.CDLL, parent: int) -> None:
    """The zygote's own confinement, inherited by every child: it dies with the
    supervisor, is the OOM killer's first choice, cannot be read through /proc by a
    process of another uid, and has emptied its capability bounding set (its own
    capabilities stay, for the children's uid switch; in a user namespace they are that
    namespace's)."""
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(0)
    # First to go when memory runs out (in the supervisor's cgroup or on the machine):
    # a child, not its supervisor. Written while /proc/self is still this process's own.
    with contextlib.suppress(OSError), open("/proc/self/oom_score_adj", "w") as handle:
        handle.write("1000")
    libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    for capability in range(64):  # past the last one the kernel knows: EINVAL
        libc.prctl(_PR_CAPBSET_DROP, capability, 0, 0, 0)
