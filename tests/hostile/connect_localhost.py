"""Attacks the network: connects to a TCP port the test listens on at 127.0.0.1."""

import socket

PORT = int("__PORT__")


def f(x):
    with socket.create_connection(("127.0.0.1", PORT), timeout=0.3) as conn:
        conn.sendall(b"escaped")
    return x + 1
