"""The parent reads a supervisor's replies: frames as they stream, each output within its
allowance, parsed and judged as it arrives.

What a sample can make the parent hold is bounded by limits, never by the sample:

* A supervisor's frames are read a chunk at a time (:class:`_Stream`), never whole: an
  output longer than its allowance (:mod:`.allowance`; for a program, its stdout cap) is
  skipped unread and becomes an ERROR of :attr:`~evalplus_ng.records.Fault.TOO_LARGE`; one
  within it is checked for its values before it is parsed and for its nesting before it
  is decoded. An error's text is cut at :data:`ERROR_BYTES`.
* A program's stdout travels as its own bytes (never as JSON text, where a byte can take
  six): the parent reads it as UTF-8, and stdout that is not UTF-8 text is bad output
  (a wrong answer), read no further.
* Each output is judged as it arrives, and a judged job's result keeps only the outputs
  its job asks for (:attr:`~evalplus_ng.records.Job.kept`): a result waiting in the queue
  of :meth:`~evalplus_ng.sandbox.pool.Sandbox.map` holds what its job asked to keep.
"""

from __future__ import annotations

import os
import select
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from evalplus_ng.protocols import Judge
from evalplus_ng.records import (
    OUTPUT_TOO_LARGE,
    Fault,
    Job,
    JobResult,
    Kept,
    Outcome,
    Status,
    too_costly,
)
from evalplus_ng.sandbox.allowance import (
    SLACK_BYTES,
    SLACK_NESTING,
    SLACK_VALUES,
    Allowance,
    allowance,
    nesting,
    values,
)
from evalplus_ng.sandbox.protocol import (
    BROKEN,
    CHILD_STATUSES,
    CONTINUE,
    DONE,
    HEADER,
    INDEX,
    OK_CODE,
    PREFIX,
    RUN,
    SECONDS,
    STATUSES,
    STOP,
    Bytes,
    FrameError,
    Kind,
    error_text,
    parse,
    scan,
    split_body,
    value_text,
    write_frame,
)
from evalplus_ng.types import Wire

#: Bytes of an error's text the parent keeps: a child's own errors are ``Type: message``
#: with the message cut at 200 characters.
ERROR_BYTES = 1 << 10
#: The most the parent reads from a supervisor's pipe at once.
_CHUNK = 1 << 20


class Texts:
    """A job's expected outputs as the child would send them (JSON text; a program's stdout
    as UTF-8) and each output's :class:`~.allowance.Allowance`, each made when first asked
    for (most jobs stop early). Jobs of one task share one."""

    def __init__(self, expected: Sequence[Wire], inputs: Sequence[Wire], program: bool) -> None:
        self.expected = expected
        self.inputs = inputs
        self.program = program
        self.texts: list[bytes | None] = [None] * len(expected)
        self.allowances: list[Allowance | None] = [None] * len(expected)

    def get(self, index: int) -> bytes:
        text = self.texts[index]
        if text is None:
            wire = self.expected[index]
            text = self.texts[index] = (
                wire.encode("utf-8", "surrogateescape")
                if self.program and isinstance(wire, str)
                else value_text(wire).encode("ascii"))
        return text

    def allowance(self, index: int) -> Allowance:
        found = self.allowances[index]
        if found is None:
            given = self.inputs[index]
            found = self.allowances[index] = allowance(
                self.get(index), self.expected[index], value_text(given).encode("ascii"), given)
        return found


#: The longest wrong output (its text's bytes) a :attr:`~evalplus_ng.records.Kept.FIRST_FAILED`
#: job keeps: a result waiting in the parent's queue holds no more of a sample's output.
FIRST_FAILED_BYTES = 16 << 10


class JobJudge:
    """The trusted comparison of outputs with a job's expected outputs (parent side only),
    by the sandbox's :class:`~evalplus_ng.protocols.Judge`."""

    def __init__(self, job: Job, texts: Texts, judge: Judge) -> None:
        assert job.expected is not None
        self.job = job
        self.expected = job.expected
        self.texts = texts
        self.judge = judge
        # Identical JSON text is identical typed values, which ``check`` passes, except
        # where NaN occurs (NaN != NaN inside sets and dict keys) or a task has its own
        # oracle: those always take the full check.
        self.by_text = judge.by_text(job.oracle)
        #: Whether the result keeps, as its value, an output that passed; one that did not
        #: (:attr:`~evalplus_ng.records.Job.kept`).
        self.keeps_passed = job.kept is Kept.ALL
        self.keeps_failed = job.kept is not Kept.NONE

    def identical(self, index: int, data: bytes | bytearray, start: int, end: int) -> bool:
        """The output ``data[start:end]`` is the expected output's text, so it passes; a
        JSON text holding NaN never is (a program's stdout is no JSON). Nothing copied."""
        expected = self.texts.get(index)
        return (self.by_text and end - start == len(expected) and data.startswith(expected, start)
                and (self.job.program or data.find(b"NaN", start, end) < 0))

    def check(self, index: int, value: Wire, seconds: float,
              size: int) -> tuple[Outcome, bool]:
        """The outcome of a plain output (its text ``size`` bytes) and whether it passes, by
        the full comparison (:meth:`evalplus_ng.protocols.Judge.check`). An output nested
        deeper than its allowance is too large, and one whose members collide in hash
        (:class:`~evalplus_ng.serialize.Unjudgeable`) bad output: both refused undecoded."""
        from evalplus_ng.serialize import Unjudgeable, decode

        job = self.job
        # Each level takes two bytes of text at least: a short output nests within the slack.
        if not job.program and size > 2 * SLACK_NESTING:
            deepest = self.texts.allowance(index).nesting
            if nesting(value, deepest) > deepest:
                return too_large(f"nested more than {deepest} levels deep", seconds), False
        try:
            passed = self.judge.check(job.oracle, decode(job.inputs[index]),
                                      decode(self.expected[index]), decode(value), job.atol,
                                      job.equality)
        except Unjudgeable as exc:
            return Outcome(Status.BAD_OUTPUT, None, f"unjudgeable output: {exc}", seconds), False
        except Exception:
            passed = False
        kept = self.keeps_passed if passed else self.keeps_failed
        if kept and not passed and self.job.kept is Kept.FIRST_FAILED:
            self.keeps_failed = False  # the first wrong output only, and only a short one
            kept = size <= FIRST_FAILED_BYTES
        return Outcome(Status.OK, value if kept else None, None, seconds), passed


def too_large(detail: str, seconds: float) -> Outcome:
    """An output refused as too large (``OutputTooLarge: output too large: <detail>``)."""
    return Outcome(Status.ERROR, None, f"{OUTPUT_TOO_LARGE}: output too large: {detail}",
                   seconds, Fault.TOO_LARGE)


@dataclass(frozen=True)
class Reading:
    """How the parent reads one job's outputs: judged (``judge``) or not, a program's
    stdout or JSON text, and the bytes an output may have where no allowance says
    (``cap``: a program's stdout cap, or the job's ``max_output_bytes``)."""

    judge: JobJudge | None
    program: bool
    cap: int

    @property
    def floor(self) -> int:
        """The bytes any output of the job may have (most are far shorter: their allowance
        is looked up only past this)."""
        return self.cap if self.judge is None or self.program else min(self.cap, SLACK_BYTES)

    def payload_bytes(self, index: int) -> int:
        """The bytes output ``index`` may have."""
        if self.judge is None or self.program:
            return self.cap
        return min(self.cap, self.judge.texts.allowance(index).bytes)

    def values(self, index: int) -> int | None:
        """The values output ``index`` may hold (None: any number)."""
        if self.judge is None or self.program:
            return None
        return self.judge.texts.allowance(index).values


def _outcome(body: Bytes, index: int, reading: Reading,
             allowed: Mapping[int, Kind]) -> tuple[Outcome, bool]:
    """Parse one outcome body (untrusted) and judge it: ``(outcome, passed)`` (one identical
    to the expected output passed already: :func:`_parse_run`)."""
    (status, fault), seconds, payload = split_body(body, allowed)
    if status is not Status.OK:
        return Outcome(status, None, error_text(payload[:ERROR_BYTES]), seconds,
                       fault), False
    judge = reading.judge
    if reading.program:  # its stdout, as it is (as large as the program's cap)
        try:
            output = str(payload, "utf-8")
        except UnicodeDecodeError as exc:
            return Outcome(Status.BAD_OUTPUT, None, f"stdout is not UTF-8 text: byte "
                           f"{exc.start} of {len(payload)}", seconds), False
        return _judged(judge, index, output, seconds, len(payload))
    text = bytes(payload)  # JSON text within its allowance: a copy costs little
    if len(text) > SLACK_VALUES:  # as many values as bytes at most: count them past this
        most = reading.values(index)
        if most is not None and len(text) > most and values(text) > most:
            return too_large(f"more than {most} values", seconds), False
    try:
        value = parse(text.decode("ascii"))
    except RecursionError:
        return too_large("nested too deep to parse", seconds), False
    except ValueError as exc:
        return Outcome(Status.BAD_OUTPUT, None, f"malformed reply: {exc}", seconds), False
    return _judged(judge, index, value, seconds, len(text))


def _judged(judge: JobJudge | None, index: int, value: Wire, seconds: float,
            size: int) -> tuple[Outcome, bool]:
    """A plain output's outcome (its text ``size`` bytes), and whether it passes (never,
    without a judge)."""
    if judge is None:
        return Outcome(Status.OK, value, None, seconds), False
    return judge.check(index, value, seconds, size)


#: A run's outcomes, each with whether it passed, in input order.
Judged = list[tuple[Outcome, bool]]


def _parse_run(data: bytes | bytearray, end: int, first: int,
               reading: Reading) -> tuple[Judged, int]:
    """The judged outcomes of the whole child frames (untrusted) that ``data[:end]`` starts
    with, ``first`` the first one's input index, up to one not held whole or past its
    output's allowance in bytes; and the bytes they take.

    Plain JSON outputs (status OK) are parsed in place from one Latin-1 text of them all
    (the child's encoder writes ASCII; other bytes can only spell strings that ``\\u``
    escapes spell too); anything else, and outputs the judge compares by text, go through
    :func:`_outcome`.
    """
    header, prefix, ok_code = HEADER.size, PREFIX, OK_CODE
    unpack_header, unpack_seconds, scan_at = HEADER.unpack_from, SECONDS.unpack_from, scan
    floor, allowed = prefix + reading.floor, reading.payload_bytes
    whole = 0
    count = 0
    while whole + header <= end:
        (size,) = unpack_header(data, whole)
        stop = whole + header + size
        if stop > end or (size > floor and size > prefix + allowed(first + count)):
            break
        whole, count = stop, count + 1
    judged: Judged = []
    if not count:
        return judged, 0
    judge = reading.judge
    identical = judge.identical if judge is not None and judge.by_text else None
    expected = judge.expected if judge is not None else ()
    in_place = not reading.program and identical is None
    if in_place:
        with memoryview(data) as view, view[:whole] as frames:
            text = str(frames, "latin-1")
    else:
        text = ""
    kept_passed = judge is not None and judge.keeps_passed
    index = first
    position = 0
    while position < whole:
        (size,) = unpack_header(data, position)
        start = position + header
        position = start + size
        if identical is not None and size >= prefix and data[start] == ok_code and identical(
                index, data, start + prefix, position):
            value = expected[index] if kept_passed else None
            judged.append((Outcome(Status.OK, value, None, unpack_seconds(data, start + 1)[0]),
                           True))
            index += 1
            continue
        if in_place and size >= prefix and data[start] == ok_code:
            seconds = unpack_seconds(data, start + 1)[0]
            most = reading.values(index) if size - prefix > SLACK_VALUES else None
            if most is not None and size - prefix > most and values(
                    data, start + prefix, position) > most:
                judged.append((too_large(f"more than {most} values", seconds), False))
                index += 1
                continue
            try:
                value, stop = scan_at(text, start + prefix)
            except (StopIteration, ValueError, RecursionError):
                stop = -1
            if stop == position:
                judged.append(_judged(judge, index, value, seconds, size - prefix))
                index += 1
                continue
        if size < _CHUNK:
            judged.append(_outcome(data[start:position], index, reading, CHILD_STATUSES))
        else:  # a program's stdout, say: read where it is
            with memoryview(data) as view, view[start:position] as body:
                judged.append(_outcome(body, index, reading, CHILD_STATUSES))
        index += 1
    return judged, whole


class _Stream:
    """A supervisor's frames as they arrive on ``fd``, read a chunk at a time: the parent
    holds a frame only as far as it reads it (a part it skips is read and dropped)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.data = bytearray()
        #: When the frame being read is late (monotonic seconds).
        self.deadline = 0.0

    def _read(self, most: int) -> bytes:
        remaining = max(0.0, self.deadline - time.monotonic())
        # Late: one last look, as a reply that came while the parent was busy is a reply.
        if not select.select([self.fd], [], [], remaining)[0]:
            raise FrameError(Status.TIMEOUT, "no reply")
        chunk = os.read(self.fd, most)
        if not chunk:
            raise FrameError(Status.CRASH, "no reply")
        return chunk

    def need(self, size: int) -> None:
        """Hold at least ``size`` bytes."""
        while len(self.data) < size:
            self.data += self._read(_CHUNK)

    def take(self, size: int) -> bytes:
        """The next ``size`` bytes."""
        self.need(size)
        with memoryview(self.data) as view, view[:size] as head:
            taken = bytes(head)
        del self.data[:size]
        return taken

    def skip(self, size: int) -> None:
        """Drop the next ``size`` bytes, reading those not held yet without keeping them."""
        held = min(size, len(self.data))
        del self.data[:held]
        size -= held
        while size:
            size -= len(self._read(min(size, _CHUNK)))


def _too_long(head: Bytes, size: int, index: int, reading: Reading) -> Outcome:
    """The outcome of a child frame of ``size`` bytes, past its output's allowance, from its
    first bytes ``head`` (the rest was skipped): an output too large, or an error whose text
    is cut."""
    (status, fault), seconds, payload = split_body(head, CHILD_STATUSES)
    if status is Status.OK:
        return too_large(f"more than {reading.payload_bytes(index)} bytes", seconds)
    return Outcome(status, None, error_text(payload[:ERROR_BYTES]), seconds, fault)


def _read_run(stream: _Stream, left: int, first: int, reading: Reading,
              take: Callable[[Judged], bool]) -> bool:
    """Read the child frames of a RUN frame (``left`` bytes), ``first`` the first one's
    input index, handing their judged outcomes to ``take`` in order, a batch at a time,
    until it answers True (the job may end): then skip the rest of the frame and answer
    True.

    The whole frames held are parsed together (:func:`_parse_run`); a frame within its
    allowance but not held yet is read whole first; one past it is skipped, never held.
    """
    index = first
    while left:
        if left < HEADER.size:
            raise ValueError("a child frame runs past its run")
        stream.need(HEADER.size)
        judged, used = _parse_run(stream.data, min(left, len(stream.data)), index, reading)
        if used:
            del stream.data[:used]
            left -= used
            index += len(judged)
            if take(judged):
                stream.skip(left)
                return True
            continue
        (size,) = HEADER.unpack_from(stream.data, 0)
        if HEADER.size + size > left:
            raise ValueError("a child frame runs past its run")
        if size <= PREFIX + reading.payload_bytes(index):
            stream.need(HEADER.size + size)
            continue
        stream.skip(HEADER.size)
        head = stream.take(min(size, PREFIX + ERROR_BYTES))
        stream.skip(size - len(head))
        left -= HEADER.size + size
        if take([(_too_long(head, size, index, reading), False)]):
            stream.skip(left)
            return True
        index += 1
    return False


def _body(stream: _Stream, size: int) -> Bytes:
    """A supervisor's own outcome body of ``size`` bytes, its error text cut at
    :data:`ERROR_BYTES` (the rest skipped)."""
    body = stream.take(min(size, PREFIX + ERROR_BYTES))
    stream.skip(size - len(body))
    return body


class _Tally:
    """A job's outcomes so far, and whether it may end (``max_failures``: failed outputs,
    where it is judged; ``max_timeouts``: timeouts and costly calls; ``max_seconds``: the
    outcomes' seconds in all)."""

    def __init__(self, reading: Reading, max_failures: int | None,
                 max_timeouts: int | None, max_seconds: float | None = None) -> None:
        self.judged = reading.judge is not None
        self.max_failures = max_failures if self.judged else None
        self.max_timeouts = max_timeouts
        self.max_seconds = max_seconds
        self.outcomes: list[Outcome] = []
        self.passed: list[bool] = []
        self.failures = self.timeouts = 0
        self.seconds = 0.0

    def add(self, judged: Judged) -> bool:
        """Keep ``judged`` in order; True (the rest dropped) once the job may end."""
        most_failures, most_timeouts = self.max_failures, self.max_timeouts
        most_seconds = self.max_seconds
        if most_failures is None and most_timeouts is None and most_seconds is None:
            self.outcomes += [outcome for outcome, _ in judged]
            self.passed += [ok for _, ok in judged]
            return False
        failures, timeouts, seconds = self.failures, self.timeouts, self.seconds
        outcomes, passed = self.outcomes, self.passed
        ended = False
        for outcome, ok in judged:
            outcomes.append(outcome)
            passed.append(ok)
            seconds += outcome.seconds
            if most_seconds is not None and seconds >= most_seconds:
                ended = True
                break
            if ok:
                continue
            failures += 1
            timeouts += too_costly(outcome)
            if ((most_failures is not None and failures >= most_failures)
                    or (most_timeouts is not None and timeouts >= most_timeouts)):
                ended = True
                break
        self.failures, self.timeouts, self.seconds = failures, timeouts, seconds
        return ended


def converse(fd_in: int, fd_out: int, payload: bytes, reading: Reading, fail_fast: bool,
             patience: float, max_timeouts: int | None = None,
             max_failures: int | None = None, max_seconds: float | None = None) -> JobResult:
    """Send a job (its frame ``payload``) to the supervisor on ``fd_in``, read its replies on
    ``fd_out`` as they come and judge each output; answer ``stop`` once the job may end
    (``fail_fast``: the first failure; ``max_timeouts``, ``max_failures``, ``max_seconds``).
    Each frame is due within ``patience`` seconds. Raises FrameError, OSError or ValueError
    where the supervisor fails."""
    write_frame(fd_in, payload)
    stream = _Stream(fd_out)
    tally = _Tally(reading, 1 if fail_fast else max_failures, max_timeouts, max_seconds)
    stopped = False
    while True:
        stream.deadline = time.monotonic() + patience
        (size,) = HEADER.unpack(stream.take(HEADER.size))
        if size < 1:
            raise ValueError("an empty frame from the supervisor")
        kind, size = stream.take(1), size - 1
        if kind == DONE:
            (status, fault), seconds, text = split_body(_body(stream, size), STATUSES)
            load = Outcome(status, None, None if status is Status.OK else error_text(text),
                           seconds, fault)
            return JobResult(load, tuple(tally.outcomes),
                             tuple(tally.passed) if tally.judged else ())
        if stopped:
            stream.skip(size)  # outcomes the supervisor sent before it saw our "stop"
            continue
        if kind not in (RUN, BROKEN) or size < INDEX.size:
            raise ValueError("unknown frame from the supervisor")
        if INDEX.unpack(stream.take(INDEX.size))[0] != len(tally.outcomes):
            raise ValueError("supervisor skipped an input")
        size -= INDEX.size
        if kind == RUN:
            if _read_run(stream, size, len(tally.outcomes), reading, tally.add):
                write_frame(fd_in, STOP)
                stopped = True
            continue
        stopped = tally.add([_outcome(_body(stream, size), len(tally.outcomes), reading,
                                      STATUSES)])
        write_frame(fd_in, STOP if stopped else CONTINUE)
