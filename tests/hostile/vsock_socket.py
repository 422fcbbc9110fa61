"""Attacks the host: opens an AF_VSOCK socket, a channel to the hypervisor that no
network namespace cuts."""

import socket


def f(x):
    socket.socket(socket.AF_VSOCK, socket.SOCK_STREAM).close()
    return x - 1
