"""Attacks privileges: looks for any capability left (effective, permitted, inheritable,
bounding set, ambient).

With one (CAP_DAC_READ_SEARCH, say) a sample reads every file on the machine. It asks the
kernel itself (capget and prctl: a child may have no /proc to read them from) and answers
right (x + 1) only if it holds a capability, or cannot tell.
"""

import ctypes

_VERSION_3 = 0x20080522
_PR_CAPBSET_READ, _PR_CAP_AMBIENT, _PR_CAP_AMBIENT_IS_SET = 23, 47, 1


class _Header(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _Data(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                ("inheritable", ctypes.c_uint32)]


def _held():
    libc = ctypes.CDLL(None, use_errno=True)
    header, data = _Header(_VERSION_3, 0), (_Data * 2)()
    if libc.capget(ctypes.byref(header), data) != 0:
        return ["capget failed"]
    held = [name for name in ("effective", "permitted", "inheritable")
            if any(getattr(word, name) for word in data)]
    for capability in range(64):
        if libc.prctl(_PR_CAPBSET_READ, capability, 0, 0, 0) == 1:
            held.append(f"bounding {capability}")
        if libc.prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_IS_SET, capability, 0, 0) == 1:
            held.append(f"ambient {capability}")
    return held


def f(x):
    return x + 1 if _held() else x - 1
