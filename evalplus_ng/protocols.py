"""Protocols shared across stages: what runs sandbox jobs and what judges an output."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, Protocol

from evalplus_ng.records import Job, JobResult
from evalplus_ng.types import Args


class Executor(Protocol):
    """Runs sandbox jobs; :class:`evalplus_ng.sandbox.Sandbox` is the real one."""

    def run(self, job: Job) -> JobResult:
        """Run one job."""

    def map(self, jobs: Iterable[Job]) -> Iterator[JobResult]:
        """Run jobs, possibly in parallel; yield results in job order."""


class Judge(Protocol):
    """Decides whether an output passes; :data:`evalplus_ng.judge.JUDGE` is the real one.

    A :class:`evalplus_ng.sandbox.Sandbox` is given one to judge jobs with expected
    outputs; values reach it decoded from the wire.
    """

    def check(self, oracle: str, args: Args, expected: Any, actual: Any,
              atol: float, equality: str = "typed") -> bool:
        """Does ``actual`` pass for this input? ``oracle`` and ``equality`` are the job's
        (:attr:`evalplus_ng.records.Job.oracle`, :attr:`~evalplus_ng.records.Job.equality`);
        ``args`` are the call's arguments."""

    def by_text(self, oracle: str) -> bool:
        """True when an output whose JSON text equals the expected output's text passes
        without :meth:`check` (False where the task judges by more than equality)."""
