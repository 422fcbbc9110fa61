"""A memory cgroup per supervisor, where the machine lets this process make one.

The address-space cap (``RLIMIT_AS``) a child sets on itself does not count pages
that live outside it: files in a tmpfs, buffers in the kernel. A memory cgroup
counts every page its processes charge, so the parent puts each supervisor (with
its zygote and children) in a cgroup of its own, with a limit of the child's cap
plus the jail's tmpfs plus room for the supervisor. Over it the kernel's OOM killer
ends the child (its ``oom_score_adj`` is the highest), which shows as a crash.

Where: a child folder of this process's own cgroup, in the hierarchy that has the
memory controller: cgroup v2 (``memory.max``) when the folder made there gets that
file (the controller is delegated), else cgroup v1 (``memory.limit_in_bytes``).
Elsewhere (no such hierarchy, no right to write it) nothing is made and the caps
of :class:`~evalplus_ng.sandbox.protocol.Limits` are all there is.

A cgroup's processes are also all killed when its supervisor is stopped, and its
folder removed; folders of a run that was killed with SIGKILL are removed by the
next sandbox started on the machine (:func:`sweep`).
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import signal
import time
from dataclasses import dataclass

from evalplus_ng.files import orphans

#: Folder names: ``evalplus-ng-<parent pid>-<worker number>``.
_NAME = re.compile(r"evalplus-ng-(\d+)-(\d+)")
#: How long :meth:`Group.remove` waits for killed processes to leave the cgroup.
_EMPTY_SECONDS = 5.0


@dataclass(frozen=True)
class Hierarchy:
    """Where this process's memory cgroup is: its folder and the hierarchy's version."""

    version: int
    folder: str

    @property
    def limit_file(self) -> str:
        return "memory.max" if self.version == 2 else "memory.limit_in_bytes"

    @property
    def peak_file(self) -> str:
        return "memory.peak" if self.version == 2 else "memory.max_usage_in_bytes"


def locate(proc_cgroup: str, mountinfo: str) -> list[Hierarchy]:
    """The folders of this process's cgroups that may hold a memory controller, best
    first (v2, then v1), from the texts of /proc/self/cgroup and /proc/self/mountinfo."""
    paths: dict[str, str] = {}  # "" for v2, "memory" for v1's memory hierarchy
    for line in proc_cgroup.splitlines():
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        _, controllers, path = parts
        if controllers == "":
            paths[""] = path
        elif "memory" in controllers.split(","):
            paths["memory"] = path
    found: list[Hierarchy] = []
    for line in mountinfo.splitlines():
        fields = line.split()
        if " - " not in line or len(fields) < 5:
            continue
        root, mountpoint = fields[3], _unescape(fields[4])
        after = line.split(" - ", 1)[1].split()
        if len(after) < 3:
            continue
        fstype, options = after[0], after[2].split(",")
        if fstype == "cgroup2" and "" in paths:
            found.append(Hierarchy(2, _join(mountpoint, root, paths[""])))
        elif fstype == "cgroup" and "memory" in options and "memory" in paths:
            found.append(Hierarchy(1, _join(mountpoint, root, paths["memory"])))
    return sorted(found, key=lambda h: -h.version)


def _unescape(field: str) -> str:
    """mountinfo writes spaces, tabs, newlines and backslashes as octal escapes."""
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), field)


def _join(mountpoint: str, root: str, path: str) -> str:
    """The folder of cgroup ``path`` in a hierarchy mounted at ``mountpoint`` from ``root``."""
    if root != "/" and (path == root or path.startswith(root + "/")):
        path = path[len(root):]
    return os.path.join(mountpoint, path.lstrip("/"))


@functools.cache
def here() -> Hierarchy | None:
    """The hierarchy in which this process can make memory cgroups; None where it cannot.

    Tried by making (and removing) a folder: the controller must show its limit file
    there and the limit must be writable.
    """
    try:
        with open("/proc/self/cgroup") as handle:
            proc_cgroup = handle.read()
        with open("/proc/self/mountinfo") as handle:
            mountinfo = handle.read()
    except OSError:
        return None
    for hierarchy in locate(proc_cgroup, mountinfo):
        probe = os.path.join(hierarchy.folder, f"evalplus-ng-{os.getpid()}-probe")
        try:
            os.mkdir(probe)
        except OSError:
            continue
        try:
            _write(os.path.join(probe, hierarchy.limit_file), str(1 << 40))
            return hierarchy
        except OSError:
            continue
        finally:
            with contextlib.suppress(OSError):
                os.rmdir(probe)
    return None


def mounted() -> tuple[str, ...]:
    """Where the machine's cgroup file systems are (to cover from children)."""
    return tuple(f for f in ("/sys/fs/cgroup",) if os.path.isdir(f))


def _write(path: str, text: str) -> None:
    with open(path, "w") as handle:
        handle.write(text)


def _read(path: str) -> str:
    with open(path) as handle:
        return handle.read()


@dataclass(frozen=True)
class Group:
    """One supervisor's memory cgroup."""

    hierarchy: Hierarchy
    folder: str

    @property
    def procs_file(self) -> str:
        """Write ``0`` here to move the writing process in (its later children follow)."""
        return os.path.join(self.folder, "cgroup.procs")

    def limit(self) -> int:
        """The memory limit in bytes (v2's ``max`` reads as -1)."""
        text = _read(os.path.join(self.folder, self.hierarchy.limit_file)).strip()
        return -1 if text == "max" else int(text)

    def peak(self) -> int:
        """The most memory the cgroup has held at once, in bytes."""
        return int(_read(os.path.join(self.folder, self.hierarchy.peak_file)))

    def pids(self) -> list[int]:
        try:
            return [int(p) for p in _read(self.procs_file).split()]
        except (OSError, ValueError):
            return []

    def remove(self) -> None:
        """Kill every process still in the cgroup and remove its folder (best effort:
        a folder whose processes do not die in time stays for :func:`sweep`)."""
        if self.hierarchy.version == 2:
            with contextlib.suppress(OSError):
                _write(os.path.join(self.folder, "cgroup.kill"), "1")
        deadline = time.monotonic() + _EMPTY_SECONDS
        while True:
            for pid in self.pids():
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            try:
                os.rmdir(self.folder)
                return
            except FileNotFoundError:
                return
            except OSError:
                if time.monotonic() > deadline:
                    return
                time.sleep(0.01)


def make(number: int, limit_bytes: int) -> Group | None:
    """A fresh cgroup for worker ``number`` of this process, limited to ``limit_bytes``
    (swap too, where the hierarchy counts it); None where none can be made."""
    hierarchy = here()
    if hierarchy is None:
        return None
    group = Group(hierarchy, os.path.join(hierarchy.folder,
                                          f"evalplus-ng-{os.getpid()}-{number}"))
    try:
        with contextlib.suppress(FileExistsError):
            os.mkdir(group.folder)
        _write(os.path.join(group.folder, hierarchy.limit_file), str(limit_bytes))
        swap = "memory.swap.max" if hierarchy.version == 2 else "memory.memsw.limit_in_bytes"
        with contextlib.suppress(OSError):  # absent without swap accounting
            _write(os.path.join(group.folder, swap),
                   "0" if hierarchy.version == 2 else str(limit_bytes))
    except OSError:
        group.remove()
        return None
    return group


def sweep() -> int:
    """Remove the cgroups of sandboxes whose process is gone (killed before it could
    clean up); return how many were removed."""
    hierarchy = here()
    if hierarchy is None:
        return 0
    removed = 0
    for path in orphans(hierarchy.folder, _NAME):
        Group(hierarchy, path).remove()
        removed += not os.path.exists(path)
    return removed
