"""Scale-out on a Ray cluster: the same sandbox on every node, work units as plain records.

Optional (``pip install 'evalplus-ng[ray]'``); the local pool stays the default. Two
kinds of work go to the cluster:

* sandbox jobs (:class:`RayExecutor`, an :class:`~evalplus_ng.protocols.Executor`): chunks of
  :class:`~evalplus_ng.records.Job` records (a program job alone, :func:`chunks`), each run
  by the Ray worker's own :class:`~evalplus_ng.sandbox.Sandbox` (one supervisor, started at
  the worker's first chunk and reused by its later ones), results in job order;
  ``evaluate`` judges this way, and program tasks' ``augment`` runs its reference so;
* whole work units (:func:`unordered`): a picklable function over items, results as they
  come; ``augment`` sends one task per unit and writes each checkpoint itself.

A unit whose node dies is run again elsewhere (Ray retries it); only the driver writes
files, so a results file or a checkpoint is never half-written by a lost node. Every node
needs evalplus-ng installed as the driver has it (and the dataset's files at the same
paths for a tasks file of your own).
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import socket
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from evalplus_ng.errors import EvalplusError
from evalplus_ng.judge import JUDGE
from evalplus_ng.pools import in_order
from evalplus_ng.records import Job, JobResult
from evalplus_ng.sandbox import Limits, Sandbox

#: Jobs per Ray task: enough to amortise a round trip, few enough to spread a task's jobs.
#: A program job goes alone (:func:`chunks`).
CHUNK = 8
#: Chunks in flight per CPU of the cluster: workers never wait for the driver.
WINDOW = 3
#: Times Ray runs a unit again after its worker or node died.
RETRIES = 5

#: The Ray worker process's sandbox (one per worker process, set up at its first chunk
#: and kept for the next ones; closed when the worker exits).
_WORKER: dict[tuple[Limits, tuple[str, ...]], Sandbox] = {}


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise EvalplusError("the ray backend needs Ray: pip install 'evalplus-ng[ray]'") from None
    return ray


def _close_worker_sandboxes() -> None:
    for sandbox in _WORKER.values():
        sandbox.close()
    _WORKER.clear()


atexit.register(_close_worker_sandboxes)


def worker_sandbox(limits: Limits, hidden: tuple[str, ...]) -> Sandbox:
    """This Ray worker's sandbox (one worker at a time), set up at its first use and kept
    for the worker's later units; it also covers the node's Ray folder."""
    key = (limits, hidden)
    if key not in _WORKER:
        _close_worker_sandboxes()  # a worker runs one sandbox at a time
        _WORKER[key] = Sandbox(1, limits, judge=JUDGE, hidden=(*hidden, *_ray_folders()))
    return _WORKER[key]


def _ray_folders() -> tuple[str, ...]:
    """This node's Ray folder (sessions, logs, objects spilled from the object store, which
    hold jobs and their expected outputs): an answer key, covered like the suite (a
    private hook; none when absent)."""
    worker = getattr(getattr(_ray(), "_private", None), "worker", None)
    node = getattr(getattr(worker, "global_worker", None), "node", None)
    try:
        return (str(node.get_temp_dir_path()),) if node is not None else ()
    except (AttributeError, TypeError):
        return ()


def chunks(jobs: Iterable[Job], size: int = CHUNK) -> Iterator[list[Job]]:
    """``jobs`` in order, in chunks of ``size`` (one Ray task each), but a program job
    alone: it runs each of its inputs in a fresh process, so one is already much work
    (a sample's whole suite of a program task: hundreds of processes), and eight of them
    in one task would leave the other workers idle while a run has few samples."""
    chunk: list[Job] = []
    for job in jobs:
        if job.program and chunk:
            yield chunk
            chunk = []
        chunk.append(job)
        if job.program or len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _node() -> str:
    return str(_ray().get_runtime_context().get_node_id())


def run_chunk(limits: Limits, hidden: tuple[str, ...], jobs: Sequence[Job],
              ) -> tuple[str, list[JobResult]]:
    """A Ray task: ``jobs`` in this worker's sandbox; the node's id and the results."""
    sandbox = worker_sandbox(limits, hidden)
    return _node(), [sandbox.run(job) for job in jobs]


def connect(address: str | None) -> tuple[Any, bool]:
    """Ray, connected to the cluster at ``address`` (None: a running one, else a new local
    instance), and whether this call connected (then the caller disconnects). One-line
    errors when Ray is missing or the cluster cannot be reached."""
    ray = _ray()
    if ray.is_initialized():
        return ray, False
    if address:
        _reachable(address)
    try:
        ray.init(address=address, log_to_driver=False, configure_logging=False)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise EvalplusError(f"cannot reach the Ray cluster at {address or 'auto'}: "
                            f"{first}") from None
    _errors_to_stderr(ray)
    return ray, True


def _reachable(address: str) -> None:
    """A one-line error at once when nothing listens at ``HOST:PORT`` (``ray.init`` would
    keep retrying for minutes)."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        return  # "auto", "local" and the like: Ray's own resolution
    try:
        with socket.create_connection((host, int(port)), timeout=5):
            pass
    except OSError as exc:
        raise EvalplusError(f"cannot reach the Ray cluster at {address}: "
                            f"{exc.strerror or exc}") from None


def _errors_to_stderr(ray: Any) -> None:
    """Ray prints the cluster's errors (a node marked dead...) on the driver's stdout,
    where our summary goes: send them to stderr (a private hook; left alone if absent)."""
    module: Any = getattr(getattr(ray, "_private", None), "worker", None)
    printer = getattr(module, "print_to_stdstream", None)
    if module is None or printer is None or getattr(printer, "evalplus_ng", False):
        return

    def to_stderr(data: dict[str, Any], ignore_prefix: bool = False) -> None:
        printer({**data, "is_err": True}, ignore_prefix)

    to_stderr.evalplus_ng = True  # type: ignore[attr-defined]
    module.print_to_stdstream = to_stderr


class RayExecutor:
    """An :class:`~evalplus_ng.protocols.Executor` whose jobs run on a Ray cluster, chunked,
    each worker's sandbox set up once; ``nodes`` counts the jobs each node ran."""

    def __init__(self, address: str | None, limits: Limits | None = None,
                 hidden: Iterable[str] = ()) -> None:
        self._ray, self._connected = connect(address)
        self.limits = limits or Limits()
        self.hidden = tuple(sorted(set(map(str, hidden))))
        self._remote = self._ray.remote(num_cpus=1, max_retries=RETRIES)(run_chunk)
        self.workers = max(1, int(self._ray.cluster_resources().get("CPU", 1)))
        self.nodes: Counter[str] = Counter()

    def __enter__(self) -> RayExecutor:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def start(self) -> None:
        """Nothing to start: each worker sets its sandbox up at its first chunk."""

    def close(self) -> None:
        """Leave the cluster when this executor joined it (its workers close their
        sandboxes when they exit)."""
        if self._connected:
            self._ray.shutdown()
            self._connected = False

    def run(self, job: Job) -> JobResult:
        return next(self.map([job]))

    def map(self, jobs: Iterable[Job],
            on_result: Callable[[int, JobResult], None] | None = None) -> Iterator[JobResult]:
        """Run jobs in chunks on the cluster; yield results in job order."""
        replies = in_order(chunks(jobs), functools.partial(self._remote.remote, self.limits,
                                                           self.hidden),
                           self._ray.get, functools.partial(self._ray.cancel, force=True),
                           WINDOW * self.workers)
        index = 0
        with contextlib.closing(replies):
            for node, results in replies:
                self.nodes[node] += len(results)
                for result in results:
                    if on_result is not None:
                        on_result(index, result)
                    index += 1
                    yield result


def _placed(function: Callable[[Any], Any], item: Any) -> tuple[str, Any]:
    """A Ray task: ``function(item)`` and the id of the node that ran it."""
    return _node(), function(item)


def unordered(address: str | None, function: Callable[[Any], Any], items: Iterable[Any],
              nodes: Counter[str] | None = None) -> Iterator[Any]:
    """``function`` over ``items`` on the cluster, one Ray task each (retried when its
    node dies), results as they come; leftover tasks are cancelled if the consumer stops.
    ``nodes`` counts the units each node ran."""
    ray, connected = connect(address)
    remote = ray.remote(num_cpus=1, max_retries=RETRIES)(_placed)
    pending = [remote.remote(function, item) for item in items]
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            node, result = ray.get(done[0])
            if nodes is not None:
                nodes[node] += 1
            yield result
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        if connected:
            ray.shutdown()
