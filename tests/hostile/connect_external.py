"""Attacks the network: connects to an external address (1.1.1.1:53)."""

import socket


def f(x):
    with socket.create_connection(("1.1.1.1", 53), timeout=0.3) as conn:
        conn.sendall(b"escaped")
    return x + 1
