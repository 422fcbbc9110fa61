"""The wire between the parent, its supervisors and their children.

Frames (a 4-byte big-endian length, then a body), outcome bodies (a kind byte: the
status, and for an error its fault; the seconds, then a JSON text, a program's stdout or
an error text), the kinds of message, the JSON text of outputs, and :class:`Limits`,
which all three processes share. See :mod:`evalplus_ng.sandbox` for who sends what.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import select
import struct
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import cast

from evalplus_ng.records import Fault, Status
from evalplus_ng.types import Wire

HEADER = struct.Struct(">I")
SECONDS = struct.Struct(">d")
INDEX = struct.Struct(">I")
#: An outcome's kind: its status, and for an error (:attr:`Status.ERROR`) its fault.
Kind = tuple[Status, "Fault | None"]
#: Outcome bodies start with one of these kind bytes, then the seconds.
CODES: dict[Kind, bytes] = {
    (Status.OK, None): b"o", (Status.TIMEOUT, None): b"t", (Status.CRASH, None): b"c",
    (Status.BAD_OUTPUT, None): b"b", (Status.ERROR, Fault.RAISED): b"e",
    (Status.ERROR, Fault.RECURSION): b"r", (Status.ERROR, Fault.COST): b"l",
    (Status.ERROR, Fault.TOO_LARGE): b"g", (Status.ERROR, Fault.UNSTABLE): b"u",
}
#: Kind by first byte of an outcome body.
STATUSES: dict[int, Kind] = {code[0]: kind for kind, code in CODES.items()}
#: What a child may report; timeouts and crashes are the supervisor's to say.
CHILD_STATUSES = {code: kind for code, kind in STATUSES.items()
                  if kind[0] in (Status.OK, Status.ERROR, Status.BAD_OUTPUT)}
PREFIX = 1 + SECONDS.size
OK_CODE = CODES[Status.OK, None][0]
#: Pipe buffer asked for (the default is 64 KiB; Linux allows 1 MiB unprivileged).
_PIPE_BYTES = 1 << 20
# Parent -> supervisor frames: a job (b"J" + pickle), or an answer.
JOB, STOP, CONTINUE = b"J", b"S", b"C"
# Supervisor -> parent frames: a run of child frames, one outcome of its own, done.
RUN, BROKEN, DONE = b"R", b"B", b"D"


def _text_encoder() -> Callable[[Wire], str]:
    """Compact ASCII JSON text of a wire tree, the same in the child and in the parent.

    The C encoder is called directly: ``JSONEncoder.encode`` consults the builtin
    ``isinstance``, which a sample may have replaced by the time its output is encoded.
    """
    encoder = json.JSONEncoder(separators=(",", ":"))
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:  # pragma: no cover - CPython always has it
        return encoder.encode
    encode = make(None, encoder.default, json.encoder.encode_basestring_ascii, None, ":", ",",
                  False, False, True)
    return lambda wire: "".join(encode(wire, 0))


value_text = _text_encoder()


#: The C scanner, called directly: ``JSONDecoder.decode`` first runs a regular expression
#: over the text for whitespace, which costs more than the parse of a small value.
scan = json.scanner.make_scanner(json.JSONDecoder())  # type: ignore[attr-defined]


def parse(text: str) -> Wire:
    """Parse a compact JSON text (as :func:`_text_encoder` writes) into a wire tree;
    trailing data is an error, as it is for ``json.loads``."""
    try:
        value, end = scan(text, 0)
    except StopIteration as exc:
        raise ValueError(f"expecting a value at {exc.value}") from None
    if end != len(text):
        raise ValueError(f"extra data at {end}")
    return cast(Wire, value)


@dataclass(frozen=True)
class Limits:
    """Resource limits for one child process."""

    memory_bytes: int = 4 << 30
    file_bytes: int = 16 << 20
    load_seconds: float = 10.0
    output_bytes: int = 64 << 20


# --------------------------------------------------------------------------- frames


def write_frame(fd: int, data: bytes) -> None:
    view = memoryview(HEADER.pack(len(data)) + data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _read_exact(fd: int, size: int, deadline: float | None) -> bytes | None:
    """Read ``size`` bytes; None on EOF or when ``deadline`` (monotonic) passes."""
    chunks: list[bytes] = []
    while size:
        if deadline is not None:
            remaining = max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([fd], [], [], remaining)  # late: one last look
            if not ready:
                return None
        chunk = os.read(fd, min(size, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


class FrameError(Exception):
    """A frame was late, truncated or oversized."""

    def __init__(self, status: Status, detail: str) -> None:
        super().__init__(detail)
        self.status = status


def read_frame(fd: int, deadline: float | None, max_bytes: int) -> bytes:
    header = _read_exact(fd, HEADER.size, deadline)
    if header is None:
        late = deadline is not None and time.monotonic() >= deadline
        raise FrameError(Status.TIMEOUT if late else Status.CRASH, "no reply")
    (size,) = HEADER.unpack(header)
    if size > max_bytes:
        raise FrameError(Status.BAD_OUTPUT, f"output larger than {max_bytes} bytes")
    body = _read_exact(fd, size, deadline)
    if body is None:
        raise FrameError(Status.TIMEOUT, "reply cut short")
    return body


def widen(fd: int) -> None:
    """Give a pipe a larger buffer: fewer context switches when outputs are large."""
    with contextlib.suppress(OSError, AttributeError):
        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, _PIPE_BYTES)


def outcome_body(status: Status, seconds: float, text: str | None = None,
                 fault: Fault | None = None) -> bytes:
    """An outcome body made by trusted code (the supervisor, or the child's own loop)."""
    payload = b"" if text is None else text.encode("utf-8", "backslashreplace")
    return CODES[status, fault] + SECONDS.pack(seconds) + payload


#: Bytes as frames are read: whole, or a view on a part of some.
Bytes = bytes | bytearray | memoryview


def split_body(body: Bytes, allowed: Mapping[int, Kind]) -> tuple[Kind, float, Bytes]:
    """Kind, seconds and payload of an outcome body (the payload a view where ``body`` is
    one); anything malformed is bad output.

    ``allowed`` maps the kind bytes the sender may use to their kinds.
    """
    kind = allowed.get(body[0]) if len(body) >= PREFIX else None
    if kind is None:
        return (Status.BAD_OUTPUT, None), 0.0, b"malformed reply"
    return kind, SECONDS.unpack_from(body, 1)[0], body[PREFIX:]


def error_text(payload: Bytes) -> str:
    return str(payload, "utf-8", "replace")


def describe_error(exc: BaseException) -> str:
    """``Type: message`` of an exception a child caught, its message cut at 200 characters
    (``str`` of untrusted code's exception may raise: then ``?``)."""
    try:
        text = str(exc)
    except BaseException:
        text = "?"
    return f"{type(exc).__name__}: {text[:200]}"

