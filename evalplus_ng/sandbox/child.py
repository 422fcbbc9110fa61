"""What runs in a child: confine itself, take one job, load its code, call it on each input
(or, for a program job, run the program on one input: :mod:`evalplus_ng.sandbox.stdio`).

The child is forked by its supervisor (:mod:`evalplus_ng.sandbox.supervisor`) and
never returns: :func:`child_main` ends with ``os._exit``. Everything it sends is an
outcome body in a frame (:mod:`evalplus_ng.sandbox.protocol`); line budgets for
trusted code are enforced here, by :class:`CostExceeded`.
"""

from __future__ import annotations

import os
import pickle
import sys
import time
from collections.abc import Callable
from typing import Any

from evalplus_ng.records import NOT_NONE, OUTPUT_TOO_LARGE, UNSTABLE, Fault, Status
from evalplus_ng.sandbox.jail import Cell, confine
from evalplus_ng.sandbox.protocol import (
    CODES,
    HEADER,
    INDEX,
    SECONDS,
    describe_error,
    read_frame,
    value_text,
)
from evalplus_ng.sandbox.stdio import run_program
from evalplus_ng.sandbox.zygote import Birth
from evalplus_ng.types import Wire

#: How long a batching child holds outcomes at most (well within the supervisor's slack,
#: :data:`evalplus_ng.sandbox.supervisor._SLACK_SECONDS`, so holding them never turns
#: into a timeout), and how many bytes.
_BATCH_SECONDS = 0.002
_BATCH_BYTES = 1 << 16


class CostExceeded(BaseException):
    """Raised inside a traced call that ran too many lines (BaseException: hard to swallow)."""


def _line_budget(function: Callable[..., Any], budget: int) -> Callable[..., Any]:
    """``function`` run under a tracer that raises CostExceeded after ``budget`` line events."""

    def call(*args: Any) -> Any:
        remaining = budget

        def local(frame: Any, event: str, arg: Any) -> Any:
            nonlocal remaining
            if event == "line":
                remaining -= 1
                if remaining < 0:
                    raise CostExceeded(f"more than {budget} lines executed")
            return local

        sys.settrace(lambda frame, event, arg: local)
        try:
            return function(*args)
        finally:
            sys.settrace(None)

    return call


def _line_counted(code: str, entry_point: str, budget: int,
                  function: Callable[..., Any]) -> Callable[..., Any]:
    """``code``'s entry point rewritten to count its executed lines (raising
    CostExceeded after ``budget``, see :mod:`evalplus_ng.sandbox.linecount`), loaded in a
    namespace of its own; ``function`` under the (slower) tracer when the code cannot
    be rewritten or its rewritten module does not load."""
    from evalplus_ng.sandbox import linecount

    def over() -> None:
        raise CostExceeded(f"more than {budget} lines executed")

    try:
        namespace = linecount.namespace(budget, over)
        namespace.update({"__name__": "__sample__", "__builtins__": __builtins__})
        exec(linecount.instrument(code, "<sample>"), namespace)
        return linecount.counted(namespace[entry_point], namespace, over)
    except BaseException:
        return _line_budget(function, budget)


#: Taken at import, before any sample runs (a sample may rebind ``builtins.bool``).
_BOOL = bool


def _truth_of(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` answering ``output if type(output) is bool else output is not None``
    (the :data:`evalplus_ng.records.NOT_NONE` oracle: only "not None" counts)."""
    def truth(*args: Any) -> Any:
        value = function(*args)
        return value if type(value) is _BOOL else value is not None

    return truth


def child_main(birth: Birth, cell: Cell) -> None:
    """Confine, wait for a job on the birth's job pipe; load its code, then run each input
    from the start index the job came with on, one frame per result on its result pipe
    (gathered into batches when the job's flag byte says so: trusted code only)."""
    job_fd, fd = birth.job_fd, birth.result_fd
    confine(birth, cell, (job_fd, fd))
    # Confined before the job is known: a child can be made ahead, while the previous
    # one still runs, and take its job (from the supervisor, trusted) when it comes.
    frame = read_frame(job_fd, None, 1 << 31)
    os.close(job_fd)
    start, batched = INDEX.unpack_from(frame)[0], frame[INDEX.size] == 1
    message: dict[str, Any] = pickle.loads(frame[INDEX.size + 1:])
    del frame
    if message.get("program"):  # a whole program on the one input ``start``
        run_program(message, start, fd, cell.limits)
    from evalplus_ng.serialize import decode
    from evalplus_ng.serialize import encode as wire

    # Own references, taken before the sample runs: a sample that patches builtins
    # or these modules garbles at most its own replies, never the framing.
    length, write, clock, loads = len, os.write, time.perf_counter, pickle.loads
    header, stamp, text, describe = HEADER.pack, SECONDS.pack, value_text, describe_error
    ok, bad = CODES[Status.OK, None], CODES[Status.BAD_OUTPUT, None]
    raised, deep, costly, large, unsteady = (
        CODES[Status.ERROR, fault] for fault in (Fault.RAISED, Fault.RECURSION, Fault.COST,
                                                 Fault.TOO_LARGE, Fault.UNSTABLE))
    is_a, recursion, cost_exceeded = isinstance, RecursionError, CostExceeded

    def failed(exc: BaseException) -> bytes:
        """The kind byte of a call that raised ``exc``: decided here, by its class."""
        return (costly if is_a(exc, cost_exceeded) else deep if is_a(exc, recursion)
                else raised)

    def write_all(data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[write(fd, view):]

    def send(body: bytes) -> None:
        write_all(header(length(body)) + body)

    held: list[bytes] = []
    held_bytes = 0
    held_since = 0.0

    def hold(body: bytes) -> None:
        """Send ``body`` with the outcomes before it once enough time or bytes gathered."""
        nonlocal held_bytes, held_since
        if not held:
            held_since = clock()
        held.append(header(length(body)))
        held.append(body)
        held_bytes += length(body)
        if held_bytes >= _BATCH_BYTES or clock() - held_since >= _BATCH_SECONDS:
            flush()

    def flush() -> None:
        nonlocal held_bytes
        if held:
            data = b"".join(held)
            held.clear()
            held_bytes = 0
            write_all(data)

    inputs: list[Wire] = loads(message["inputs"])
    stop = length(inputs)
    namespace: dict[str, Any] = {"__name__": "__sample__", "__builtins__": __builtins__}
    try:
        # dont_inherit: this module's own ``from __future__ import annotations`` must not
        # apply to the sample (its annotations are evaluated, as in a plain interpreter and
        # in EvalPlus: ``List[int]`` without ``from typing import List`` fails to load).
        exec(compile(message["code"], "<sample>", "exec", dont_inherit=True), namespace)
        function = namespace[message["entry_point"]]
        if not callable(function):
            raise TypeError(f"{message['entry_point']} is not callable")
    except BaseException as exc:
        send(failed(exc) + stamp(0.0) + describe(exc).encode("utf-8", "backslashreplace"))
        os._exit(0)
    send(ok + stamp(0.0))
    if message.get("oracle") == NOT_NONE:
        function = _truth_of(function)
    max_lines = int(message.get("max_lines") or 0)
    if max_lines:  # the first call counts its lines (and prices C-level work)
        counted = _line_counted(message["code"], message["entry_point"], max_lines, function)
        first = _truth_of(counted) if message.get("oracle") == NOT_NONE else counted
    else:
        first = function
    twice = bool(message.get("twice"))
    max_output = int(message.get("max_output") or 0)
    answered = len(ok) + SECONDS.size  # an answer's body: code, seconds, output text
    too_large = (f"{OUTPUT_TOO_LARGE}: an output of more than {max_output} bytes"
                 ).encode("ascii")
    unstable = (UNSTABLE + ": a second call gave another output").encode("ascii")

    def again(item: Wire, payload: bytes, elapsed: float) -> bytes:
        """Call once more, plainly: the same output text, or the input is unstable. The
        time reported is this plain call's where the first one counted lines, else the
        faster of the two."""
        args = decode(item)
        began = clock()
        try:
            value = function(*args)
        except BaseException as exc:
            return failed(exc) + stamp(elapsed) + describe(exc).encode("utf-8", "backslashreplace")
        second = clock() - began
        try:
            repeated = text(wire(value)).encode("ascii")
        except BaseException as exc:
            return bad + stamp(elapsed) + describe(exc).encode("utf-8", "backslashreplace")
        if repeated != payload:
            return unsteady + stamp(elapsed) + unstable
        return ok + stamp(second if max_lines or second < elapsed else elapsed) + payload

    index = start
    while index < stop:
        item = inputs[index]
        args = decode(item)
        index += 1
        began = clock()
        try:
            value = first(*args)
        except BaseException as exc:
            elapsed = clock() - began
            body = failed(exc) + stamp(elapsed) + describe(exc).encode("utf-8", "backslashreplace")
        else:
            elapsed = clock() - began
            try:
                payload = text(wire(value)).encode("ascii")
            except BaseException as exc:
                body = bad + stamp(elapsed) + describe(exc).encode("utf-8", "backslashreplace")
            else:
                body = again(item, payload, elapsed) if twice else ok + stamp(elapsed) + payload
        if max_output and length(body) - answered > max_output and body[:length(ok)] == ok:
            body = large + body[length(ok):answered] + too_large
        if batched:
            hold(body)
        else:
            send(body)
    flush()
    os._exit(0)

