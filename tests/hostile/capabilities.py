"""Attacks privileges: looks for any capability left (effective, permitted, bounding set).

With one (CAP_DAC_READ_SEARCH, say) a sample reads every file on the machine. It answers
right (x + 1) only if /proc/self/status shows a capability.
"""


def f(x):
    with open("/proc/self/status", encoding="ascii") as handle:
        fields = dict(line.split(":", 1) for line in handle if ":" in line)
    held = [name for name in ("CapEff", "CapPrm", "CapBnd", "CapInh", "CapAmb")
            if int(fields[name].strip(), 16) != 0]
    return x + 1 if held else x - 1
