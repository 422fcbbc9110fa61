"""The parent's side: a pool of supervisors that runs jobs and judges their outputs.

:class:`Sandbox` is the one interface the rest of evalplus-ng uses. It keeps one
:class:`_Worker` per supervisor process (:mod:`evalplus_ng.sandbox.supervisor`),
sends each job to an idle one, parses the outcomes relayed back (untrusted) and
judges them against the job's expected outputs with the :class:`~evalplus_ng.protocols.Judge`
it was given, answering ``stop`` when a job may end early.
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
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import asdict
from typing import Any, TypeVar, cast

from evalplus_ng.errors import SandboxError
from evalplus_ng.files import orphans, remove_tree
from evalplus_ng.pools import in_order
from evalplus_ng.protocols import Judge
from evalplus_ng.records import Job, JobResult, Outcome, Status, too_costly
from evalplus_ng.sandbox import cgroup, rootfs
from evalplus_ng.sandbox.environ import sandbox_environment
from evalplus_ng.sandbox.jail import Mode, bubblewrap_command, mode
from evalplus_ng.sandbox.protocol import (
    BROKEN,
    CHILD_STATUSES,
    CONTINUE,
    DONE,
    HEADER,
    INDEX,
    JOB,
    OK_CODE,
    PREFIX,
    RUN,
    SECONDS,
    STATUSES,
    STOP,
    FrameError,
    Kind,
    Limits,
    error_text,
    parse,
    read_frame,
    scan,
    split_body,
    value_text,
    widen,
    write_frame,
)
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


class _JobJudge:
    """The trusted comparison of outputs with a job's expected outputs (parent side only),
    by the sandbox's :class:`~evalplus_ng.protocols.Judge`."""

    def __init__(self, job: Job, texts: _Texts, judge: Judge) -> None:
        assert job.expected is not None
        self.job = job
        self.expected = job.expected
        self.texts = texts
        self.judge = judge
        # Identical JSON text is identical typed values, which ``check`` passes, except
        # where NaN occurs (NaN != NaN inside sets and dict keys) or a task has its own
        # oracle: those always take the full check.
        self.by_text = judge.by_text(job.oracle)

    def identical(self, index: int, payload: bytes) -> bool:
        """The output's text is the expected output's text (so it passes)."""
        return self.by_text and payload == self.texts.get(index) and b"NaN" not in payload

    def check(self, index: int, value: Wire, seconds: float) -> tuple[Outcome, bool]:
        """The outcome of a plain output and whether it passes, by the full comparison
        (:meth:`evalplus_ng.protocols.Judge.check`). An output whose members collide in hash
        (:class:`~evalplus_ng.serialize.Unjudgeable`) is refused unbuilt, as bad output."""
        from evalplus_ng.serialize import Unjudgeable, decode

        job = self.job
        try:
            passed = self.judge.check(job.oracle, decode(job.inputs[index]),
                                      decode(self.expected[index]), decode(value), job.atol,
                                      job.equality)
        except Unjudgeable as exc:
            return Outcome(Status.BAD_OUTPUT, None, f"unjudgeable output: {exc}", seconds), False
        except Exception:
            passed = False
        return Outcome(Status.OK, value, None, seconds), passed


class _Texts:
    """JSON texts of expected outputs, each made when first compared (most jobs stop early)."""

    def __init__(self, expected: Sequence[Wire]) -> None:
        self.expected = expected
        self.texts: list[bytes | None] = [None] * len(expected)

    def get(self, index: int) -> bytes:
        text = self.texts[index]
        if text is None:
            text = self.texts[index] = value_text(self.expected[index]).encode("ascii")
        return text


def _outcome(body: bytes, index: int, judge: _JobJudge | None,
             allowed: Mapping[int, Kind]) -> tuple[Outcome, bool]:
    """Parse one outcome body (untrusted) and judge it: ``(outcome, passed)``."""
    (status, fault), seconds, payload = split_body(body, allowed)
    if status is not Status.OK:
        return Outcome(status, None, error_text(payload), seconds, fault), False
    if judge is not None and judge.identical(index, payload):
        return Outcome(Status.OK, judge.expected[index], None, seconds), True
    try:
        value = parse(payload.decode("ascii"))
    except (ValueError, RecursionError) as exc:
        return Outcome(Status.BAD_OUTPUT, None, f"malformed reply: {exc}", seconds), False
    return _judged(judge, index, value, seconds)


def _judged(judge: _JobJudge | None, index: int, value: Wire,
            seconds: float) -> tuple[Outcome, bool]:
    """A plain output's outcome, and whether it passes (never, without a judge)."""
    if judge is None:
        return Outcome(Status.OK, value, None, seconds), False
    return judge.check(index, value, seconds)


def _parse_run(frame: bytes, position: int, first: int,
               judge: _JobJudge | None) -> tuple[list[Outcome], list[bool]]:
    """Outcomes of a run of child frames (untrusted) from ``position`` on, judged;
    ``first`` is the first one's input index.

    Plain outputs (status OK) are parsed in place from one Latin-1 text of the whole
    run (the child's encoder writes ASCII; other bytes can only spell strings that
    ``\\u`` escapes spell too); anything else, and outputs the judge compares by
    text, go through :func:`_outcome`. The supervisor relays whole frames only.
    """
    outcomes: list[Outcome] = []
    passed: list[bool] = []
    end = len(frame)
    header, prefix, ok_code = HEADER.size, PREFIX, OK_CODE
    unpack_header, unpack_seconds, scan_at = HEADER.unpack_from, SECONDS.unpack_from, scan
    in_place = judge is None or not judge.by_text
    text = frame.decode("latin-1") if in_place else ""
    index = first
    while position + header <= end:
        (size,) = unpack_header(frame, position)
        start = position + header
        position = start + size
        if in_place and size >= prefix and frame[start] == ok_code:
            try:
                value, stop = scan_at(text, start + prefix)
            except (StopIteration, ValueError, RecursionError):
                stop = -1
            if stop == position:
                seconds = unpack_seconds(frame, start + 1)[0]
                outcome, ok = _judged(judge, index, value, seconds)
                outcomes.append(outcome)
                passed.append(ok)
                index += 1
                continue
        outcome, ok = _outcome(frame[start:position], index, judge, CHILD_STATUSES)
        outcomes.append(outcome)
        passed.append(ok)
        index += 1
    return outcomes, passed


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

    def run(self, payload: bytes, judge: _JobJudge | None, fail_fast: bool,
            patience: float, max_timeouts: int | None = None,
            max_failures: int | None = None) -> JobResult:
        """Run a job, retrying once on a fresh supervisor if the supervisor itself fails."""
        for _attempt in range(2):
            if self.closed.is_set():
                raise SandboxError("the sandbox was closed")
            if self.process is None:  # a supervisor that died shows as a broken pipe
                self.process = self._start()
            try:
                return self._converse(self.process, payload, judge, fail_fast, patience,
                                      max_timeouts, max_failures)
            except (FrameError, OSError, struct.error, IndexError, ValueError):
                self.stop()  # the supervisor died or hung: start afresh
        raise SandboxError("sandbox supervisor failed twice on the same job")

    @staticmethod
    def _converse(process: subprocess.Popen[bytes], payload: bytes, judge: _JobJudge | None,
                  fail_fast: bool, patience: float, max_timeouts: int | None = None,
                  max_failures: int | None = None) -> JobResult:
        assert process.stdin is not None and process.stdout is not None
        fd_in, fd_out = process.stdin.fileno(), process.stdout.fileno()
        write_frame(fd_in, payload)
        outcomes: list[Outcome] = []
        passed: list[bool] = []
        stopped = False
        timeouts = failures = 0
        if fail_fast:
            max_failures = 1
        while True:
            frame = read_frame(fd_out, time.monotonic() + patience, 1 << 31)
            kind = frame[:1]
            if kind == DONE:
                (status, fault), seconds, text = split_body(frame[1:], STATUSES)
                load = Outcome(status, None, None if status is Status.OK else error_text(text),
                               seconds, fault)
                return JobResult(load, tuple(outcomes), tuple(passed) if judge is not None else ())
            if stopped:
                continue  # outcomes the supervisor sent before it saw our "stop"
            if kind not in (RUN, BROKEN):
                raise ValueError("unknown frame from the supervisor")
            if INDEX.unpack_from(frame, 1)[0] != len(outcomes):
                raise ValueError("supervisor skipped an input")
            start = 1 + INDEX.size
            if kind == RUN:
                got, oks = _parse_run(frame, start, len(outcomes), judge)
                if judge is None and max_timeouts is None:
                    outcomes += got
                    passed += oks
                    continue
                for outcome, ok in zip(got, oks, strict=True):
                    outcomes.append(outcome)
                    passed.append(ok)
                    timeouts += too_costly(outcome)
                    failures += judge is not None and not ok
                    if ((max_failures is not None and failures >= max_failures)
                            or (max_timeouts is not None and timeouts >= max_timeouts)):
                        write_frame(fd_in, STOP)
                        stopped = True
                        break
                continue
            outcome, ok = _outcome(frame[start:], len(outcomes), judge, STATUSES)
            outcomes.append(outcome)
            passed.append(ok)
            timeouts += too_costly(outcome)
            failures += judge is not None and not ok
            stopped = ((max_failures is not None and failures >= max_failures)
                       or (max_timeouts is not None and timeouts >= max_timeouts))
            write_frame(fd_in, STOP if stopped else CONTINUE)

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
        judge = None
        if job.expected is not None and self.judge is not None:
            expected = job.expected
            judge = _JobJudge(job, self._texts.get(expected, lambda: _Texts(expected)),
                              self.judge)
        patience = self.limits.load_seconds + wall_cap(max(job.time_limits, default=0.0)) + 30.0
        worker = self._idle.get()
        try:
            return worker.run(payload, judge, job.fail_fast, patience,
                              job.max_timeouts, job.max_failures)
        finally:
            self._idle.put(worker)

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
