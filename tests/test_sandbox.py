"""Integration tests of the sandbox: plain behaviour, then a corpus of hostile samples.

Every hostile sample in ``tests/hostile/`` defines ``f(x)`` for a task whose right
answer is ``x + 1`` and must not pass; a correct sample run next on the same worker
must still pass. The hostile corpus assumes the root path of the sandbox (private
uid, capabilities, network namespace), which is how CI runs.
"""

from __future__ import annotations

import ast
import contextlib
import math
import os
import select
import shutil
import socket
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import NamedTuple, cast

import pytest
from sandboxmark import MARK, marking  # tests/ is on the path, as pytest runs

from evalplus_ng.errors import SandboxError
from evalplus_ng.judge import JUDGE, check
from evalplus_ng.records import COST_EXCEEDED, UNSTABLE, Fault, Job, JobResult, Kept, Status
from evalplus_ng.sandbox import UID_BASE, Limits, Sandbox, environ
from evalplus_ng.sandbox.replies import FIRST_FAILED_BYTES
from evalplus_ng.sandbox.zygote import Zygote
from evalplus_ng.serialize import decode, dumps, encode, loads
from evalplus_ng.types import Wire

HOSTILE_DIR = Path(__file__).parent / "hostile"
IS_ROOT = os.geteuid() == 0
requires_root = pytest.mark.skipif(
    not IS_ROOT,
    reason="hostile samples are only contained on the root path (private uid, capabilities, "
    "network namespace); as a non-root user the sandbox is best effort by design",
)

#: Per-input time limit of the fast tests, in seconds.
LIMIT = 0.5
FAST = Limits(memory_bytes=1 << 30, load_seconds=2.0)
#: Wall-time bound that proves a limit was enforced (far above every limit used).
WALL_SECONDS = 10.0

GOOD = "def f(x):\n    return x + 1\n"


def _job(
    code: str,
    xs: Sequence[int] = (1, 2),
    *,
    limit: float = LIMIT,
    judged: bool = True,
    fail_fast: bool = True,
) -> Job:
    """A job on the ``x + 1`` task over the inputs ``xs``."""
    return Job(
        code=code,
        entry_point="f",
        inputs=[encode([x]) for x in xs],
        time_limits=[limit] * len(xs),
        expected=[encode(x + 1) for x in xs] if judged else None,
        fail_fast=fail_fast,
    )


def _statuses(result: JobResult) -> list[Status]:
    return [outcome.status for outcome in result.outcomes]


# --------------------------------------------------------------------------- processes


class _Process(NamedTuple):
    pid: int
    name: str
    uid: int
    ppid: int
    zombie: bool
    marked: bool


def _processes(marker: str) -> Iterator[_Process]:
    """Every process on the machine; ``marked`` when it carries ``marker`` in its environment.

    A process whose environment cannot be read counts as marked.
    """
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            lines = (proc / "status").read_text().splitlines()
            try:
                marked = f"{MARK}={marker}".encode() in (proc / "environ").read_bytes()
            except PermissionError:
                marked = True
        except OSError:
            continue  # the process ended while we looked
        fields = dict(line.split(":\t", 1) for line in lines if ":\t" in line)
        yield _Process(
            int(proc.name),
            fields["Name"],
            int(fields["Uid"].split()[0]),
            int(fields["PPid"]),
            fields["State"].startswith("Z"),
            marked,
        )


def _leftovers(marker: str) -> list[_Process]:
    """Processes a sandbox tagged with ``marker`` left behind.

    That is a child of this test process, or a live process running as a sandbox
    uid (``>= UID_BASE``). The marker, inherited through the environment, keeps
    sandboxes of other test runs on the same machine out of the count.
    """
    me = os.getpid()
    return [
        proc
        for proc in _processes(marker)
        if (proc.ppid == me and (proc.zombie or proc.marked))
        or (proc.uid >= UID_BASE and proc.marked and not proc.zombie)
    ]


def _wait_for_no_leftovers(marker: str, seconds: float = 5.0) -> list[_Process]:
    """Leftovers that are still there after ``seconds`` (a SIGKILL is not instant)."""
    deadline = time.monotonic() + seconds
    while (found := _leftovers(marker)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return found


def tag(patch: pytest.MonkeyPatch, value: str) -> None:
    """Tag every sandbox process started from now on with ``value``: the environment the
    sandbox gives them (an allow-list) gets :data:`MARK` (:mod:`sandboxmark`)."""
    patch.setenv(MARK, value)
    patch.setattr(environ, "child_environment", marking(environ.child_environment))


@pytest.fixture
def marker(monkeypatch: pytest.MonkeyPatch) -> str:
    """Tag every supervisor started during the test."""
    value = uuid.uuid4().hex
    tag(monkeypatch, value)
    return value


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    """One worker shared by the tests that do not need their own limits.

    Its own marker keeps its supervisor out of other tests' leftover counts.
    """
    with pytest.MonkeyPatch.context() as patch:
        tag(patch, uuid.uuid4().hex)
        with Sandbox(1, FAST, judge=JUDGE) as box:
            yield box


# --------------------------------------------------------------------------- plain behaviour


def test_outcomes_come_back_in_input_order(sandbox: Sandbox) -> None:
    xs = list(range(10))
    result = sandbox.run(_job("def f(x):\n    return x * 10\n", xs, judged=False))
    assert result.load.status is Status.OK
    assert [outcome.value for outcome in result.outcomes] == [x * 10 for x in xs]
    assert _statuses(result) == [Status.OK] * len(xs)
    assert result.passed == ()  # nothing to judge without expected outputs
    assert not result.all_passed


def test_a_correct_sample_passes(sandbox: Sandbox) -> None:
    result = sandbox.run(_job(GOOD, (1, 2, 3)))
    assert result.passed == (True, True, True)
    assert result.all_passed


STATUS_SAMPLE = """\
import ctypes
import os


def f(x):
    if x == 0:
        return [x]
    if x == 1:
        raise ValueError("boom")
    if x == 2:
        while True:
            pass
    if x == 3:
        os._exit(3)
    if x == 4:
        ctypes.string_at(0)
    return object()
"""


def test_each_status_and_its_error_text(sandbox: Sandbox) -> None:
    # Unjudged jobs never stop early: the child is restarted after the timeout and crashes.
    result = sandbox.run(_job(STATUS_SAMPLE, range(6), judged=False))
    assert _statuses(result) == [
        Status.OK,
        Status.ERROR,
        Status.TIMEOUT,
        Status.CRASH,
        Status.CRASH,
        Status.BAD_OUTPUT,
    ]
    ok, error, timeout, exited, segfault, bad = result.outcomes
    assert ok.value == [0]
    assert ok.error is None
    assert error.error == "ValueError: boom"
    assert error.value is None
    assert timeout.error == "no reply"
    assert timeout.seconds >= LIMIT
    assert exited.error == "exited with code 3"
    assert segfault.error == "killed by signal SIGSEGV"
    assert bad.error is not None
    assert bad.error.startswith("Unserializable: object")


WRONG_AT_2 = "def f(x):\n    return -1 if x == 2 else x + 1\n"
LOOPS_AT_2 = "def f(x):\n    while x == 2:\n        pass\n    return x + 1\n"
EXITS_AT_2 = "import os\n\n\ndef f(x):\n    if x == 2:\n        os._exit(1)\n    return x + 1\n"


@pytest.mark.parametrize(
    ("code", "status"),
    [(WRONG_AT_2, Status.OK), (LOOPS_AT_2, Status.TIMEOUT), (EXITS_AT_2, Status.CRASH)],
    ids=["wrong", "timeout", "crash"],
)
def test_fail_fast_stops_after_the_first_failing_input(
    sandbox: Sandbox, code: str, status: Status
) -> None:
    result = sandbox.run(_job(code, (1, 2, 3, 4), fail_fast=True))
    assert _statuses(result) == [Status.OK, status]
    assert result.passed == (True, False)
    assert not result.all_passed


@pytest.mark.parametrize(
    ("code", "status"),
    [(WRONG_AT_2, Status.OK), (LOOPS_AT_2, Status.TIMEOUT), (EXITS_AT_2, Status.CRASH)],
    ids=["wrong", "timeout", "crash"],
)
def test_without_fail_fast_later_inputs_still_run(
    sandbox: Sandbox, code: str, status: Status
) -> None:
    result = sandbox.run(_job(code, (1, 2, 3, 4), fail_fast=False))
    assert _statuses(result) == [Status.OK, status, Status.OK, Status.OK]
    assert [result.outcomes[i].value for i in (0, 2, 3)] == [2, 4, 5]
    assert result.passed == (True, False, True, True)


def test_max_timeouts_stops_a_job_that_keeps_timing_out(sandbox: Sandbox) -> None:
    code = "def f(x):\n    while x % 2 == 0:\n        pass\n    return x + 1\n"
    job = replace(_job(code, (1, 2, 3, 4, 5, 6, 7), fail_fast=False), max_timeouts=2)
    result = sandbox.run(job)
    assert _statuses(result) == [Status.OK, Status.TIMEOUT, Status.OK, Status.TIMEOUT]
    assert result.passed == (True, False, True, False)
    unlimited = sandbox.run(replace(job, max_timeouts=None, inputs=job.inputs[:5],
                                    time_limits=job.time_limits[:5], expected=job.expected[:5]))
    assert len(unlimited.outcomes) == 5


def test_max_seconds_stops_a_job_once_its_inputs_took_that_long(sandbox: Sandbox) -> None:
    # --test-details ran every input of a looping sample, a whole limit each.
    code = "def f(x):\n    while x > 2:\n        pass\n    return x + 1\n"
    job = replace(_job(code, tuple(range(1, 21)), limit=0.2, fail_fast=False),
                  max_seconds=1.0)
    began = time.monotonic()
    result = sandbox.run(job)
    assert _statuses(result)[:3] == [Status.OK, Status.OK, Status.TIMEOUT]
    # It stops at the first input that brings the seconds to 1.0 (a timeout counts what it
    # took, its limit and the grace of killing it).
    seconds = [outcome.seconds for outcome in result.outcomes]
    assert sum(seconds[:-1]) < 1.0 <= sum(seconds) and len(seconds) < 20
    assert result.passed[:2] == (True, True) and not any(result.passed[2:])
    assert time.monotonic() - began < 0.2 * 18
    every = sandbox.run(replace(job, max_seconds=None, inputs=job.inputs[:10],
                                time_limits=job.time_limits[:10], expected=job.expected[:10]))
    assert len(every.outcomes) == 10


def test_a_job_may_keep_its_first_wrong_output_alone_and_only_a_short_one(
        sandbox: Sandbox) -> None:
    # What a failure's diff shows; a result waiting in the parent holds no more than that.
    code = "def f(x):\n    return x + 1 if x == 1 else ('y' * 20000 if x == 4 else -x)\n"
    job = replace(_job(code, (1, 2, 3), fail_fast=False), kept=Kept.FIRST_FAILED)
    assert [o.value for o in sandbox.run(job).outcomes] == [None, -2, None]
    long_first = replace(_job(code, (4, 2), fail_fast=False), kept=Kept.FIRST_FAILED)
    assert [o.value for o in sandbox.run(long_first).outcomes] == [None, None]
    assert FIRST_FAILED_BYTES < 20000


def test_max_failures_stops_a_job_after_that_many_failures(sandbox: Sandbox) -> None:
    job = replace(_job("def f(x):\n    return x + x % 2\n", (1, 2, 3, 4, 5, 6, 7),
                       fail_fast=False), max_failures=3)
    result = sandbox.run(job)
    assert result.passed == (True, False, True, False, True, False)


def test_a_timeout_restarts_the_child(sandbox: Sandbox) -> None:
    # Each child loads the code afresh and draws its own token (pids say nothing: every
    # child is pid 1 of its own namespace).
    code = ("import os\n\nTOKEN = os.urandom(8).hex()\n\n\ndef f(x):\n    while x == 2:\n"
            "        pass\n    return TOKEN\n")
    result = sandbox.run(_job(code, (1, 2, 3, 4), judged=False))
    assert _statuses(result) == [Status.OK, Status.TIMEOUT, Status.OK, Status.OK]
    before, _, after, last = (outcome.value for outcome in result.outcomes)
    assert before != after  # a fresh child ran the inputs after the timeout
    assert after == last


@pytest.mark.parametrize(
    ("code", "error"),
    [
        ("def f(x) return x\n", "SyntaxError"),
        ("undefined_name + 1\n\n\ndef f(x):\n    return x + 1\n", "NameError"),
        ("raise ValueError('at import')\n", "ValueError: at import"),
        ("def g(x):\n    return x + 1\n", "KeyError: 'f'"),
        ("f = 3\n", "TypeError: f is not callable"),
        # Annotations are evaluated, as in a plain interpreter and in EvalPlus: the
        # sandbox's own ``from __future__ import annotations`` does not reach the sample.
        ("def f(x: List[int]) -> int:\n    return x + 1\n", "NameError: name 'List'"),
    ],
    ids=["syntax", "undefined-name", "raises-at-import", "no-entry-point", "not-callable",
         "unimported-annotation"],
)
def test_a_load_error_gives_an_error_load_and_no_outcomes(
    sandbox: Sandbox, code: str, error: str
) -> None:
    result = sandbox.run(_job(code))
    assert result.load.status is Status.ERROR
    assert result.load.error is not None
    assert result.load.error.startswith(error)
    assert result.outcomes == ()
    assert not result.all_passed


def test_a_module_that_never_finishes_loading_times_out(sandbox: Sandbox) -> None:
    began = time.monotonic()
    result = sandbox.run(_job("while True:\n    pass\n"))
    assert time.monotonic() - began < WALL_SECONDS
    assert result.load.status is Status.TIMEOUT
    assert result.outcomes == ()


# Evaluated both here and inside the sample, so the two sides build the same values.
VALUES_SOURCE = """\
VALUES = [
    (1, "two", 3.5),
    {1, 2, 3},
    frozenset({"a", "b"}),
    {(1, 2): "pair", (3,): [4, 5]},
    [[1, [2, (3, {4: {5}})]], {"key": (None, b"")}],
    float("nan"),
    float("-inf"),
    10**5001 + 7,
    -(10**5001),
    b"\\x00\\xffbytes",
    None,
    True,
    1.0,
    1,
    "\\u00fcn\\u00efcode",
    complex(1.5, -2),
    [],
]
"""


def _identical(a: object, b: object) -> bool:
    """Equal with the same types all the way down; NaN is identical to NaN."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(map(_identical, a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_identical(v, b[k]) for k, v in a.items())
    if isinstance(a, set | frozenset) and isinstance(b, set | frozenset):
        return {(type(v), v) for v in a} == {(type(v), v) for v in b}
    return a == b


def test_every_plain_type_returns_intact(sandbox: Sandbox) -> None:
    namespace: dict[str, list[object]] = {}
    exec(VALUES_SOURCE, namespace)
    values = namespace["VALUES"]
    code = VALUES_SOURCE + "\n\ndef f(i):\n    return VALUES[i]\n"
    inputs = [encode([i]) for i in range(len(values))]
    plain = sandbox.run(Job(code, "f", inputs, [2.0] * len(values)))
    assert _statuses(plain) == [Status.OK] * len(values)
    for value, outcome in zip(values, plain.outcomes, strict=True):
        assert _identical(decode(outcome.value), value), repr(value)[:80]
    judged = sandbox.run(
        Job(code, "f", inputs, [2.0] * len(values), expected=[encode(v) for v in values])
    )
    assert judged.all_passed


# Outputs whose JSON text equals the expected output's text pass without the full
# typed check, except where that check says otherwise: NaN inside sets and dict
# keys (NaN != NaN there), and tasks with their own oracle.
JUDGED_VALUES = """\
VALUES = [
    [1, 2, 3],
    (1, "two", 3.5),
    [float("nan"), 1.0],
    {float("nan")},
    {float("nan"): 1},
    {(1, float("nan")): 2},
    -0.0,
    {1: "a", 2: "b"},
    frozenset({1, 2}),
    10**5001 + 7,
    "NaN",
]
"""


def test_text_equal_outputs_are_judged_as_the_oracle_judges_them(sandbox: Sandbox) -> None:
    namespace: dict[str, list[object]] = {}
    exec(JUDGED_VALUES, namespace)
    values = namespace["VALUES"]
    code = JUDGED_VALUES + "\n\ndef f(i):\n    return VALUES[i]\n"
    inputs = [encode([i]) for i in range(len(values))]
    expected = [encode(v) for v in values]
    result = sandbox.run(Job(code, "f", inputs, [2.0] * len(values), expected=expected,
                             fail_fast=False))
    # The output reaches the judge as text: parse it afresh, as the parent does.
    oracle = [check("", [i], decode(wire), decode(loads(dumps(wire))), 0.0)
              for i, wire in enumerate(expected)]
    assert list(result.passed) == oracle
    assert oracle.count(False) == 3  # the set, the dict key and the tuple key holding NaN


def test_a_task_with_its_own_oracle_never_passes_on_text_alone(sandbox: Sandbox) -> None:
    # HumanEval/32 accepts any root of the polynomial; 5.0 is not a root of x - 1.
    code = "def find_zero(xs):\n    return 5.0\n"
    job = Job(code, "find_zero", [encode([[-1.0, 1.0]])], [LIMIT], expected=[encode(5.0)],
              task_id="HumanEval/32", oracle="polynomial_root")
    assert sandbox.run(job).passed == (False,)
    right = Job("def find_zero(xs):\n    return 1.0\n", "find_zero", [encode([[-1.0, 1.0]])],
                [LIMIT], expected=[encode(5.0)], task_id="HumanEval/32", oracle="polynomial_root")
    assert sandbox.run(right).passed == (True,)


def test_a_sandbox_without_a_judge_refuses_jobs_with_expected_outputs() -> None:
    with Sandbox(1, FAST) as box, pytest.raises(SandboxError, match="no judge"):
        box.run(_job(GOOD))


def test_a_stop_ends_a_child_that_is_still_running(sandbox: Sandbox) -> None:
    # Wrong at 2, then stuck at 3: fail-fast ends the job without waiting out input 3.
    code = "def f(x):\n    while x == 3:\n        pass\n    return -1 if x == 2 else x + 1\n"
    began = time.monotonic()
    result = sandbox.run(_job(code, (1, 2, 3), limit=30.0))
    assert time.monotonic() - began < 10.0
    assert _statuses(result) == [Status.OK, Status.OK]
    assert result.passed == (True, False)


def test_each_child_gets_an_empty_private_working_folder(sandbox: Sandbox) -> None:
    messy = (
        "import os\n\n\ndef f(x):\n"
        "    open('left-behind', 'w').write('x')\n"
        "    os.chmod('.', 0o777)\n"
        "    return x + 1\n"
    )
    look = (
        "import os\n\n\ndef f(x):\n"
        "    return [sorted(os.listdir('.')), os.stat('.').st_mode & 0o777]\n"
    )
    tidy = "def f(x):\n    return x + 1\n"
    for code in (messy, tidy, tidy):
        assert sandbox.run(_job(code, (1,))).all_passed
        seen = sandbox.run(_job(look, (1,), judged=False)).outcomes[0].value
        assert seen == [[], 0o700]


TMP_SAMPLE = """\
import errno
import os
import tempfile


def f(name):
    with tempfile.NamedTemporaryFile() as handle:
        private = os.path.dirname(handle.name) == os.getcwd()
    try:
        with open(os.path.join("/tmp", name), "w") as handle:
            handle.write("left behind")
    except OSError as exc:
        return [private, errno.errorcode.get(exc.errno, "?")]
    return [private, "written"]
"""


def test_temporary_files_stay_in_the_working_folder(sandbox: Sandbox) -> None:
    name = f"evalplus-ng-tmp-{uuid.uuid4().hex}"
    result = sandbox.run(Job(TMP_SAMPLE, "f", [encode([name])], [LIMIT]))
    private, written = result.outcomes[0].value  # type: ignore[misc]
    assert private is True
    # Read-only for the child (its supervisor's own mount namespace), or removed after it.
    assert written in ("EROFS", "EACCES", "EPERM", "ENOENT", "written")
    assert not (Path("/tmp") / name).exists()


def test_an_output_over_the_cap_is_refused() -> None:
    cap = 1 << 20
    code = "def f(x):\n    return 'x' * x\n"
    with Sandbox(1, Limits(output_bytes=cap, load_seconds=1.0)) as box:
        result = box.run(_job(code, (100 << 20,), limit=10.0, judged=False))
        assert _statuses(result) == [Status.BAD_OUTPUT]
        assert result.outcomes[0].error == f"output larger than {cap} bytes"
        small = box.run(_job(code, (cap // 2,), limit=10.0, judged=False))
        assert _statuses(small) == [Status.OK]
        assert small.outcomes[0].value == "x" * (cap // 2)


def test_the_memory_cap_applies() -> None:
    code = "def f(n):\n    return len(bytearray(n))\n"
    sizes = (16 << 20, 512 << 20, 16 << 20)
    job = Job(
        code,
        "f",
        [encode([n]) for n in sizes],
        [5.0] * len(sizes),
        expected=[encode(n) for n in sizes],
        fail_fast=False,
    )
    with Sandbox(1, Limits(memory_bytes=256 << 20, load_seconds=1.0), judge=JUDGE) as box:
        result = box.run(job)
    assert _statuses(result) == [Status.OK, Status.ERROR, Status.OK]
    assert result.outcomes[1].error is not None
    assert result.outcomes[1].error.startswith("MemoryError")
    assert result.passed == (True, False, True)


def test_an_int_too_large_for_a_float_is_judged_not_raised(sandbox: Sandbox) -> None:
    job = Job(
        "def f(x):\n    return 10**400\n", "f", [encode([1])], [LIMIT], expected=[encode(2.5)]
    )
    result = sandbox.run(job)
    assert _statuses(result) == [Status.OK]
    assert result.passed == (False,)


TWICE_SAMPLE = """\
import random
_calls = []


def f(x, items):
    _calls.append(x)
    items.append(x)  # mutates its argument: the second call must get a fresh copy
    if x == 1:
        return random.random()
    if x == 2:
        return len(_calls)  # depends on earlier calls
    if x == 3 and _calls.count(3) == 2:
        raise ValueError("second call")
    return [x, items]
"""


def test_a_twice_job_reports_outputs_that_change_on_a_second_call(sandbox: Sandbox) -> None:
    inputs = [encode([x, [9]]) for x in (0, 1, 2, 3, 4)]
    result = sandbox.run(Job(TWICE_SAMPLE, "f", inputs, [LIMIT] * 5, twice=True))
    assert _statuses(result) == [Status.OK, Status.ERROR, Status.ERROR, Status.ERROR, Status.OK]
    assert [o.value for o in result.outcomes if o.status is Status.OK] == [[0, [9, 0]], [4, [9, 4]]]
    assert all(UNSTABLE in (result.outcomes[i].error or "") for i in (1, 2))
    assert "second call" in (result.outcomes[3].error or "")
    once = sandbox.run(Job(TWICE_SAMPLE, "f", inputs, [LIMIT] * 5))
    assert _statuses(once) == [Status.OK] * 5


BATCH_SAMPLE = """\
import os


def f(x):
    if x == 30:
        while True:
            pass
    if x == 70:
        os._exit(3)
    return [x, x * 2]
"""


def test_a_batching_child_still_names_the_input_that_hung_or_crashed(sandbox: Sandbox) -> None:
    inputs = [encode([x]) for x in range(100)]
    one_by_one = sandbox.run(Job(BATCH_SAMPLE, "f", inputs, [0.3] * 100))
    batched = sandbox.run(Job(BATCH_SAMPLE, "f", inputs, [0.3] * 100, batch=True))
    expected = [Status.OK] * 100
    expected[30], expected[70] = Status.TIMEOUT, Status.CRASH
    assert _statuses(one_by_one) == _statuses(batched) == expected
    assert [o.value for o in batched.outcomes] == [o.value for o in one_by_one.outcomes]
    assert batched.outcomes[99].value == [99, 198]


LINES_SAMPLE = ("def f(n):\n    total = 0\n    for i in range(n):\n        total += i\n"
                "    return total\n")


def test_lines_count_from_the_first_call_and_the_second_is_plain(sandbox: Sandbox) -> None:
    # 2 lines per iteration: 3,000 iterations exceed a 2,000-line budget.
    inputs = [encode([10]), encode([3_000])]
    counted = sandbox.run(Job(LINES_SAMPLE, "f", inputs, [LIMIT] * 2, max_lines=2_000))
    assert _statuses(counted) == [Status.OK, Status.ERROR]
    assert COST_EXCEEDED in (counted.outcomes[1].error or "")
    # Called twice: the same verdicts (the plain second call agrees with the counted one).
    twice = sandbox.run(Job(LINES_SAMPLE, "f", inputs, [LIMIT] * 2, max_lines=2_000,
                            twice=True))
    assert [(o.status, o.value) for o in twice.outcomes] == \
        [(o.status, o.value) for o in counted.outcomes]
    # Without a budget nothing is counted, nothing is over.
    never = sandbox.run(Job(LINES_SAMPLE, "f", inputs, [LIMIT] * 2))
    assert [o.value for o in never.outcomes] == [45, 4_498_500]


def test_replies_parsed_in_place_match_replies_parsed_one_by_one() -> None:
    from evalplus_ng.sandbox.protocol import HEADER, SECONDS
    from evalplus_ng.sandbox.replies import Reading, _outcome, _parse_run

    def frame(status: bytes, payload: bytes) -> bytes:
        body = status + SECONDS.pack(0.25) + payload
        return HEADER.pack(len(body)) + body

    bodies = [(b"o", b"[1,2]"), (b"o", b"[1,"), (b"o", b"7 8"), (b"e", "caf\u00e9".encode()),
              (b"x", b"1"), (b"o", b'{"t":[1]}'), (b"o", b"NaN")]
    run = b"".join(frame(status, payload) for status, payload in bodies)
    reading = Reading(None, False, 1 << 20)
    judged, used = _parse_run(run, len(run), 0, reading)
    outcomes, passed = (list(column) for column in zip(*judged, strict=True))
    assert used == len(run)
    one_by_one = [_outcome(run_body[HEADER.size:], i, reading,
                           {ord("o"): (Status.OK, None), ord("e"): (Status.ERROR, Fault.RAISED)})[0]
                  for i, run_body in enumerate(frame(s, p) for s, p in bodies)]
    assert [(o.status, o.error, o.seconds) for o in outcomes] == \
        [(o.status, o.error, o.seconds) for o in one_by_one]
    assert [o.value for o in outcomes][:1] == [[1, 2]] and passed == [False] * len(bodies)
    assert math.isnan(outcomes[-1].value)  # type: ignore[arg-type]
    assert [o.status for o in outcomes] == [Status.OK, Status.BAD_OUTPUT, Status.BAD_OUTPUT,
                                            Status.ERROR, Status.BAD_OUTPUT, Status.OK, Status.OK]


# --------------------------------------------------------------------------- hostile corpus


@dataclass(frozen=True)
class Expect:
    """The verdict a hostile sample gets on inputs 1 and 2.

    ``statuses`` are the allowed statuses of the first input (empty when the load
    fails); ``error`` must occur in that outcome's (or the load's) error text;
    ``value`` is the wire value of the first input when it must be OK.
    """

    statuses: frozenset[Status]
    error: str = ""
    load: Status = Status.OK
    value: Wire = None


def _expect(*statuses: Status, error: str = "", value: Wire = None) -> Expect:
    return Expect(frozenset(statuses), error, Status.OK, value)


def _load_fails(load: Status, error: str) -> Expect:
    return Expect(frozenset(), error, load)


OK, ERROR, TIMEOUT, CRASH, BAD = (
    Status.OK,
    Status.ERROR,
    Status.TIMEOUT,
    Status.CRASH,
    Status.BAD_OUTPUT,
)

#: One entry per file in tests/hostile/. Samples that "succeed" at a harmless
#: attack return ``x - 1`` (wire value 0 for x = 1), so a pass would mean a forged
#: reply was believed.
EXPECTED: dict[str, Expect] = {
    "while_true": _expect(TIMEOUT, error="no reply"),
    "recursion": _expect(ERROR, error="RecursionError"),
    # 10**6 frames take about 2 s to exhaust: the time limit or the recursion limit wins.
    "recursion_unlimited": _expect(TIMEOUT, ERROR, CRASH),
    "alloc_10gb": _expect(ERROR, error="MemoryError"),
    "fork_loop": _expect(ERROR, error="BlockingIOError"),
    "os_exit_at_import": _load_fails(CRASH, "exited with code 0"),
    "os_exit_at_call": _expect(CRASH, error="exited with code 0"),
    "sys_exit_at_import": _load_fails(ERROR, "SystemExit: 0"),
    "sys_exit_at_call": _expect(ERROR, error="SystemExit: 0"),
    "loop_at_import": _load_fails(TIMEOUT, "no reply"),
    "kill_parent": _expect(ERROR, error="PermissionError"),
    "killpg_parent_group": _expect(ERROR, error="PermissionError"),
    # Signals are refused by the seccomp filter (without it: killed by SIGKILL).
    "killpg_own_group": _expect(ERROR, CRASH),
    "ctypes_fork": _expect(ERROR, error="BlockingIOError"),
    "ctypes_kill": _expect(ERROR, error="PermissionError"),
    "subprocess_true": _expect(ERROR, error="BlockingIOError"),
    "spawn_thread": _expect(ERROR, error="can't start new thread"),
    "delete_sentinel": _expect(ERROR, error="Error"),
    "write_outside": _expect(ERROR, error="Error"),
    # Refused, or written to a private /tmp that does not outlive the job (x - 1 is wrong).
    "write_tmp": _expect(ERROR, OK),
    # Internet sockets are refused by the seccomp filter (a packet, even one that goes
    # nowhere, moves counters the next child could read); else unreachable (a network
    # namespace with no interface up) or refused (the jail's own loopback).
    "connect_localhost": _expect(ERROR, error="Error"),
    "connect_external": _expect(ERROR, error="Error"),
    "stdout_1gb": _expect(OK, value=0),
    "fake_frames_stdout": _expect(OK, value=0),
    "fake_frames_stderr": _expect(OK, value=0),
    "garbage_all_fds": _expect(BAD, error="output larger than"),
    "forged_frame": _expect(OK, BAD),
    "ignore_signals": _expect(TIMEOUT, error="no reply"),
    "sleep_forever": _expect(TIMEOUT, error="no reply"),
    "always_equal": _expect(BAD, error="Unserializable: AlwaysEqual"),
    "lying_int": _expect(BAD, error="Unserializable: Liar"),
    # The child keeps its own references to what it needs after the call, so it
    # reports the wrong value (0); a child that relied on the patched names would
    # crash or report bad output instead.
    "patch_builtins": _expect(CRASH, OK, BAD),
    "patch_oracle": _expect(OK, value=0),
    "deep_nesting": _expect(OK, BAD),
    # Its answer is wrong; what matters is that the supervisor removes the tree and goes on.
    "deep_folders": _expect(OK, value=0),
    # The expected outputs are out of reach: it returns None or raises.
    "peek_expected": _expect(OK, ERROR),
    # Sandbox v2. No reference in the memory a child inherits (the zygote never held a
    # job; a long scan may run out of time), none on disk.
    "answer_key_in_memory": _expect(OK, TIMEOUT),
    "answer_key_on_disk": _expect(OK, value=0),
    # Refused by the seccomp filter: nothing outlives the run, no memory outside the cap.
    "sysv_shm": _expect(ERROR, error="PermissionError"),
    "memfd_hoard": _expect(ERROR, error="PermissionError"),
    "unix_connect": _expect(ERROR, error="PermissionError"),
    # No capability left to read what only root may; no world-writable folder but its own.
    "read_root_only": _expect(ERROR, error="Error"),
    "write_run_lock": _expect(ERROR, error="PermissionError"),
    # Sandbox v3: the jail shows nothing of the machine but the system and Python (the
    # same in both modes), every capability is gone, only AF_INET(6) sockets open.
    "read_planted_key": _expect(OK, value=0),
    "write_world_writable": _expect(ERROR, error="Error"),
    "capabilities": _expect(OK, value=0),
    "vsock_socket": _expect(ERROR, error="PermissionError"),
    "socket_families": _expect(ERROR, error="PermissionError"),
    # Clearing the death signal is refused; it then spins until its time limit.
    "clear_death_signal": _expect(TIMEOUT, error="no reply"),
}

#: Hostile samples that currently defeat the sandbox: strict xfails, left out of the bulk run.
KNOWN_BUGS: dict[str, str] = {}

CONTAINED = sorted(set(EXPECTED) - set(KNOWN_BUGS))


def _hostile_param(name: str) -> object:
    if name not in KNOWN_BUGS:
        return pytest.param(name, id=name)
    bug = pytest.mark.xfail(strict=True, reason=f"sandbox bug: {KNOWN_BUGS[name]}")
    return pytest.param(name, id=name, marks=bug)


SENTINEL_TEXT = "do not delete"


@dataclass
class Surroundings:
    """What hostile samples aim at outside their working folder, and how to check it."""

    sentinel: Path
    target: Path
    shared_target: Path
    listener: socket.socket
    #: A unix socket a host process listens on (world-writable).
    unix_listener: socket.socket
    #: A file only root may read (mode 0600).
    secret: Path
    #: A name a sample may try to leave in /run/lock.
    lock_name: str
    #: A file only another uid may read (mode 0600).
    other_secret: Path
    #: A copy of the reference (``f(x) = x + 1``), mode 0644, in a fresh temporary folder.
    planted: Path
    #: A world-writable folder (mode 1777) outside the temporary folders.
    drop: Path

    def code(self, name: str) -> str:
        """The source of ``tests/hostile/<name>.py`` aimed at these surroundings."""
        text = (HOSTILE_DIR / f"{name}.py").read_text()
        for placeholder, value in (
            ("__SENTINEL__", str(self.sentinel)),
            ("__SHARED_TARGET__", str(self.shared_target)),
            ("__TARGET__", str(self.target)),
            ("__PORT__", str(self.listener.getsockname()[1])),
            ("__UNIX_SOCKET__", str(self.unix_listener.getsockname())),
            ("__SECRET__", str(self.secret)),
            ("__OTHER_SECRET__", str(self.other_secret)),
            ("__PLANTED__", str(self.planted)),
            ("__DROP__", str(self.drop)),
            ("__LOCK_NAME__", self.lock_name),
            ("__SHM_KEY__", str(SHM_KEY)),
        ):
            text = text.replace(placeholder, value)
        return text

    def assert_untouched(self) -> None:
        assert self.sentinel.read_text() == SENTINEL_TEXT
        assert not self.target.exists()
        assert not self.shared_target.exists()
        readable, _, _ = select.select([self.listener, self.unix_listener], [], [], 0)
        assert readable == [], "a sample connected to the test's listener"
        assert not (Path("/run/lock") / self.lock_name).exists()
        assert list(self.drop.iterdir()) == [], "a sample left a file in a shared folder"
        assert _shared_memory_keys().isdisjoint({SHM_KEY}), "a SysV segment outlived its sample"


@pytest.fixture
def surroundings() -> Iterator[Surroundings]:
    # Outside the world-writable temp folders, which each supervisor replaces with its own.
    outside = Path.home() / ".cache" / "evalplus-ng-tests" / uuid.uuid4().hex
    outside.mkdir(parents=True)
    sentinel = outside / "sentinel.txt"
    sentinel.write_text(SENTINEL_TEXT)
    secret = outside / "secret.txt"
    secret.write_text("for root only")
    secret.chmod(0o600)
    other_secret = outside / "other-secret.txt"
    other_secret.write_text("for another uid only")
    other_secret.chmod(0o600)
    if IS_ROOT:
        os.chown(other_secret, 65534, 65534)
    drop = outside / "drop"
    drop.mkdir()
    drop.chmod(0o1777)
    planted_folder = Path(tempfile.mkdtemp(prefix="evalplus-ng-planted-"))
    planted_folder.chmod(0o755)
    planted = planted_folder / "HumanEvalPlus-reference.py"
    planted.write_text("def f(x):\n    return x + 1\n")
    planted.chmod(0o644)
    os.chmod(outside, 0o755)
    shared_target = Path(tempfile.gettempdir()) / f"evalplus-ng-escape-{uuid.uuid4().hex}"
    lock_name = f"evalplus-ng-escape-{uuid.uuid4().hex}"
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as listener, \
            socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as unix_listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        unix_listener.bind(str(outside / "host.sock"))
        os.chmod(outside / "host.sock", 0o777)
        unix_listener.listen()
        try:
            yield Surroundings(sentinel, outside / "escaped.txt", shared_target, listener,
                               unix_listener, secret, lock_name, other_secret, planted, drop)
        finally:
            shutil.rmtree(planted_folder, ignore_errors=True)
            shared_target.unlink(missing_ok=True)
            (Path("/run/lock") / lock_name).unlink(missing_ok=True)
            _remove_shared_memory(SHM_KEY)
            shutil.rmtree(outside, ignore_errors=True)


#: The SysV key the hostile sample sysv_shm.py uses.
SHM_KEY = 0x45564C4E


def _shared_memory_keys() -> set[int]:
    """Keys of the SysV shared memory segments on this machine (the host's IPC namespace)."""
    with open("/proc/sysvipc/shm") as handle:
        next(handle)
        return {int(line.split()[0]) for line in handle if line.strip()}


def _remove_shared_memory(key: int) -> None:
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    ident = libc.shmget(key, 0, 0)
    if ident >= 0:
        libc.shmctl(ident, 0, None)  # IPC_RMID


def _assert_verdict(name: str, result: JobResult) -> None:
    """``result`` is the verdict EXPECTED gives the hostile sample ``name``."""
    expect = EXPECTED[name]
    assert not result.all_passed, f"{name} passed"
    assert result.load.status is expect.load, (name, result.load)
    if expect.load is not Status.OK:
        assert result.outcomes == ()
        assert expect.error in (result.load.error or ""), (name, result.load)
        return
    first = result.outcomes[0]
    assert first.status in expect.statuses, (name, first)
    assert expect.error in (first.error or ""), (name, first)
    if expect.value is not None:
        assert first.value == expect.value, (name, first)


def test_the_table_covers_every_hostile_file() -> None:
    files = {path.stem: path for path in HOSTILE_DIR.glob("*.py")}
    assert set(files) == set(EXPECTED)
    for path in files.values():
        docstring = ast.get_docstring(ast.parse(path.read_text()))
        assert docstring and docstring.startswith("Attacks "), path.name


@requires_root
@pytest.mark.parametrize("name", [_hostile_param(name) for name in sorted(EXPECTED)])
def test_hostile_sample_fails_and_the_next_sample_still_passes(
    sandbox: Sandbox, surroundings: Surroundings, name: str
) -> None:
    assert sandbox.run(_job(GOOD)).all_passed
    began = time.monotonic()
    result = sandbox.run(_job(surroundings.code(name)))
    assert time.monotonic() - began < WALL_SECONDS
    # Same worker (one supervisor), so whatever the sample changed must not leak.
    assert sandbox.run(_job(GOOD)).all_passed
    _assert_verdict(name, result)
    surroundings.assert_untouched()


@requires_root
def test_the_corpus_on_two_workers_leaves_nothing_behind(
    surroundings: Surroundings, marker: str
) -> None:
    jobs = [_job(GOOD)]
    for name in CONTAINED:
        jobs += [_job(surroundings.code(name)), _job(GOOD)]
    seen: list[int] = []
    began = time.monotonic()
    box = Sandbox(2, FAST, judge=JUDGE)
    try:
        results = list(box.map(jobs, on_result=lambda index, _result: seen.append(index)))
        assert time.monotonic() - began < 45.0
        assert seen == list(range(len(jobs)))
        assert all(result.all_passed for result in results[::2])
        for name, result in zip(CONTAINED, results[1::2], strict=True):
            _assert_verdict(name, result)
        assert box.run(_job(GOOD)).all_passed  # still usable
    finally:
        box.close()
    surroundings.assert_untouched()
    assert _wait_for_no_leftovers(marker) == []


def _wait_for_a_child(marker: str, seconds: float = WALL_SECONDS) -> None:
    deadline = time.monotonic() + seconds
    while not any(proc.uid >= UID_BASE for proc in _leftovers(marker)):
        assert time.monotonic() < deadline, "the sandbox never started a child"
        time.sleep(0.02)


@requires_root
def test_close_during_a_run_leaves_nothing_behind(marker: str) -> None:
    box = Sandbox(1, FAST, judge=JUDGE)

    def run() -> None:
        with contextlib.suppress(SandboxError):  # a run cut short by close() may say so
            box.run(_job(HOSTILE_DIR.joinpath("while_true.py").read_text(), (1,), limit=1.0))

    thread = threading.Thread(target=run)
    thread.start()
    try:
        _wait_for_a_child(marker)
        box.close()
        thread.join(timeout=WALL_SECONDS)
        assert not thread.is_alive()
        assert _wait_for_no_leftovers(marker, seconds=3.0) == []
    finally:
        box.close()
        thread.join(timeout=WALL_SECONDS)


def test_started_supervisors_boot_before_any_job_and_serve_jobs() -> None:
    with Sandbox(2, FAST, judge=JUDGE) as box:
        box.start()
        deadline = time.monotonic() + WALL_SECONDS
        while not all(worker.process is not None for worker in box._all):
            assert time.monotonic() < deadline, "start() started no supervisor"
            time.sleep(0.01)
        pids = {worker.process.pid for worker in box._all if worker.process is not None}
        assert len(pids) == 2
        results = list(box.map(_job("def f(x):\n    return x + 1\n") for _ in range(4)))
        assert all(result.all_passed for result in results)
        # The jobs ran on the supervisors start() booted: none was started again.
        assert {worker.process.pid for worker in box._all if worker.process is not None} == pids
    assert all(worker.process is None for worker in box._all)


def test_closing_while_supervisors_boot_leaves_no_folder_or_process() -> None:
    # As when a run fails (a missing suite) right after start(). This process's folders are
    # named after its pid (other test processes' may come and go meanwhile).
    mine = f"evalplus-ng-sandbox-{os.getpid()}-*"
    before = set(Path(tempfile.gettempdir()).glob(mine))
    for _ in range(3):
        box = Sandbox(2, FAST)
        box.start()
        box.close()
        assert all(worker.process is None and worker.root is None for worker in box._all)
    assert set(Path(tempfile.gettempdir()).glob(mine)) <= before


def test_a_waiting_child_that_died_is_replaced_before_its_job() -> None:
    with Sandbox(1, FAST, judge=JUDGE) as box:
        assert box.run(_job(GOOD)).all_passed
        # The supervisor has a confined child waiting for the next job: kill it.
        deadline = time.monotonic() + WALL_SECONDS
        while True:
            waiting = _children_of(next(w.process.pid for w in box._all if w.process))
            if waiting:
                break
            assert time.monotonic() < deadline, "no child waits for the next job"
            time.sleep(0.01)
        for pid in waiting:
            os.kill(pid, 9)
        while any(_alive(pid) for pid in waiting):
            assert time.monotonic() < deadline, "the waiting child did not die"
            time.sleep(0.01)
        assert box.run(_job(GOOD)).all_passed


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _children_of(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                stat = Path(f"/proc/{entry}/stat").read_text()
                if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry))
    return found


def test_a_reply_that_came_while_the_supervisor_was_late_is_not_a_timeout(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # The supervisor relays the first reply, then (as on a busy machine) does not run
    # again until well past the second input's deadline; the child answered in time.
    from evalplus_ng.sandbox import protocol
    from evalplus_ng.sandbox import supervisor as supervisor_module

    monkeypatch.setattr(supervisor_module, "_RELAY_PAUSE_SECONDS", 0.4)
    child_read, child_write = os.pipe()
    parent_read, parent_write = os.pipe()
    control_read, control_write = os.pipe()
    frame = protocol.HEADER.pack
    ok = protocol.CODES[Status.OK, None]

    def reply(body: bytes) -> None:
        os.write(child_write, frame(len(body)) + body)

    reply(ok + protocol.SECONDS.pack(0.0))  # loaded
    reply(ok + protocol.SECONDS.pack(0.001) + b"1")
    later = threading.Timer(0.05, reply, [ok + protocol.SECONDS.pack(0.001) + b"2"])
    later.start()
    # _collect alone is tested: it never asks the zygote for a child.
    supervisor = supervisor_module._Supervisor(Limits(), control_read, parent_write, str(tmp_path),
                                               cast(Zygote, None))
    try:
        load, broken = supervisor._collect(child_read, {"time_limits": [0.1, 0.1]}, 0)
    finally:
        later.join()
        for fd in (child_read, child_write, parent_write, control_read, control_write):
            os.close(fd)
    relayed = os.read(parent_read, 1 << 16)
    os.close(parent_read)
    assert load.status is Status.OK and broken is None
    assert relayed.count(ok + protocol.SECONDS.pack(0.001)) == 2


def _fake_child(work: str, seconds: float) -> tuple[int, int]:
    """A process that reports a load, then spends ``seconds`` (sleeping or computing)
    on its one input before it replies; returns its pid and the read end of its replies."""
    from evalplus_ng.sandbox.protocol import CODES, HEADER, SECONDS

    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the fake child
        try:
            os.close(read_fd)
            ok = CODES[Status.OK, None]
            loaded = ok + SECONDS.pack(0.0)
            os.write(write_fd, HEADER.pack(len(loaded)) + loaded)
            if work == "sleep":
                time.sleep(seconds)
            else:
                end = time.process_time() + seconds
                while time.process_time() < end:
                    pass
            reply = ok + SECONDS.pack(seconds) + b"1"
            os.write(write_fd, HEADER.pack(len(reply)) + reply)
        finally:
            os._exit(0)
    os.close(write_fd)
    return pid, read_fd


@pytest.mark.parametrize("work, verdict", [("sleep", None), ("compute", Status.TIMEOUT)])
def test_a_late_child_that_used_little_cpu_gets_the_rest_of_its_limit(
        work: str, verdict: Status | None, tmp_path: Path) -> None:
    # Limit 0.3 s. A child kept off the CPU (here: asleep) for 0.6 s has used almost
    # none of it and is waited for (up to 2 x limit + 1 s of wall time); a child that
    # computes through its limit times out.
    from evalplus_ng.sandbox.supervisor import _Supervisor

    pid, read_fd = _fake_child(work, 0.6 if work == "sleep" else 3.0)
    parent_read, parent_write = os.pipe()
    control_read, control_write = os.pipe()
    supervisor = _Supervisor(Limits(), control_read, parent_write, str(tmp_path),
                             cast(Zygote, None))
    try:
        load, broken = supervisor._collect(read_fd, {"time_limits": [0.3]}, 0, pid)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, 9)
        os.waitpid(pid, 0)
        for fd in (read_fd, parent_read, parent_write, control_read, control_write):
            os.close(fd)
    assert load.status is Status.OK
    assert (broken[1].status if broken else None) is verdict


def test_code_runs_under_the_default_recursion_limit(sandbox: Sandbox) -> None:
    # As in a plain interpreter (and in EvalPlus): recursion once per unit of the input
    # works for hundreds of levels and fails with RecursionError at a few thousand.
    recursive = "def f(x):\n    return 1 if x <= 0 else f(x - 1) + 1\n"
    result = sandbox.run(_job(recursive, (500, 3000), judged=False, fail_fast=False))
    assert _statuses(result) == [Status.OK, Status.ERROR]
    assert result.outcomes[0].value == 501
    error = result.outcomes[1].error
    assert error is not None and error.startswith("RecursionError")


def test_set_order_is_the_same_in_every_sandbox() -> None:
    # A sample that returns the order of a set of strings (hash-randomised per process)
    # gets the same answer, so the same verdict, from every supervisor and every run.
    code = ("def f(x):\n"
            "    return list({'alpha%d' % i for i in range(40)})\n")
    answers = []
    for _run in range(2):
        with Sandbox(1, FAST) as box:
            result = box.run(_job(code, (1,), judged=False))
        assert result.outcomes and result.outcomes[0].status is Status.OK, result
        answers.append(result.outcomes[0].value)
    assert answers[0] == answers[1]
    assert answers[0] != sorted(answers[0])  # the set's order, not a sorted one
