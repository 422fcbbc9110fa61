"""Coverage requirement of a program task: the lines and branch arcs of the reference
program that each test's stdin makes it run, measured with coverage.py.

The reference is trusted (as a function's ground truth is to :mod:`.cover`), but a whole
program reads stdin, writes stdout, calls ``exit()`` and may raise the recursion limit or
start a thread: run in this process it would disturb it. So the measurement runs in a
driver process of its own (``python -m evalplus_ng.reduce.programs.cover``, in the
sandbox's environment, :mod:`evalplus_ng.sandbox.environ`: its hash seed fixed), which
forks a fresh child per test, as the sandbox does per input
(:mod:`evalplus_ng.sandbox.stdio`, whose way of running a program as ``__main__`` and
ending it as the interpreter does is reused here): the child gets the input as stdin in a
regular file, its stdout and stderr go nowhere, coverage.py measures it (branch mode) and
it sends the lines and arcs back on a pipe. A run that passes the time limit stops where
it is (what ran so far still counts); one that does not stop at all is killed and counts
nothing.
"""

from __future__ import annotations

import contextlib
import json
import os
import posix
import resource
import select
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from evalplus_ng.reduce.cover import branch_lines
from evalplus_ng.sandbox.environ import sandbox_environment
from evalplus_ng.sandbox.protocol import Limits
from evalplus_ng.sandbox.stdio import prepare_program_process, run_as_main

if TYPE_CHECKING:
    import coverage

#: A goal of the coverage requirement: ``("line", n)`` or ``("arc", from, to)`` (an arc
#: from a line with several ways out; negative: the code object was left).
CoverGoal = tuple[Any, ...]
#: Seconds the reference may run on one test under coverage (it ran within augment's
#: time limit, a second by default, without it); past that, the run stops where it is.
COVER_SECONDS = 20.0
#: Extra seconds after which a child that did not stop is killed (it ran in C code).
_GRACE_SECONDS = 5.0
#: The memory a run may take (the sandbox's default cap).
MEMORY_BYTES = Limits().memory_bytes


class _OutOfTime(BaseException):
    """The run passed its time limit (not an Exception: the program should not catch it)."""


def program_coverage(source: str, inputs: Sequence[str],
                     seconds: float = COVER_SECONDS) -> list[frozenset[CoverGoal]]:
    """For each of ``inputs`` (stdin texts), the lines and branch arcs of ``source`` run on
    it: ``("line", n)`` and ``("arc", a, b)`` goals."""
    if not inputs:
        return []
    request = json.dumps({"source": source, "inputs": list(inputs), "seconds": seconds})
    with tempfile.TemporaryDirectory(prefix="evalplus-ng-progcover-") as folder:
        done = subprocess.run([sys.executable, "-m", "evalplus_ng.reduce.programs.cover"],
                              input=request.encode("utf-8", "surrogateescape"),
                              capture_output=True, cwd=folder, env=sandbox_environment(),
                              check=False)
    if done.returncode != 0:
        raise RuntimeError(f"the coverage driver failed ({done.returncode}): "
                           f"{done.stderr.decode(errors='replace')[-2000:]}")
    answer = json.loads(done.stdout)
    return [frozenset([*(("line", n) for n in run["lines"]),
                       *(("arc", a, b) for a, b in run["arcs"])]) for run in answer]


# --------------------------------------------------------------------------- the driver


def _child(measure: coverage.Coverage, path: str, code: Any, given: str, seconds: float,
           fd: int) -> None:
    """In a fresh child (``measure`` started in its parent, so tracing it already): run
    ``code`` as ``__main__`` on ``given``; send ``{"lines", "arcs"}`` on ``fd`` and end
    the process."""
    write, end = os.write, posix._exit
    with contextlib.suppress(ValueError, OSError):  # as the sandbox caps a child's memory
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))
    stdin = os.open("stdin", os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
    os.unlink("stdin")
    os.write(stdin, given.encode("utf-8", "surrogateescape"))
    os.lseek(stdin, 0, os.SEEK_SET)
    nowhere = os.open(os.devnull, os.O_WRONLY)
    os.dup2(stdin, 0)
    os.dup2(nowhere, 1)
    os.dup2(nowhere, 2)
    sys.stdin = open(0, encoding="utf-8", newline="\n", closefd=False)  # noqa: SIM115
    sys.stdout = open(1, "w", encoding="utf-8", newline="\n", closefd=False)  # noqa: SIM115
    sys.stderr = open(2, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
    sys.__stdin__, sys.__stdout__ = sys.stdin, sys.stdout  # type: ignore[misc]
    sys.argv = ["main.py"]
    prepare_program_process()

    def out_of_time(_signum: int, _frame: Any) -> None:
        raise _OutOfTime

    signal.signal(signal.SIGALRM, out_of_time)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        run_as_main(code)
    except BaseException:  # the timer went off outside the program's own frames
        pass
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        measure.stop()
    data = measure.get_data()
    body = json.dumps({"lines": sorted(data.lines(path) or []),
                       "arcs": sorted(data.arcs(path) or [])}).encode()
    view = memoryview(body)
    while view:
        view = view[write(fd, view):]
    end(0)


def _measure(measure: coverage.Coverage, path: str, code: Any, given: str, seconds: float,
             branches: set[int]) -> dict[str, list[Any]]:
    """One test's lines and branch arcs, run in a forked child (nothing when it was killed)."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        try:
            os.close(read_end)
            _child(measure, path, code, given, seconds, write_end)
        finally:
            posix._exit(1)
    os.close(write_end)
    chunks: list[bytes] = []
    deadline = time.monotonic() + seconds + _GRACE_SECONDS
    killed = False
    while True:
        remaining = deadline - time.monotonic()
        ready, _, _ = select.select([read_end], [], [], max(0.0, remaining))
        if not ready:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            killed = True
            break
        chunk = os.read(read_end, 1 << 20)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(read_end)
    os.waitpid(pid, 0)
    if killed or not chunks:
        return {"lines": [], "arcs": []}
    run = json.loads(b"".join(chunks))
    return {"lines": run["lines"],
            "arcs": [[a, b] for a, b in run["arcs"] if a in branches]}


def main() -> None:
    """The driver: a request (``source``, ``inputs``, ``seconds``) as JSON on stdin, one
    ``{"lines", "arcs"}`` per input as a JSON list on stdout."""
    request = json.loads(sys.stdin.buffer.read().decode("utf-8", "surrogateescape"))
    source: str = request["source"]
    path = os.path.abspath("main.py")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(source)
    code = compile(source, path, "exec")
    branches = branch_lines(source)
    import coverage

    # Started once, here: each forked child inherits the running tracer (starting one
    # costs more than the fork) and, the driver never running ``path``, no data.
    measure = coverage.Coverage(data_file=None, branch=True, include=[path],
                                config_file=False)
    measure.set_option("run:disable_warnings", ["no-data-collected"])
    measure.start()
    answer = [_measure(measure, path, code, given, float(request["seconds"]), branches)
              for given in request["inputs"]]
    measure.stop()
    sys.stdout.write(json.dumps(answer))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
