"""The parent's side: a pool of supervisors that runs jobs and judges their outputs.

:class:`Sandbox` is the one interface the rest of evalplus-ng uses. It keeps one
:class:`_Worker` per supervisor process (:mod:`evalplus_ng.sandbox.supervisor`),
sends each job to an idle one, reads the outcomes relayed back (untrusted) as they
stream and judges them against the job's expected outputs with the
:class:`~evalplus_ng.protocols.Judge` it was given (:mod:`.replies`), answering ``stop``
when a job may end early.
"""

from __future__ import annotations

import contextlib
import json
import os
import pickle
import queue
import re
import signal
import struct
import subprocess
import sys
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import asdict
from typing import Any, TypeVar, cast

from evalplus_ng.errors import SandboxError
from evalplus_ng.files import orphans, remove_tree
from evalplus_ng.pools import in_order
from evalplus_ng.protocols import Judge
from evalplus_ng.records import PROGRAM_OUTPUT_BYTES, Job, JobResult
from evalplus_ng.sandbox import cgroup, rootfs
from evalplus_ng.sandbox.environ import sandbox_environment
from evalplus_ng.sandbox.jail import Mode, bubblewrap_command, mode
from evalplus_ng.sandbox.protocol import JOB, FrameError, Limits, widen
from evalplus_ng.sandbox.replies import JobJudge, Reading, Texts, converse
from evalplus_ng.sandbox.rootfs import JAIL_ROOT, answer_keys, coverable, tmpfs_bytes
from evalplus_ng.sandbox.supervisor import wall_cap
from evalplus_ng.types import Wire

#: Jobs per worker that :meth:`Sandbox.map` submits ahead of the one it waits for.
MAP_WINDOW = 256
#: Memory a supervisor's cgroup allows beyond its child's cap and the jail's tmpfs:
#: the supervisor, its zygote and the spare child.
CGROUP_ROOM_BYTES = 512 << 20


def cgroup_bytes(limits: Limits) -> int:
    """The memory limit of a supervisor's cgroup (see :mod:`evalplus_ng.sandbox.cgroup`)."""
    return limits.memory_bytes + tmpfs_bytes(limits) + CGROUP_ROOM_BYTES

T = TypeVar("T")


class _Memo:
    """Values computed once per distinct object (by identity) for the last ``size`` objects.

    Jobs of one task share their ``inputs`` and ``expected`` sequences, so their
    pickles and texts are made once per task, not once per sample.
    """

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self.lock = threading.Lock()
        # The key object is kept alive with its value, so its id cannot be reused.
        self.items: OrderedDict[int, tuple[object, Any]] = OrderedDict()

    def get(self, key: object, make: Callable[[], T]) -> T:
        with self.lock:
            found = self.items.get(id(key))
            if found is not None and found[0] is key:
                self.items.move_to_end(id(key))
                return cast(T, found[1])
        value = make()
        with self.lock:
            self.items[id(key)] = (key, value)
            self.items.move_to_end(id(key))
            while len(self.items) > self.size:
                self.items.popitem(last=False)
        return value


def _pickled_inputs(inputs: Sequence[Wire]) -> bytes:
    """The wire-encoded inputs as one pickle; the child decodes each input it runs."""
    return pickle.dumps(list(inputs), pickle.HIGHEST_PROTOCOL)


class _Worker:
    """The parent's handle on one supervisor process."""

    def __init__(self, limits: Limits, closed: threading.Event, mode: Mode,
                 number: int = 0, hidden: tuple[str, ...] = ()) -> None:
        self.limits = limits
        self.closed = closed
        self.mode = mode
        self.number = number
        #: Answer keys of the caller's beyond :func:`answer_keys` (suites, caches).
        self.hidden = hidden
        self.process: subprocess.Popen[bytes] | None = None
        self.root: str | None = None
        #: The supervisor's memory cgroup, where one can be made.
        self.group: cgroup.Group | None = None

    def _start(self) -> subprocess.Popen[bytes]:
        # Nothing of this process's environment (API keys...) reaches a sample.
        env = sandbox_environment()
        command = [sys.executable, "-c",
                   "from evalplus_ng.sandbox.supervisor import main; main()"]
        hidden: tuple[str, ...] = ()
        steps: list[dict[str, Any]] = []
        if self.mode is Mode.WEAK:
            # The parent owns the supervisor's folder: a supervisor killed with SIGKILL
            # cannot clean up after itself.
            root = self.root = tempfile.mkdtemp(prefix=f"{FOLDER_PREFIX}{os.getpid()}-")
            os.chmod(root, 0o711)
            # The cgroup files too: a child could read what an earlier one left in them
            # (the supervisor's peak memory, its OOM kills).
            hidden = tuple(sorted({*answer_keys(), *self.hidden, *cgroup.mounted()}))
        else:
            # One plan for both jails; the working folders are on the jail's own tmpfs,
            # gone with the jail.
            root = JAIL_ROOT
            plan = rootfs.plan(self.limits, self.hidden)
            if self.mode is Mode.BUBBLEWRAP:
                command = bubblewrap_command(plan) + command
            else:
                steps = [{**asdict(step), "kind": step.kind.value} for step in plan]
        settings = json.dumps({"limits": asdict(self.limits), "parent": os.getpid(),
                               "root": root, "mode": self.mode.value, "hidden": hidden,
                               "plan": steps})
        self.group = cgroup.make(self.number, cgroup_bytes(self.limits))
        if self.group is not None:
            # The shell enters the cgroup, then becomes the supervisor (or bwrap): every
            # process of the jail is born inside it. ``env -i`` drops what a shell adds
            # (PWD, SHLVL, _).
            command = ["/bin/sh", "-c", 'echo 0 2>/dev/null >"$0"; exec "$@"',
                       self.group.procs_file, "/usr/bin/env", "-i",
                       *(f"{name}={value}" for name, value in env.items()), *command]
        process = subprocess.Popen(
            [*command, settings],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            start_new_session=True, env=env, cwd=tempfile.gettempdir(),
        )
        assert process.stdin is not None and process.stdout is not None
        widen(process.stdin.fileno())
        widen(process.stdout.fileno())
        return process

    def start(self) -> None:
        """Start the supervisor process unless it runs already."""
        if self.process is None and not self.closed.is_set():
            self.process = self._start()

    def run(self, payload: bytes, reading: Reading, fail_fast: bool,
            patience: float, max_timeouts: int | None = None,
            max_failures: int | None = None, max_seconds: float | None = None) -> JobResult:
        """Run a job, retrying once on a fresh supervisor if the supervisor itself fails."""
        for _attempt in range(2):
            if self.closed.is_set():
                raise SandboxError("the sandbox was closed")
            if self.process is None:  # a supervisor that died shows as a broken pipe
                self.process = self._start()
            process = self.process
            assert process.stdin is not None and process.stdout is not None
            try:
                return converse(process.stdin.fileno(), process.stdout.fileno(), payload,
                                reading, fail_fast, patience, max_timeouts, max_failures,
                                max_seconds)
            except (FrameError, OSError, struct.error, IndexError, ValueError):
                self.stop()  # the supervisor died or hung: start afresh
        raise SandboxError("sandbox supervisor failed twice on the same job")

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        process.kill()
        process.wait()
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        if self.group is not None:
            self.group.remove()
            self.group = None
        if self.root is not None:
            remove_tree(self.root)
            self.root = None


#: The working folder of a supervisor outside bubblewrap: ``<prefix><owner pid>-<random>``
#: in the temporary folder, made and removed by the process that owns the sandbox.
FOLDER_PREFIX = "evalplus-ng-sandbox-"
_FOLDER = re.compile(re.escape(FOLDER_PREFIX) + r"(\d+)-\w+")


def sweep_folders(parent: str | None = None) -> int:
    """Remove the supervisors' folders whose owner is gone (killed before it could remove
    them: a tool or a Ray worker killed with SIGKILL) from ``parent`` (default: the
    temporary folder); return how many were removed."""
    removed = 0
    for path in orphans(parent or tempfile.gettempdir(), _FOLDER):
        remove_tree(path)
        removed += not os.path.exists(path)
    return removed


class Sandbox:
    """A pool of ``workers`` supervisors; thread-safe. Use as a context manager.

    ``judge`` judges the outputs of jobs that have expected outputs; a sandbox
    without one runs only jobs that have none (it raises SandboxError for others).
    ``hidden`` names the caller's answer keys (see :attr:`hidden`).
    """

    def __init__(self, workers: int = 1, limits: Limits | None = None,
                 judge: Judge | None = None, hidden: Iterable[str | os.PathLike[str]] = ()
                 ) -> None:
        self.limits = limits or Limits()
        self.judge = judge
        #: Files and folders of the caller's that hold answers (the suite being judged,
        #: caches), covered in every mode besides :func:`jail.answer_keys`; one that
        #: holds what the supervisor itself needs (Python, evalplus_ng, the temporary
        #: folder) is left visible (:func:`jail.coverable`), one inside another is left out.
        covered = {os.path.realpath(p) for p in hidden if os.path.exists(p)
                   and coverable(os.path.realpath(p))}
        # A path inside another covered one is gone with it (and bwrap could not make
        # its mount point in the read-only cover).
        self.hidden = tuple(sorted(p for p in covered if not any(
            p.startswith(other.rstrip(os.sep) + os.sep) for other in covered)))
        self.workers = max(1, workers)
        self._closed = threading.Event()
        self._idle: queue.SimpleQueue[_Worker] = queue.SimpleQueue()
        try:
            #: How the supervisors are jailed (see :class:`evalplus_ng.sandbox.jail.Mode`).
            self.mode = mode()
        except ValueError as exc:
            raise SandboxError(str(exc)) from None
        # Memory cgroups and folders left by a sandbox killed before it could remove them.
        cgroup.sweep()
        sweep_folders()
        self._all = [_Worker(self.limits, self._closed, self.mode, number, self.hidden)
                     for number in range(self.workers)]
        for worker in self._all:
            self._idle.put(worker)
        # Long-lived threads: a supervisor dies with the thread that started it
        # (PR_SET_PDEATHSIG is per thread), so it must not be a short-lived one.
        self._pool = ThreadPoolExecutor(max_workers=self.workers,
                                        thread_name_prefix="evalplus-ng-sandbox")
        self._inputs = _Memo()
        self._texts = _Memo()

    def __enter__(self) -> Sandbox:
        return self

    def start(self) -> None:
        """Start every supervisor now, in the background (otherwise each starts on first use).

        A supervisor takes a while to boot (a Python process that imports what samples
        commonly need); started early, it boots while the caller still prepares jobs.
        """
        for _ in self._all:
            self._pool.submit(self._start_one)

    def _start_one(self) -> None:
        # On a pool thread: the supervisor dies with the thread that started it.
        worker = self._idle.get()
        try:
            worker.start()
        finally:
            self._idle.put(worker)

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop every supervisor (and so every child); later runs raise SandboxError."""
        self._closed.set()
        self._pool.shutdown(wait=False, cancel_futures=True)
        for worker in self._all:
            worker.stop()
        self._pool.shutdown(wait=True)
        # A supervisor that start() was still booting has started by now: stop it and
        # remove its folder too.
        for worker in self._all:
            worker.stop()

    def run(self, job: Job) -> JobResult:
        """Run one job on an idle supervisor; never raises for anything the code does."""
        if job.expected is not None and self.judge is None:
            raise SandboxError(f"job {job.task_id or job.entry_point!r} has expected outputs, "
                               "but the sandbox has no judge (Sandbox(..., judge=...))")
        message = {
            "code": job.code,
            "entry_point": job.entry_point,
            "oracle": job.oracle,
            "inputs": self._inputs.get(job.inputs, lambda: _pickled_inputs(job.inputs)),
            "time_limits": [float(t) for t in job.time_limits],
            "max_lines": job.max_lines,
            "twice": job.twice,
            "max_output": job.max_output_bytes,
            "batch": job.batch,
            "program": job.program,
        }
        payload = JOB + pickle.dumps(message, pickle.HIGHEST_PROTOCOL)
        patience = self.limits.load_seconds + wall_cap(max(job.time_limits, default=0.0)) + 30.0
        reading = self._reading(job)
        worker = self._idle.get()
        try:
            return worker.run(payload, reading, job.fail_fast, patience,
                              job.max_timeouts, job.max_failures, job.max_seconds)
        finally:
            self._idle.put(worker)

    def _reading(self, job: Job) -> Reading:
        """How the parent reads ``job``'s outputs (:mod:`evalplus_ng.sandbox.replies`): judged
        when it has expected outputs, each output within its allowance (a program's stdout
        within its cap, as the child caps it)."""
        if job.program:
            cap = min(job.max_output_bytes or PROGRAM_OUTPUT_BYTES, self.limits.file_bytes - 1)
        else:
            cap = job.max_output_bytes or self.limits.output_bytes
        if job.expected is None or self.judge is None:
            return Reading(None, job.program, cap)
        expected = job.expected
        texts = self._texts.get(expected, lambda: Texts(expected, job.inputs, job.program))
        if texts.inputs is not job.inputs or texts.program != job.program:
            texts = Texts(expected, job.inputs, job.program)  # the same outputs, other inputs
        return Reading(JobJudge(job, texts, self.judge), job.program, cap)

    def map(self, jobs: Iterable[Job],
            on_result: Callable[[int, JobResult], None] | None = None) -> Iterator[JobResult]:
        """Run jobs on all workers; yield results in job order.

        Jobs are submitted a bounded window ahead of the consumer, so a long
        iterable of jobs is never materialized at once. The window is wide
        (:data:`MAP_WINDOW` jobs per worker): results come back in order, so a job
        that runs to its time limit holds up the consumer while the other workers
        keep going on the jobs after it.
        """
        results = in_order(jobs, lambda job: self._pool.submit(self.run, job),
                           Future.result, Future.cancel, MAP_WINDOW * self.workers)
        with contextlib.closing(results):
            for index, result in enumerate(results):
                if on_result is not None:
                    on_result(index, result)
                yield result
