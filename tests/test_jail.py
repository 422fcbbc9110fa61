"""Sandbox v2: the answer key out of reach, and nothing that outlives the tool.

The hostile corpus (tests/test_sandbox.py) runs every attack in the default mode;
these tests add what needs a setting of its own: a ground-truth job run first on the
same worker, the namespaces fallback, and the tool itself killed mid-run.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import pytest

from evalplus_ng.oracle import JUDGE
from evalplus_ng.records import Job
from evalplus_ng.sandbox import Limits, Sandbox, cgroup
from evalplus_ng.sandbox.jail import MODE_VARIABLE, Mode, answer_keys
from evalplus_ng.sandbox.pool import sweep_folders
from evalplus_ng.serialize import encode

HOSTILE = Path(__file__).parent / "hostile"
requires_root = pytest.mark.skipif(os.geteuid() != 0, reason="the jail's uid switch needs root")
LIMITS = Limits(memory_bytes=1 << 30, load_seconds=5.0)


def _job(code: str, expected: list[int] | None, limit: float = 10.0) -> Job:
    return Job(code=code, entry_point="f", inputs=[encode([1]), encode([2])],
               time_limits=[limit, limit], expected=expected)


@requires_root
def test_a_sample_finds_no_reference_in_memory_after_a_ground_truth_job(
        jail: str) -> None:
    # ``jail``: each mode in turn (tests/conftest.py).
    secret = random.SystemRandom().randrange(10**12, 10**13)
    reference = f"def f(x):\n    return x + {secret}\n"
    expected = [1 + secret, 2 + secret]
    thief = (HOSTILE / "answer_key_in_memory.py").read_text()
    # One worker: the supervisor that ran the reference forks the sample's child.
    with Sandbox(1, LIMITS, judge=JUDGE) as sandbox:
        assert sandbox.run(_job(reference, expected)).all_passed
        result = sandbox.run(_job(thief, expected))
    assert not result.all_passed
    assert result.outcomes[0].value in (0, None), result


@requires_root
def test_the_namespaces_fallback_hides_the_answer_keys_too(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(MODE_VARIABLE, Mode.NAMESPACES.value)
    assert answer_keys(), "the package's data folders are answer keys"
    code = (HOSTILE / "answer_key_on_disk.py").read_text()
    with Sandbox(1, LIMITS, judge=JUDGE) as sandbox:
        result = sandbox.run(_job(code, [2, 3]))
    assert not result.all_passed
    assert result.outcomes[0].value == 0


def test_an_unknown_jail_mode_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from evalplus_ng.errors import SandboxError

    monkeypatch.setenv(MODE_VARIABLE, "chroot")
    with pytest.raises(SandboxError, match="EVALPLUS_NG_JAIL='chroot'"):
        Sandbox(1)


def _marked(marker: str) -> list[int]:
    """Live processes whose environment carries ``marker``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as handle:
                environ = handle.read()
            with open(f"/proc/{entry}/stat", "rb") as handle:
                state = handle.read().rsplit(b")", 1)[1].split()[0]
        except OSError:
            continue
        if marker.encode() in environ and state != b"Z":
            found.append(int(entry))
    return found


@requires_root
@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL])
def test_nothing_outlives_evaluate_stopped_mid_run(how: signal.Signals, jail: str,
                                                   tmp_path: Path) -> None:
    """A sample that clears its death signal and spins dies with the tool; no working
    folder stays behind (after SIGKILL, the next sandbox removes the tool's)."""
    marker = uuid.uuid4().hex
    spinner = (HOSTILE / "clear_death_signal.py").read_text()
    samples = tmp_path / "samples.jsonl"
    samples.write_text("".join(json.dumps({"task_id": f"HumanEval/{n}", "completion": spinner
                                           .replace("def f(x)", f"def {name}(*args)")}) + "\n"
                               for n, name in ((0, "has_close_elements"), (2, "truncate_number"))))
    before = {p.name for p in Path("/tmp").glob("evalplus-ng-sandbox-*")}
    env = dict(os.environ, EVALPLUS_NG_SANDBOX_TEST_MARK=marker)
    tool = subprocess.Popen(
        [sys.executable, "-m", "evalplus_ng.cli", "evaluate", "--samples", str(samples),
         "--suite", "base", "-j", "1", "--min-time-limit", "30"],
        env=env, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    # Wait for the spinning child (a uid of the sandbox's own).
    while time.monotonic() < deadline and not any(
            os.stat(f"/proc/{pid}").st_uid >= 0x40000000 for pid in _marked(marker)):
        time.sleep(0.1)
    assert _marked(marker), "the sample never ran"
    tool.send_signal(how)
    tool.wait(timeout=60)
    deadline = time.monotonic() + 10
    while _marked(marker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _marked(marker) == []
    left = {p.name for p in Path("/tmp").glob("evalplus-ng-sandbox-*")} - before
    if how is signal.SIGKILL:  # no time to clean up: the next sandbox removes what is left
        assert all(name.startswith(f"evalplus-ng-sandbox-{tool.pid}-") for name in left)
        with Sandbox(1, LIMITS):
            pass
    else:
        assert not left
    assert {p.name for p in Path("/tmp").glob("evalplus-ng-sandbox-*")} <= before
    hierarchy = cgroup.here()
    if hierarchy is not None:
        assert not list(Path(hierarchy.folder).glob(f"evalplus-ng-{tool.pid}-*"))


def test_only_the_folders_of_gone_sandboxes_are_swept(tmp_path: Path) -> None:
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    dead = tmp_path / f"evalplus-ng-sandbox-{int(gone.stdout)}-ab12"
    (dead / "work" / "deep").mkdir(parents=True)
    (dead / "work" / "deep" / "file").write_text("x")
    alive = tmp_path / f"evalplus-ng-sandbox-{os.getpid()}-cd34"
    alive.mkdir()
    other = tmp_path / "evalplus-ng-sandbox-tmpxyz"  # not a name the sandbox makes
    other.mkdir()
    assert sweep_folders(str(tmp_path)) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([alive.name, other.name])


READER = """def f(x):
    try:
        with open(__PATH__, encoding="utf-8") as handle:
            return handle.read()
    except OSError as exc:
        return type(exc).__name__
"""


@requires_root
def test_the_callers_answer_keys_are_hidden_in_both_modes(jail: str, tmp_path: Path) -> None:
    # A suite file beside the samples holds the reference solutions; the sandbox is told.
    suite = tmp_path / "HumanEvalPlus.jsonl"
    secret = uuid.uuid4().hex
    suite.write_text(secret, encoding="utf-8")
    suite.chmod(0o644)
    tmp_path.chmod(0o755)
    code = READER.replace("__PATH__", repr(str(suite)))
    # What the supervisor itself needs is never covered, even when a caller names it
    # (a cache folder set to /tmp, say): the sandbox still works.
    needed = [tempfile.gettempdir(), sys.prefix, "/"]
    with Sandbox(1, LIMITS, hidden=[suite, *needed]) as sandbox:
        assert sandbox.hidden == (str(suite.resolve()),)
        value = sandbox.run(_job(code, None)).outcomes[0].value
    assert value != secret and value in ("FileNotFoundError", "PermissionError", "")
    if jail == Mode.NAMESPACES.value:
        # The same sample reads it when the sandbox is not told: the test can fail.
        with Sandbox(1, LIMITS) as sandbox:
            assert sandbox.run(_job(code, None)).outcomes[0].value == secret


def test_evaluate_hides_the_suites_it_judges_with_and_the_cache(tmp_path: Path) -> None:
    from evalplus_ng.registry import resolve

    humaneval = resolve("humaneval")
    from evalplus_ng.dataset import user_cache_dir
    from evalplus_ng.workflow import answer_keys_near, suite_path

    own = tmp_path / "mine.jsonl.gz"
    assert suite_path(humaneval, str(own), tmp_path) == own
    hidden = answer_keys_near(tmp_path, humaneval, own)
    assert {tmp_path / name for name in humaneval.suite_files().values()} <= set(hidden)
    assert own in hidden and user_cache_dir() in hidden
    assert suite_path(humaneval, "base", tmp_path) is None
    assert suite_path(humaneval, "plus", tmp_path) == tmp_path / "HumanEvalPlus.jsonl.gz"


LISTER = """
import os


def f(x):
    try:
        return sorted(os.listdir(__PATH__))
    except OSError as exc:
        return type(exc).__name__
"""


@requires_root
def test_the_results_secret_is_hidden_from_samples_in_both_modes(
        jail: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # The secret that seals results files (evalplus_ng.seal) lies in the cache; here the
    # cache lies inside a folder every jail shows (Python's prefix), so only covering
    # it keeps a sample from the key. evaluate's own list of what to hide is used.
    from evalplus_ng.registry import resolve
    from evalplus_ng.seal import secret_folder, user_secret
    from evalplus_ng.workflow import answer_keys_near

    cache = Path(sys.prefix) / f"evalplus-ng-test-cache-{uuid.uuid4().hex}"
    monkeypatch.setenv("EVALPLUS_NG_CACHE", str(cache))
    try:
        user_secret(cache)
        folder = secret_folder(cache)
        assert os.listdir(folder) == ["results.key"]
        cache.chmod(0o755)
        code = LISTER.replace("__PATH__", repr(str(folder)))
        hidden = answer_keys_near(cache / "artifacts", resolve("humaneval"))
        with Sandbox(1, LIMITS, hidden=hidden) as sandbox:
            # Covered with the cache around it (a folder inside a covered one is left
            # out: bwrap could not make its mount point in the read-only cover).
            assert str(cache) in sandbox.hidden and str(folder) not in sandbox.hidden
            outcome = sandbox.run(_job(code, None)).outcomes[0]
        # Covered (with the cache around it) by an empty folder: no key there, and no
        # PermissionError that would say one is.
        assert outcome.value in ([], "FileNotFoundError"), outcome
        if jail == Mode.NAMESPACES.value:
            # Not told, the sandbox shows it (children may read any file there).
            with Sandbox(1, LIMITS) as sandbox:
                assert sandbox.run(_job(code, None)).outcomes[0].value == ["results.key"]
    finally:
        shutil.rmtree(cache, ignore_errors=True)
