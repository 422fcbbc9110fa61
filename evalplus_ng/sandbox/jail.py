"""Confinement: what a child does to itself, and the namespaces its supervisor enters.

:func:`confine` runs in each fresh child before it touches untrusted code (file
descriptors, uid and capabilities, rlimits, death signal, Python-level guards for a
non-root user); :func:`isolate_as_root`, :func:`isolate_as_user` and
:func:`protect_shared_tmp` run once in a supervisor (network and mount namespaces),
so that every child it forks inherits them.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import resource
import signal
import subprocess
import sys
import tempfile
from collections.abc import Sequence

from evalplus_ng.sandbox.protocol import Limits

#: As root, each child switches to the uid ``UID_BASE + its pid`` (see :func:`confine`).
UID_BASE = 0x40000000
_CAP_DAC_READ_SEARCH = 2
PR_SET_PDEATHSIG = 1
_PR_SET_KEEPCAPS = 8
_PR_SET_NO_NEW_PRIVS = 38
_CLONE_NEWUSER = 0x10000000
_CLONE_NEWNET = 0x40000000
_CLONE_NEWNS = 0x00020000
_MS_RDONLY, _MS_REMOUNT, _MS_BIND, _MS_REC, _MS_PRIVATE = 1, 32, 4096, 16384, 1 << 18
#: World-writable folders: read-only for children, or swept after each (see
#: :func:`protect_shared_tmp`).
SHARED_TMP = ("/tmp", "/var/tmp", "/dev/shm")


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


def confine(workdir: str, limits: Limits, as_root: bool, keep: Sequence[int]) -> None:
    """Everything the child does to itself before it touches untrusted code.

    Of the inherited file descriptors, only ``keep`` stay open (stdin, stdout and
    stderr become /dev/null).
    """
    os.setsid()
    libc = c_library()
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
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
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


# --------------------------------------------------------------------------- supervisor side


def isolate_as_root(libc: ctypes.CDLL) -> None:
    """Own network namespace with no interface up."""
    libc.unshare(_CLONE_NEWNET)


def _mount(libc: ctypes.CDLL, source: str | None, target: str, flags: int) -> bool:
    mount = libc.mount
    mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong,
                      ctypes.c_void_p]
    encoded = None if source is None else os.fsencode(source)
    return bool(mount(encoded, os.fsencode(target), None, flags, None) == 0)


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
    if libc.unshare(_CLONE_NEWNS) != 0 or not _mount(libc, "none", "/", _MS_REC | _MS_PRIVATE):
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
