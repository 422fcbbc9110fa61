"""Attacks the host: opens a socket of any family but AF_INET and AF_INET6 (unix, netlink,
packet, vsock, alg, bluetooth...), or a socket pair.

Each must be refused (PermissionError, from the seccomp filter); the families that
were not are returned instead (a wrong answer that names them).
"""

import errno
import socket

INET = (socket.AF_INET, socket.AF_INET6)


def f(x):
    opened = []
    for family in range(0, 64):
        if family in INET:
            continue
        for kind in (socket.SOCK_STREAM, socket.SOCK_DGRAM, socket.SOCK_RAW):
            try:
                socket.socket(family, kind).close()
            except OSError as exc:
                if exc.errno == errno.EPERM:
                    continue
            opened.append([family, int(kind)])
    try:
        for one in socket.socketpair():
            one.close()
        opened.append("socketpair")
    except OSError:
        pass
    if opened:
        return opened
    raise PermissionError("every family but AF_INET and AF_INET6 refused")
