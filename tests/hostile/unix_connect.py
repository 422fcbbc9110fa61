"""Attacks the host: connects to a unix socket of a host process."""

import socket

PATH = "__UNIX_SOCKET__"


def f(x):
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    client.connect(PATH)
    client.sendall(b"hello from a sample")
    return x - 1
