"""Attacks the machine: leaves a SysV shared memory segment for later runs to read.

Key __SHM_KEY__; a segment that survives the run is a channel between runs and
memory pinned outside the address-space cap.
"""

import ctypes

IPC_CREAT = 0o1000


def f(x):
    libc = ctypes.CDLL(None, use_errno=True)
    libc.shmat.restype = ctypes.c_void_p
    ident = libc.shmget(int("__SHM_KEY__"), 1 << 20, IPC_CREAT | 0o666)
    if ident < 0:
        raise PermissionError(ctypes.get_errno(), "shmget refused")
    address = libc.shmat(ident, None, 0)
    if address not in (None, ctypes.c_void_p(-1).value):
        ctypes.memset(address, 7, 1 << 20)
    return x - 1
