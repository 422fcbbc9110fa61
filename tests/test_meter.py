"""Progress lines (n/N, rate, ETA): the texts, and when a line is written, on a fake clock."""

from __future__ import annotations

import io
import time

from evalplus_ng.meter import Meter, bar, clock_text, rate_text, status


def test_texts() -> None:
    assert [clock_text(s) for s in (0, 5.9, 125, 3725)] == ["0:00", "0:05", "2:05", "1:02:05"]
    assert [rate_text(r) for r in (12.0, 0.5, 1 / 600, 1e-6)] == [
        "12.0/s", "30.0/min", "6.0/h", "0.0/h"]
    assert bar(1, 4, 8) == "[##------]" and bar(0, 0, 2) == "[##]"
    assert status(37, 164, 0, 74.0) == "37/164 (22%), 30.0/min, ETA 4:14"
    assert status(10, 20, 10, 3.0) == "10/20 (50%), ETA unknown"  # resumed: no rate yet
    assert status(20, 20, 10, 5.0) == "20/20 (100%) in 0:05, 2.0/s"


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_without_a_terminal_a_line_every_few_seconds_not_per_item() -> None:
    stream, clock = io.StringIO(), _Clock()
    with Meter("judging", stream, tty=False, clock=clock, interval=5.0) as meter:
        for done in range(1, 101):  # an item every 0.1 s: one line per 5 s
            meter.update(done, 100)
            clock.now += 0.1
    lines = stream.getvalue().splitlines()
    assert lines[0] == "judging: 1/100 (1%), ETA unknown"
    assert lines[1].startswith("judging: 52/100 (52%), 10.0/s, ETA 0:04")
    assert lines[-1] == "judging: 100/100 (100%) in 0:09, 10.0/s"
    assert len(lines) == 3


def test_a_stop_writes_how_far_it_got_and_a_terminal_line_is_redrawn() -> None:
    stream, clock = io.StringIO(), _Clock()
    with Meter("augmenting", stream, tty=False, clock=clock) as meter:
        meter.update(3, 10)  # three resumed from checkpoints
        clock.now = 2.0
        meter.update(4, 10)
    assert stream.getvalue().splitlines() == [
        "augmenting: 3/10 (30%), ETA unknown",
        "augmenting: 4/10 (40%), 30.0/min, ETA 0:12"]
    stream = io.StringIO()
    with Meter("calibrating", stream, tty=True, clock=clock) as meter:
        meter.update(0, 4)
        clock.now += 1
        meter.update(4, 4)
    text = stream.getvalue()
    assert text.startswith("\rcalibrating [") and text.endswith("4/4 (100%) in 0:01, 4.0/s\n")
    assert "\n" not in text[:-1]


def test_the_heartbeat_writes_when_no_item_ends() -> None:
    stream, clock = io.StringIO(), _Clock()
    meter = Meter("judging", stream, tty=False, clock=clock, interval=5.0)
    meter.tick()  # nothing before the first update
    meter.update(1, 10)
    clock.now = 4.0
    meter.tick()
    clock.now = 6.0
    meter.tick()
    clock.now = 9.0
    meter.tick()
    meter.close()
    assert stream.getvalue().splitlines() == [
        "judging: 1/10 (10%), ETA unknown", "judging: 1/10 (10%), ETA unknown"]
    stream = io.StringIO()  # the thread itself, on the real clock
    with Meter("waiting", stream, tty=False, interval=0.02) as meter:
        meter.update(0, 3)
        time.sleep(0.2)
    assert stream.getvalue().count("waiting: 0/3 (0%), ETA unknown\n") >= 3
