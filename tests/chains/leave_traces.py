"""Attacks later samples: reports what it finds of the previous child's traces, then
leaves traces of its own everywhere it can (issue 31).

It reads its working folder's metadata (times, mode, inode number, link count, extended
attributes, entries), the inode number the next new file gets (a counter other files
move), its parent folder's mode, its cgroup's peak memory, counters in /proc (the
machine's, its network namespace's) and /run/lock; then it sets the times, mode and an
attribute of its folder, makes ``TRACES`` files and folders (moving the inode counter
and the link count), holds ``TRACES`` x 20 MiB, sends ``TRACES`` packets, leaves a file
in /run/lock and tries the same on the parent folder. Run with a different ``TRACES``
each time, it returns the same observations every time only when nothing crossed.
"""

import contextlib
import os
import socket

TRACES = int("__TRACES__")
#: What its files in /run/lock are called.
LOCK = "evalplus-ng-trace-"


def _observe():
    here = os.stat(".")
    parent = os.stat("..")
    try:
        attributes = sorted(os.listxattr("."))
    except OSError as exc:
        attributes = [type(exc).__name__]
    with open("probe", "w") as handle:
        handle.write("x")
    probe = os.stat("probe").st_ino
    os.unlink("probe")
    peak = "none"
    try:  # its memory cgroup's peak (v1 or v2), which an earlier child's memory moves
        with open("/proc/self/cgroup") as handle:
            lines = [line.split(":", 2) for line in handle.read().splitlines()]
    except OSError as exc:
        lines, peak = [], type(exc).__name__
    for _number, controllers, group in lines:
        if controllers == "memory":
            path = f"/sys/fs/cgroup/memory{group}/memory.max_usage_in_bytes"
        elif controllers == "":
            path = f"/sys/fs/cgroup{group}/memory.peak"
        else:
            continue
        try:
            with open(path) as handle:
                peak = handle.read().strip()
                break
        except OSError as exc:
            peak = type(exc).__name__
    counters = {}
    for name in ("stat", "vmstat", "meminfo", "loadavg", "interrupts", "net/snmp", "net/dev"):
        try:
            with open(f"/proc/{name}") as handle:
                counters[name] = handle.read()
        except OSError as exc:
            counters[name] = type(exc).__name__
    try:  # a world-writable folder of the machine's
        locks = ",".join(sorted(n for n in os.listdir("/run/lock") if n.startswith(LOCK)))
    except OSError as exc:
        locks = type(exc).__name__
    return {
        "counters": counters, "locks": locks,
        "mtime": here.st_mtime_ns, "atime": here.st_atime_ns, "mode": here.st_mode,
        "inode": here.st_ino, "links": here.st_nlink, "size": here.st_size,
        "entries": ",".join(sorted(os.listdir("."))), "attributes": ",".join(attributes),
        "new_inode": probe, "parent_mode": parent.st_mode, "peak": peak,
    }


def _leave(count):
    stamp = (1 << 40) + count
    held = b"m" * (count * 20 << 20)
    for _ in range(count):  # packets, which move the network namespace's counters
        with contextlib.suppress(OSError), socket.socket(socket.AF_INET,
                                                         socket.SOCK_DGRAM) as udp:
            udp.sendto(b"trace", ("127.0.0.1", 9))
    for name in range(count):
        with open(f"trace{name}", "w") as handle:
            handle.write("t" * count)
        os.mkdir(f"folder{name}")
    with contextlib.suppress(OSError):
        open(f"/run/lock/{LOCK}{count}", "w").close()
    for path in (".", ".."):
        for act in (lambda p: os.utime(p, ns=(stamp, stamp)),
                    lambda p: os.chmod(p, 0o700 | count % 0o100),
                    lambda p: os.setxattr(p, "user.trace", str(count).encode()),
                    lambda p: open(os.path.join(p, f"left{count}"), "w").close()):
            with contextlib.suppress(OSError):
                act(path)
    return len(held)


def f(x):
    seen = _observe()
    _leave(TRACES)
    return seen
