"""Nothing crosses from one sample to the next: chains of hostile samples run one after
another on one worker, in each jail mode, and no later copy learns anything an earlier
one left behind."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from asuser import ordinary_user
from click.testing import CliRunner

from evalplus_ng.cli import main
from evalplus_ng.judge import JUDGE
from evalplus_ng.records import Job, Status
from evalplus_ng.sandbox import Limits, Sandbox
from evalplus_ng.sandbox.jail import MODE_VARIABLE
from evalplus_ng.serialize import decode, encode

#: Hostile samples that attack the samples after them (run as chains, not alone).
CHAINS = Path(__file__).parent / "chains"
requires_root = pytest.mark.skipif(os.geteuid() != 0, reason="the jail's uid switch needs root")
LIMITS = Limits(memory_bytes=1 << 30, load_seconds=5.0)
#: The hidden answers of the chain's task (one bool per input).
ANSWERS = [True, False, False, True, False, True]
#: Copies in a chain of page faults: where a copy could learn what the one before it was
#: stopped at, the one after the last False answer is learnt passes (the fourth); one more.
COPIES = ANSWERS.count(False) + 2


def _copy(name: str, placeholder: str, value: int) -> str:
    return (CHAINS / f"{name}.py").read_text().replace(placeholder, str(value))


@requires_root
def test_a_chain_of_samples_learns_nothing_from_folder_times(jail: str) -> None:
    # On one worker, copy k+1 reads what copy k wrote into the working folder's
    # modification time before the output it was stopped at: a wrong guess. With the
    # folder handed on as it was (da33015), each copy knows one answer more than the
    # one before, and copy len(ANSWERS) + 1 passes without knowing the task.
    inputs = [encode([[index]]) for index in range(len(ANSWERS))]
    expected = [encode(answer) for answer in ANSWERS]
    chain = [Job(code=_copy("mtime_chain", "__COPY__", copy), entry_point="f", inputs=inputs,
                 time_limits=[5.0] * len(inputs), expected=expected)
             for copy in range(len(ANSWERS) + 2)]
    with Sandbox(1, LIMITS, judge=JUDGE) as sandbox:
        results = list(sandbox.map(chain))
    assert not any(result.all_passed for result in results)
    # Each copy knew nothing: every one guessed True throughout and was stopped at the
    # first False answer.
    first_false = ANSWERS.index(False)
    for result in results:
        assert result.load.status is Status.OK
        assert [o.value for o in result.outcomes] == [True] * (first_false + 1), result


@requires_root
def test_every_child_finds_the_same_fresh_folder_whatever_the_last_one_left(
        jail: str) -> None:
    # Each probe reports its folder's metadata, the next inode number and its parent
    # folder's, then leaves a different number of traces; reports that differ would be
    # a channel from one sample to the next.
    probes = [Job(code=_copy("leave_traces", "__TRACES__", traces), entry_point="f",
                  inputs=[encode([0])], time_limits=[5.0]) for traces in (3, 1, 7, 2)]
    try:
        with Sandbox(1, LIMITS) as sandbox:
            results = list(sandbox.map(probes))
    finally:
        for left in Path("/run/lock").glob("evalplus-ng-trace-*"):
            left.unlink()
    seen: list[dict[str, object]] = []
    for result in results:
        assert result.load.status is Status.OK and result.outcomes, result
        outcome = result.outcomes[0]
        assert outcome.status is Status.OK, outcome
        seen.append(decode(outcome.value))
    assert all(report == seen[0] for report in seen), seen
    assert seen[0]["entries"] == "" and seen[0]["attributes"] == ""


def _fault_chain(copies: int) -> list[Job]:
    inputs = [encode([[index]]) for index in range(len(ANSWERS))]
    expected = [encode(answer) for answer in ANSWERS]
    return [Job(code=_copy("fault_chain", "__COPY__", copy), entry_point="f", inputs=inputs,
                time_limits=[5.0] * len(inputs), expected=expected) for copy in range(copies)]


def _guessed_blind(results: list[object]) -> bool:
    """Every copy guessed True throughout and was stopped at the first False answer."""
    first_false = ANSWERS.index(False)
    return all(result.load.status is Status.OK  # type: ignore[attr-defined]
               and [o.value for o in result.outcomes]  # type: ignore[attr-defined]
               == [True] * (first_false + 1) for result in results)


def test_a_chain_of_samples_learns_nothing_from_counters_the_zygote_keeps(jail: str) -> None:
    # Each copy writes its state into the page faults the zygote sums over the children
    # it reaped (cminflt in /proc/<zygote>/stat). Where a child could read that counter,
    # the fourth copy passed with no algorithm; alone in its pid namespace, with no /proc
    # (a function's child) or a /proc of its own (a program's), a child sees no process
    # but itself.
    with Sandbox(1, LIMITS, judge=JUDGE) as sandbox:
        results = list(sandbox.map(_fault_chain(COPIES)))
    assert not any(result.all_passed for result in results)
    assert _guessed_blind(results), results


#: What a child can see of processes and of the ids it was given.
SEEN = """
import os


def f(x):
    return {"processes": sorted(n for n in os.listdir("/proc") if n.isdigit()),
            "pid": os.getpid(), "parent": os.getppid(), "uid": os.getuid(),
            "top": sorted(n for n in os.listdir("/proc") if not n.isdigit()),
            "stdin": os.path.exists("/dev/stdin")}
"""
#: The same, as a program reading one line.
SEEN_PROGRAM = SEEN + "\nimport json\ninput()\nprint(json.dumps(f(0), sort_keys=True))\n"


def test_a_child_sees_only_itself_and_ids_that_count_nothing(jail: str) -> None:
    # Function jobs one after another, a program job of three inputs (a child each) and a
    # crash between them: every child is pid 1 of its own namespace with no parent in
    # sight; a function's child has no /proc at all, a program's a /proc that shows
    # itself and no machine counter (and so a /dev/stdin); its uid (as root) is drawn at
    # random, never derived from how many children came before.
    probe = Job(code=SEEN, entry_point="f", inputs=[encode([0])], time_limits=[5.0])
    crash = Job(code="import os\n\n\ndef f(x):\n    os._exit(3)\n", entry_point="f",
                inputs=[encode([0])], time_limits=[5.0])
    program = Job(code=SEEN_PROGRAM, entry_point="", inputs=[encode("1\n")] * 3,
                  time_limits=[5.0] * 3, program=True)
    with Sandbox(1, LIMITS) as sandbox:
        results = list(sandbox.map([probe, crash, probe, program, probe]))
    seen = [decode(o.value) for r in (results[0], results[2], results[4]) for o in r.outcomes]
    seen += [json.loads(decode(o.value)) for o in results[3].outcomes]
    assert len(seen) == 6, results
    for report in seen[:3]:
        assert report["processes"] == [] and report["top"] == [] and not report["stdin"]
    for report in seen[3:]:
        assert report["processes"] == ["1"] and report["top"] == ["self", "thread-self"]
        assert report["stdin"]
    for report in seen:
        assert report["pid"] == 1 and report["parent"] == 0
    uids = [report["uid"] for report in seen]
    if os.geteuid() == 0:
        assert len(set(uids)) == len(uids), uids


@requires_root
@pytest.mark.parametrize("sanitize", [True, False], ids=["sanitized", "no-sanitize"])
def test_evaluate_gives_a_chain_of_copies_no_pass(jail: str, sanitize: bool,
                                                  tmp_path: Path) -> None:
    # The same chain as a samples file for HumanEval/0 (seven base tests, bool answers),
    # judged by evaluate on one worker: before each child had a /proc of its own, the
    # fourth copy passed the base tests, with EvalPlus's sanitizer or without it.
    code = (CHAINS / "fault_chain.py").read_text().replace("def f(", "def has_close_elements(")
    samples = tmp_path / "samples.jsonl"
    samples.write_text("".join(
        json.dumps({"task_id": "HumanEval/0", "solution": code.replace("__COPY__", str(n))})
        + "\n" for n in range(COPIES)))
    results = tmp_path / "results.json"
    done = CliRunner().invoke(main, ["evaluate", "--samples", str(samples), "--suite", "base",
                                     "-j", "1", "--results", str(results),
                                     *([] if sanitize else ["--no-sanitize"])])
    assert done.exit_code == 0, done.output
    verdicts = json.loads(results.read_text())["eval"]["HumanEval/0"]
    assert len(verdicts) == COPIES
    assert [v["base_status"] for v in verdicts] == ["fail"] * COPIES


AS_USER = """
import json, sys
sys.path.insert(0, sys.argv[2])
from test_channels import _fault_chain, _guessed_blind, LIMITS
from evalplus_ng.judge import JUDGE
from evalplus_ng.sandbox import Sandbox
with Sandbox(1, LIMITS, judge=JUDGE) as box:
    results = list(box.map(_fault_chain(int(sys.argv[1]))))
print(json.dumps({"mode": box.mode.value, "passed": [r.all_passed for r in results],
                  "blind": _guessed_blind(results)}))
"""


@requires_root
def test_an_ordinary_users_chain_learns_nothing_either(jail: str) -> None:
    # As an ordinary user every child has the user's uid: /proc's hidepid could not tell
    # them apart, but a child alone in its pid namespace still sees only itself.
    with ordinary_user() as user:
        tests = user.folder / "tests"
        shutil.copytree(Path(__file__).parent, tests,
                        ignore=shutil.ignore_patterns("__pycache__"))
        path = os.pathsep.join([str(tests), user.env["PYTHONPATH"]])
        done = user.run(["-c", AS_USER, str(COPIES), str(tests)],
                        {"PYTHONPATH": path, MODE_VARIABLE: jail})
        assert done.returncode == 0, done.stderr
        found = json.loads(done.stdout.strip().splitlines()[-1])
        assert found == {"mode": jail, "passed": [False] * COPIES, "blind": True}


#: Asks the kernel for ids that count what was made on the whole machine: the working
#: folder's 64-bit mount id (statx), the mount namespace's id (an nsfs ioctl) and a file
#: handle with its mount id. Each answer is the errno it got (0: it got the id).
COUNTED_IDS = """
import ctypes, errno, fcntl, os

libc = ctypes.CDLL(None, use_errno=True)


def _statx():
    buffer = ctypes.create_string_buffer(256)
    done = libc.statx(-100, b".", 0, 0x4000, buffer)  # STATX_MNT_ID_UNIQUE
    return 0 if done == 0 else ctypes.get_errno()


def _namespace():
    try:
        fd = os.open("/proc/self/ns/mnt", os.O_RDONLY)
    except OSError as exc:  # no /proc: nothing to ask
        return exc.errno
    try:
        fcntl.ioctl(fd, 0x8008B705, bytearray(8))  # NS_GET_MNTNS_ID
        return 0
    except OSError as exc:
        return exc.errno
    finally:
        os.close(fd)


def _handle():
    handle = ctypes.create_string_buffer(8 + 128)
    ctypes.memmove(handle, (128).to_bytes(4, "little"), 4)
    mount = ctypes.c_int()
    done = libc.name_to_handle_at(-100, b".", handle, ctypes.byref(mount), 0)
    return 0 if done == 0 else ctypes.get_errno()


def f(x):
    return [_statx(), _namespace(), _handle()]
"""
COUNTED_IDS_PROGRAM = COUNTED_IDS + "\ninput()\nprint(f(0))\n"


def test_ids_that_count_the_machines_mounts_are_refused(jail: str) -> None:
    # Every child's working folder is a mount of its own: its 64-bit mount id, like the
    # id of each mount namespace (a program's child has one of its own), counts every one
    # made before it on the machine.
    job = Job(code=COUNTED_IDS, entry_point="f", inputs=[encode([0])], time_limits=[5.0])
    program = Job(code=COUNTED_IDS_PROGRAM, entry_point="", inputs=[encode("1\n")],
                  time_limits=[5.0], program=True)
    with Sandbox(1, LIMITS) as sandbox:
        result, ran = sandbox.run(job), sandbox.run(program)
    assert result.outcomes and result.outcomes[0].status is Status.OK, result
    # EPERM each; a function's child has no /proc to open a namespace from (ENOENT).
    assert decode(result.outcomes[0].value) == [1, 2, 1]
    assert ran.outcomes and decode(ran.outcomes[0].value) == "[1, 1, 1]\n", ran
