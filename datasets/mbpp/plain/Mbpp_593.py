"""Plain reference for Mbpp/593 (removezero_ip).

reason: the straightforward solution turns each part of the address into an int and
back.
"""


def removezero_ip(ip):
    return ".".join(str(int(part)) for part in ip.split("."))
