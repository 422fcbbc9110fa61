"""Domain aliases and protocols shared across stages."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

if TYPE_CHECKING:
    from evalplus_ng.sandbox import Job, JobResult

TaskId: TypeAlias = str
#: One call's positional arguments, as plain Python values.
Args: TypeAlias = list[Any]
#: A JSON-compatible tree produced by :mod:`evalplus_ng.serialize`.
Wire: TypeAlias = Any


class Executor(Protocol):
    """Runs sandbox jobs; :class:`evalplus_ng.sandbox.Sandbox` is the real one."""

    def run(self, job: Job) -> JobResult:
        """Run one job."""

    def map(self, jobs: Iterable[Job]) -> Iterator[JobResult]:
        """Run jobs, possibly in parallel; yield results in job order."""
