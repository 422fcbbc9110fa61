"""Sandbox v2 and v3: the answer key out of reach, nothing that outlives the tool, one
jail whatever the machine.

The hostile corpus (tests/test_sandbox.py) runs every attack in the default mode (CI
runs it once more with ``EVALPLUS_NG_JAIL=namespaces``); these tests add what needs a
setting of its own: a ground-truth job run first on the same worker, each jail mode
(the attacks on the machine, the samples file being judged, what the jail shows), an
ordinary user, a machine where no jail can be made, and the tool itself killed mid-run.
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
import sandboxmark
import test_sandbox as corpus  # the hostile corpus (tests/ is on the path, as pytest runs)
from asuser import ordinary_user
from click.testing import CliRunner

from evalplus_ng.cli import main
from evalplus_ng.judge import JUDGE
from evalplus_ng.records import Job
from evalplus_ng.sandbox import Limits, Sandbox, cgroup, rootfs
from evalplus_ng.sandbox.environ import NAMES, package_home
from evalplus_ng.sandbox.jail import MODE_VARIABLE, Mode
from evalplus_ng.sandbox.pool import sweep_folders
from evalplus_ng.sandbox.rootfs import answer_keys
from evalplus_ng.serialize import decode, encode

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


def _uid(pid: int) -> int:
    """The uid of process ``pid``; -1 once it has ended (a short-lived one, such as the
    jail's probe, may end between two looks)."""
    try:
        return os.stat(f"/proc/{pid}").st_uid
    except FileNotFoundError:
        return -1


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
    env = {**os.environ, **sandboxmark.variables(marker)}
    tool = subprocess.Popen(
        [sys.executable, "-m", "evalplus_ng.cli", "evaluate", "--samples", str(samples),
         "--suite", "base", "-j", "1", "--min-time-limit", "30",
         "--no-sanitize"],  # as written: the spinner has no return, EvalPlus's sanitizer drops it
        env=env, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    # Wait for the spinning child (a uid of the sandbox's own).
    while time.monotonic() < deadline and not any(
            _uid(pid) >= 0x40000000 for pid in _marked(marker)):
        time.sleep(0.1)
    assert _marked(marker), "the sample never ran"
    tool.send_signal(how)
    tool.wait(timeout=60)
    deadline = time.monotonic() + 10
    while _marked(marker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _marked(marker) == []
    # The tool's folders are named after its pid (other tests' may come and go meanwhile).
    mine = f"evalplus-ng-sandbox-{tool.pid}-*"
    left = {p.name for p in Path("/tmp").glob(mine)} - before
    if how is signal.SIGKILL:  # no time to clean up: the next sandbox removes what is left
        with Sandbox(1, LIMITS):
            pass
    else:
        assert not left
    assert {p.name for p in Path("/tmp").glob(mine)} <= before
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


def _suite_reader(folder: Path) -> tuple[Path, str, str]:
    """A suite file anyone may read in ``folder`` (its text a fresh secret), the secret,
    and a sample that returns the file's text (or the name of the error it got)."""
    suite = folder / "HumanEvalPlus.jsonl"
    secret = uuid.uuid4().hex
    suite.write_text(secret, encoding="utf-8")
    suite.chmod(0o644)
    folder.chmod(0o755)
    return suite, secret, READER.replace("__PATH__", repr(str(suite)))


@requires_root
def test_the_callers_answer_keys_are_out_of_reach_in_every_mode(jail: str,
                                                                 tmp_path: Path) -> None:
    # A suite file beside the samples holds the reference solutions; the sandbox is told.
    suite, _secret, code = _suite_reader(tmp_path)
    # What the supervisor itself needs is never covered, even when a caller names it
    # (a cache folder set to /tmp, say): the sandbox still works.
    needed = [tempfile.gettempdir(), sys.prefix, "/"]
    with Sandbox(1, LIMITS, hidden=[suite, *needed]) as sandbox:
        assert sandbox.hidden == (str(suite.resolve()),)
        value = sandbox.run(_job(code, None)).outcomes[0].value
    assert value == "FileNotFoundError"
    # The jail does not show it even when the sandbox is not told.
    with Sandbox(1, LIMITS) as sandbox:
        assert sandbox.run(_job(code, None)).outcomes[0].value == "FileNotFoundError"


@requires_root
def test_the_weak_mode_covers_the_answer_keys_it_is_told_of(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(MODE_VARIABLE, Mode.WEAK.value)
    suite, secret, code = _suite_reader(tmp_path)
    with Sandbox(1, LIMITS, hidden=[suite]) as sandbox:
        value = sandbox.run(_job(code, None)).outcomes[0].value
    assert value != secret and value in ("FileNotFoundError", "PermissionError", "")
    # The same sample reads it when the sandbox is not told: the weak mode is weak.
    with Sandbox(1, LIMITS) as sandbox:
        assert sandbox.run(_job(code, None)).outcomes[0].value == secret


def test_evaluate_hides_the_suites_it_judges_with_and_the_cache(tmp_path: Path) -> None:
    from evalplus_ng.tasks.registry import resolve

    humaneval = resolve("humaneval")
    from evalplus_ng.pipeline.context import Workspace
    from evalplus_ng.tasks.sources import user_cache_dir

    own = tmp_path / "mine.jsonl.gz"
    space = Workspace(humaneval, tmp_path)
    assert space.suite_path(str(own)) == own
    hidden = space.answer_keys(own)
    assert {tmp_path / name for name in humaneval.suite_files().values()} <= set(hidden)
    assert own in hidden and user_cache_dir() in hidden
    assert space.suite_path("base") is None
    assert space.suite_path("plus") == tmp_path / "HumanEvalPlus.jsonl.gz"


# --------------------------------------------------------------------------- Sandbox v3

surroundings = corpus.surroundings

#: Hostile samples (tests/hostile/) that aim at the machine around the jail: its files
#: (planted, root's, another uid's), its world-writable folders, its capabilities and
#: socket families.
MACHINE_ATTACKS = ("read_planted_key", "read_root_only", "answer_key_on_disk",
                   "write_world_writable", "write_run_lock", "write_tmp", "capabilities",
                   "vsock_socket", "socket_families", "unix_connect")


@requires_root
def test_the_machine_is_out_of_reach_in_every_mode(jail: str,
                                                   surroundings: corpus.Surroundings) -> None:
    jobs = [corpus._job(surroundings.code(name)) for name in MACHINE_ATTACKS]
    with Sandbox(1, corpus.FAST, judge=JUDGE) as sandbox:
        results = list(sandbox.map(jobs))
        assert sandbox.run(corpus._job(corpus.GOOD)).all_passed
    for name, result in zip(MACHINE_ATTACKS, results, strict=True):
        corpus._assert_verdict(name, result)
    surroundings.assert_untouched()


THIEF = """    import json
    try:
        with open(__SAMPLES__, encoding="utf-8") as handle:
            for line in handle:
                record = json.loads(line)
                if "json.loads" not in record["completion"]:
                    namespace = {}
                    exec("def truncate_number(number):\\n" + record["completion"], namespace)
                    return namespace["truncate_number"](number)
    except OSError:
        pass
    return -1.0
"""


def test_a_sample_cannot_run_a_neighbours_answer_from_the_samples_file(
        jail: str, tmp_path: Path) -> None:
    samples = tmp_path / "samples.jsonl"
    neighbour = {"task_id": "HumanEval/2", "completion": "    return number % 1.0\n"}
    thief = {"task_id": "HumanEval/2",
             "completion": THIEF.replace("__SAMPLES__", repr(str(samples)))}
    samples.write_text("".join(json.dumps(r) + "\n" for r in (neighbour, thief)))
    samples.chmod(0o644)
    results = tmp_path / "results.json"
    done = CliRunner().invoke(main, ["evaluate", "--samples", str(samples), "--suite", "base",
                                     "-j", "1", "--results", str(results)])
    assert done.exit_code == 0, done.output
    verdicts = json.loads(results.read_text())["eval"]["HumanEval/2"]
    assert [v["base_status"] for v in verdicts] == ["pass", "fail"]


#: A program (a function's child has no /proc to read its mounts from; a program's child
#: sees the same mounts, and its own /proc).
SHOWN = """import json, os
mounts = []
with open("/proc/self/mountinfo") as handle:
    for line in handle:
        fields = line.split()
        mounts.append([fields[4], fields[5].split(",")])
home = __HOME__
print(json.dumps([mounts, sorted(os.listdir("/")), sorted(os.listdir(home)), os.getpid()]))
"""


def test_the_jail_shows_what_its_plan_shows_read_only(jail: str) -> None:
    plan = rootfs.plan(LIMITS)
    code = SHOWN.replace("__HOME__", repr(package_home()))
    with Sandbox(1, LIMITS) as sandbox:
        outcome = sandbox.run(Job(code=code, entry_point="", inputs=[encode("")],
                                  time_limits=[10.0], program=True)).outcomes[0]
    assert outcome.value is not None, outcome
    mounts, top, home, pid = json.loads(decode(outcome.value))
    points = {point for point, _ in mounts}
    kinds = rootfs.Kind
    mounted = {s.target for s in plan if s.kind not in (kinds.LINK, kinds.DIR)}
    assert mounted | {"/"} <= points
    # Beyond the plan: only device files and /proc's own (what bubblewrap adds there), and
    # the child's own working folder (a tmpfs of its own in the jail's).
    assert all(rootfs.inside(point, ["/dev", "/proc", rootfs.JAIL_ROOT])
               for point in points - mounted - {"/"})
    writable = {point for point, options in mounts if "rw" in options}
    assert all(rootfs.inside(point, ["/dev", "/proc", rootfs.JAIL_ROOT]) for point in writable)
    # The root shows what the plan puts there and nothing else of the machine.
    assert set(top) == {s.target.split("/")[1] for s in plan}
    # Around the package (a checkout here, or site-packages): only what the plan shows
    # (the package, an environment inside the checkout); no data folder, no samples.
    below = package_home() + os.sep
    if not rootfs.inside(package_home(), [s.target for s in plan if s.kind is kinds.BIND]):
        assert set(home) == {s.target[len(below):].split(os.sep)[0] for s in plan
                             if s.target.startswith(below)}
        assert "datasets" not in home
    assert "evalplus_ng" in home
    assert pid < 100  # its own pid namespace


AS_USER = """
import json, sys
from evalplus_ng.records import Job
from evalplus_ng.sandbox import Limits, Sandbox
from evalplus_ng.serialize import encode
found = {}
with Sandbox(1, Limits(memory_bytes=1 << 30, load_seconds=5.0)) as box:
    found["mode"] = box.mode.value
    for name, code in json.loads(sys.argv[1]).items():
        result = box.run(Job(code=code, entry_point="f", inputs=[encode([1])],
                             time_limits=[10.0]))
        outcome = result.outcomes[0] if result.outcomes else result.load
        found[name] = [outcome.status.value, outcome.value, outcome.error]
print(json.dumps(found))
"""


@requires_root
def test_an_ordinary_user_gets_the_same_jail(jail: str) -> None:
    """A supervisor started by an unprivileged uid (through a user namespace): no
    capability, nothing of the machine's files to read or write, no vsock socket, no
    variable of the user's (an API key) but the sandbox's allow-list."""
    with ordinary_user() as user:
        folder, uid = user.folder, user.uid
        planted = folder / "reference.py"
        planted.write_text("def f(x):\n    return x + 1\n")
        planted.chmod(0o644)
        own = folder / "own.txt"
        own.write_text("the user's own file")
        own.chmod(0o600)
        os.chown(own, uid, uid)
        drop = folder / "drop"
        drop.mkdir(mode=0o777)
        drop.chmod(0o1777)
        codes = {
            "capabilities": (HOSTILE / "capabilities.py").read_text(),
            "planted": (HOSTILE / "read_planted_key.py").read_text().replace(
                "__PLANTED__", str(planted)),
            "own": READER.replace("__PATH__", repr(str(own))),
            "drop": (HOSTILE / "write_world_writable.py").read_text().replace(
                "__DROP__", str(drop)),
            "vsock": (HOSTILE / "vsock_socket.py").read_text(),
            "env": ("import os\ndef f(x):\n"
                    "    return sorted(f'{k}={v}' for k, v in os.environ.items())\n"),
        }
        secret = f"sk-{uuid.uuid4().hex}"
        done = user.run(["-c", AS_USER, json.dumps(codes)],
                        {MODE_VARIABLE: jail, "OPENAI_API_KEY": secret})
        assert done.returncode == 0, done.stderr
        found = json.loads(done.stdout)
        assert found.pop("mode") == jail
        assert found["capabilities"] == ["ok", 0, None]
        assert found["planted"] == ["ok", 0, None]
        assert found["own"] == ["ok", "FileNotFoundError", None]
        assert found["drop"][0] == "error" and "Error" in found["drop"][2]
        assert found["vsock"][0] == "error" and "PermissionError" in found["vsock"][2]
        status, variables, _ = found["env"]
        assert status == "ok" and secret not in json.dumps(variables)
        names = {line.split("=", 1)[0] for line in variables}
        assert names - {"TMPDIR", "PWD"} == set(NAMES), sorted(names)
        assert list(drop.iterdir()) == []


@requires_root
@pytest.mark.skipif(shutil.which("setpriv") is None, reason="needs setpriv (util-linux)")
def test_where_no_jail_can_be_made_the_commands_refuse_unless_the_risk_is_named(
        tmp_path: Path) -> None:
    # Root without CAP_SYS_ADMIN (as in a default container) and no bubblewrap: neither
    # jail can be made.
    samples = tmp_path / "samples.jsonl"
    samples.write_text(json.dumps({"task_id": "HumanEval/2",
                                   "completion": "    return number % 1.0\n"}) + "\n")
    results = tmp_path / "results.json"
    command = [str(shutil.which("setpriv")), "--bounding-set", "-sys_admin", sys.executable,
               "-m", "evalplus_ng.cli", "evaluate", "--samples", str(samples), "--suite",
               "base", "-j", "1", "--results", str(results)]
    env = {k: v for k, v in os.environ.items() if k != MODE_VARIABLE}
    env["PATH"] = "/nonexistent"

    def run(*extra: str, **variables: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*command, *extra], env={**env, **variables}, cwd=tmp_path,
                              capture_output=True, text=True, timeout=300)

    refused = run()
    assert refused.returncode != 0
    assert refused.stderr.startswith("error: no jail for untrusted code here: bubblewrap is "
                                     "missing and the namespaces jail failed (unshare(")
    assert len(refused.stderr.strip().splitlines()) == 1
    assert "--allow-weak-jail" in refused.stderr and not results.exists()
    # Naming the namespaces mode is refused the same way: never silently weaker.
    named = run(**{MODE_VARIABLE: Mode.NAMESPACES.value})
    assert named.returncode != 0 and len(named.stderr.strip().splitlines()) == 1
    assert named.stderr.startswith("error: EVALPLUS_NG_JAIL=namespaces, but the kernel")
    allowed = run("--allow-weak-jail")
    assert allowed.returncode == 0, allowed.stderr
    assert "--allow-weak-jail: untrusted code runs in the weak mode" in allowed.stderr
    verdicts = json.loads(results.read_text())["eval"]["HumanEval/2"]
    assert [v["base_status"] for v in verdicts] == ["pass"]
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
    from evalplus_ng.pipeline.context import Workspace
    from evalplus_ng.seal import secret_folder, user_secret
    from evalplus_ng.tasks.registry import resolve

    cache = Path(sys.prefix) / f"evalplus-ng-test-cache-{uuid.uuid4().hex}"
    monkeypatch.setenv("EVALPLUS_NG_CACHE", str(cache))
    try:
        user_secret(cache)
        folder = secret_folder(cache)
        assert os.listdir(folder) == ["results.key"]
        cache.chmod(0o755)
        code = LISTER.replace("__PATH__", repr(str(folder)))
        hidden = Workspace(resolve("humaneval"), cache / "artifacts").answer_keys()
        with Sandbox(1, LIMITS, hidden=hidden) as sandbox:
            # Covered with the cache around it (a folder inside a covered one is left
            # out: bwrap could not make its mount point in the read-only cover).
            assert str(cache) in sandbox.hidden and str(folder) not in sandbox.hidden
            outcome = sandbox.run(_job(code, None)).outcomes[0]
        # Covered (with the cache around it) by an empty folder: no key there, and no
        # PermissionError that would say one is.
        assert outcome.value in ([], "FileNotFoundError"), outcome
        # Not told, the sandbox shows the folder: a child (of another uid, with no
        # capability) finds it there but may not list it.
        with Sandbox(1, LIMITS) as sandbox:
            assert sandbox.run(_job(code, None)).outcomes[0].value == "PermissionError"
    finally:
        shutil.rmtree(cache, ignore_errors=True)
