"""Progress of a long command: done of total, rate and time left, on a terminal or a log.

In a terminal one line is redrawn (a bar, ``n/N``, rate, ETA); elsewhere (nohup, CI, a
cluster job's log) a plain line is written every :data:`PLAIN_SECONDS`, whatever the
number of items done in between (a heartbeat thread writes it when no item ends for that
long), plus one when the work is done or stops. Lines go to the stream's file descriptor
in one ``write`` each: no Python-level lock is held that a forked worker could inherit.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Callable
from typing import TextIO

#: Seconds between two plain lines (no terminal).
PLAIN_SECONDS = 5.0
#: Seconds between two redraws of the terminal's line as items end, and with none ending.
REDRAW_SECONDS = 0.1
BEAT_SECONDS = 1.0
BAR_WIDTH = 24


def clock_text(seconds: float) -> str:
    """``1:02:03``, ``2:03``, ``0:05``: whole seconds as a clock reads."""
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def rate_text(per_second: float) -> str:
    """``12.0/s``, or per minute or hour where that reads better (``3.0/min``)."""
    for unit, scale in (("s", 1), ("min", 60), ("h", 3600)):
        if per_second * scale >= 1 or unit == "h":
            return f"{per_second * scale:.1f}/{unit}"
    raise AssertionError("unreachable")


def status(done: int, total: int, start: int, elapsed: float) -> str:
    """``37/164 (23%), 0.5/s, ETA 4:04`` where ``start`` of them were done before the
    clock started (resumed work: not counted in the rate)."""
    percent = 100 * done // total if total else 100
    text = f"{done}/{total} ({percent}%)"
    if done >= total:
        return text + f" in {clock_text(elapsed)}" + (
            f", {rate_text((done - start) / elapsed)}" if done > start and elapsed > 0 else "")
    if done <= start or elapsed <= 0:
        return text + ", ETA unknown"
    per_second = (done - start) / elapsed
    return text + f", {rate_text(per_second)}, ETA {clock_text((total - done) / per_second)}"


def bar(done: int, total: int, width: int = BAR_WIDTH) -> str:
    """``[#####-----]``: ``done`` of ``total`` in ``width`` cells."""
    filled = width * min(done, total) // total if total else width
    return "[" + "#" * filled + "-" * (width - filled) + "]"


class Meter:
    """The progress of one stage (``label``) on ``stream``, fed ``(done, total)`` as work
    ends (:data:`evalplus_ng.pipeline.context.Progress`). ``tty`` (default: whether the
    stream is a terminal) chooses the redrawn line or the plain lines."""

    def __init__(self, label: str, stream: TextIO, tty: bool | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 interval: float = PLAIN_SECONDS) -> None:
        self.label = label
        self.stream = stream
        self.tty = stream.isatty() if tty is None else tty
        self.clock = clock
        self.interval = REDRAW_SECONDS if self.tty else interval
        self.beat = BEAT_SECONDS if self.tty else interval
        self.began = 0.0
        self.start = 0  # done when the first update came
        self.done = self.total = 0
        self.shown: float | None = None  # when the last line was written
        self.said = (-1, -1)  # (done, total) of the last line written
        self.width = 0  # of the terminal line drawn
        self.lock = threading.Lock()
        self.stopped = threading.Event()
        self.heart: threading.Thread | None = None

    def __enter__(self) -> Meter:
        self.heart = threading.Thread(target=self._beat, name=f"meter: {self.label}",
                                      daemon=True)
        self.heart.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def update(self, done: int, total: int) -> None:
        """``done`` of ``total`` are finished; writes a line if it is time to."""
        with self.lock:
            now = self.clock()
            if self.shown is None:
                self.began, self.start = now, done
            self.done, self.total = done, total
            if self.shown is None or done >= total or now - self.shown >= self.interval:
                self._show(now)

    def tick(self) -> None:
        """The heartbeat: the line again (its rate and ETA) where none was written for
        an interval; nothing before the first update."""
        with self.lock:
            now = self.clock()
            if self.shown is not None and now - self.shown >= self.beat:
                self._show(now)

    def close(self) -> None:
        """The stage ended (or stopped): its last state, if not yet written, and in a
        terminal the end of the line."""
        self.stopped.set()
        if self.heart is not None:
            self.heart.join()
            self.heart = None
        with self.lock:
            if self.shown is None:
                return
            if self.said != (self.done, self.total):
                self._show(self.clock())
            if self.tty:
                self._write("\n")
            self.shown = None

    def _beat(self) -> None:
        while not self.stopped.wait(self.beat / 2):
            self.tick()

    def _write(self, text: str) -> None:
        try:
            fd = self.stream.fileno()
        except (AttributeError, OSError, ValueError):  # not a file (a test's stream)
            self.stream.write(text)
            self.stream.flush()
            return
        data = text.encode("utf-8", "replace")
        while data:
            data = data[os.write(fd, data):]

    def _show(self, now: float) -> None:
        if (self.done, self.total) == self.said and not self.tty and self.done >= self.total:
            return
        text = status(self.done, self.total, self.start, now - self.began)
        if self.tty:
            columns = shutil.get_terminal_size().columns
            line = f"{self.label} {bar(self.done, self.total)} {text}"[: max(columns - 1, 10)]
            self._write("\r" + line.ljust(self.width))
            self.width = len(line)
        else:
            self._write(f"{self.label}: {text}\n")
        self.shown, self.said = now, (self.done, self.total)
