"""Where a command's work runs (:class:`Backend`, chosen once and passed down)."""

from __future__ import annotations

import contextlib
import os
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evalplus_ng import pools
from evalplus_ng.judge import JUDGE
from evalplus_ng.sandbox import Limits, Sandbox

if TYPE_CHECKING:
    from evalplus_ng.backend.cluster import RayExecutor


@dataclass(frozen=True)
class Backend:
    """Where a command's sandbox jobs and per-task work run: the local pool of ``workers``
    sandbox workers, or (``ray``) the workers of a Ray cluster, ``address`` naming it
    (None: the one running here, else a new local instance). Built once from the command
    line (``--backend``, ``--address``, ``-j``) and passed down; the same seed gives the
    same suite on either."""

    workers: int = 2
    ray: bool = False
    address: str | None = None

    def __post_init__(self) -> None:
        if self.workers < 1:
            raise ValueError(f"workers must be at least 1, not {self.workers}")
        if self.address is not None and not self.ray:
            raise ValueError("an address names a Ray cluster: the local backend has none")

    def executor(self, limits: Limits, hidden: Sequence[Path]) -> Sandbox | RayExecutor:
        """The sandbox jobs run on: the local pool, or every node's sandbox on the cluster."""
        if not self.ray:
            return Sandbox(self.workers, limits, judge=JUDGE, hidden=hidden)
        from evalplus_ng.backend.cluster import RayExecutor

        return RayExecutor(self.address, limits, map(str, hidden))

    def unordered(self, function: Callable[[Any], Any], items: Sequence[Any],
                  nodes: Counter[str] | None = None) -> Iterator[Any]:
        """``function`` over ``items`` (plain records: each a unit of work), results as
        they come: in a forked pool of at most ``workers`` processes, or one Ray task each
        (``nodes`` counts the units each Ray node ran)."""
        if not self.ray:
            return pools.unordered(max(1, min(self.workers, len(items))), function, items)
        from evalplus_ng.backend import cluster

        return cluster.unordered(self.address, function, items, nodes)


def jail_of(executor: object) -> str:
    """Which jail ran the untrusted code (:class:`~evalplus_ng.sandbox.jail.Mode`'s name),
    for results and summaries: the local sandbox's mode, or on a Ray cluster each node's
    own (``ray``)."""
    return executor.mode.value if isinstance(executor, Sandbox) else "ray"


#: The default backend: this machine's sandbox pool of two workers.
LOCAL = Backend()


@dataclass(frozen=True)
class Capacity:
    """What this machine can run at once: its cores (those this process may use) and the
    memory available (None: unknown)."""

    cores: int
    available_bytes: int | None

    @classmethod
    def here(cls) -> Capacity:
        """This machine's, now (``MemAvailable`` of ``/proc/meminfo``)."""
        available = None
        with contextlib.suppress(OSError, ValueError):
            for line in Path("/proc/meminfo").read_text(encoding="ascii").splitlines():
                if line.startswith("MemAvailable:"):
                    available = int(line.split()[1]) << 10
        return cls(max(1, len(os.sched_getaffinity(0))), available)

    def workers(self, memory_bytes: int) -> int:
        """Workers that can run at once when each may use ``memory_bytes``: one per
        core, as many as the memory available holds, at least one."""
        held = self.cores if self.available_bytes is None else (
            self.available_bytes // memory_bytes)
        return max(1, min(self.cores, held))
