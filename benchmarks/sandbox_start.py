"""Start-up cost of a sandbox's supervisor in each jail mode, against the weak mode.

What it measures: the wall time from ``Sandbox(1)`` to the result of a first trivial
job (the supervisor started, jailed, its imports done, its zygote and first child
forked), for each mode this machine can make, in rounds that alternate the modes;
the median of each, and its ratio to the weak mode's (no jail of its own: the
baseline measured in the same run). The namespaces mode's one-time probe (a
throwaway process that makes a jail, once per process, where bubblewrap is not used)
is timed apart.

    python benchmarks/sandbox_start.py [--rounds 10]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from evalplus_ng.records import Job
from evalplus_ng.sandbox import Limits, Sandbox
from evalplus_ng.sandbox.jail import MODE_VARIABLE, Mode, _bubblewrap, namespaces_problem
from evalplus_ng.serialize import encode

JOB = Job(code="def f(x):\n    return x + 1\n", entry_point="f", inputs=[encode([1])],
          time_limits=[5.0])


def start_seconds(mode: Mode) -> float:
    """Seconds from a new one-worker sandbox in ``mode`` to its first job's result."""
    os.environ[MODE_VARIABLE] = mode.value
    began = time.perf_counter()
    with Sandbox(1, Limits()) as sandbox:
        result = sandbox.run(JOB)
        seconds = time.perf_counter() - began
    if not result.outcomes or result.outcomes[0].value != 2:
        raise SystemExit(f"{mode.value}: the job failed: {result}")
    return seconds


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args(argv)
    began = time.perf_counter()
    problem = namespaces_problem()
    probe = time.perf_counter() - began
    modes = [Mode.WEAK]
    if _bubblewrap() is not None:
        modes.append(Mode.BUBBLEWRAP)
    if problem is None:
        modes.append(Mode.NAMESPACES)
    print(f"namespaces probe (once per process): {probe:.3f} s"
          + (f" ({problem})" if problem else ""))
    times: dict[Mode, list[float]] = {mode: [] for mode in modes}
    for _round in range(args.rounds):
        for mode in modes:
            times[mode].append(start_seconds(mode))
    baseline = statistics.median(times[Mode.WEAK])
    for mode in modes:
        median = statistics.median(times[mode])
        print(f"{mode.value:11} median {median:.3f} s  min {min(times[mode]):.3f} s  "
              f"x{median / baseline:.2f} of weak")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
