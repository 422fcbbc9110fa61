"""The Ray backend against a real local Ray cluster the tests start: a head and one more
node on this machine, each with its own temporary folder and one CPU. Same verdicts and
same bytes as the local backend; a node killed mid-run does not stop the run."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
import sandboxmark
import test_sandbox as corpus  # the hostile corpus (tests/ is on the path, as pytest runs)
from click.testing import CliRunner

from evalplus_ng.backend.executors import Backend
from evalplus_ng.cli import main

pytest.importorskip("ray", reason="the Ray backend is an optional extra: pip install '.[ray]'")
#: One test worker runs them all: the module's cluster starts once, and no two clusters
#: compete for the two cores.
pytestmark = pytest.mark.xdist_group("ray")

#: Node deaths noticed within seconds (Ray's defaults wait half a minute).
FAST_DEATH = {"RAY_health_check_period_ms": "300", "RAY_health_check_timeout_ms": "1000",
              "RAY_health_check_failure_threshold": "3", "RAY_health_check_initial_delay_ms": "0"}


@dataclass
class Cluster:
    address: str
    folders: tuple[Path, Path]

    def processes(self, folder: Path) -> list[int]:
        """The processes of the node using ``folder``: its daemons (raylet, GCS, monitors,
        agents) and its workers. Some rename themselves over their command line and
        environment: those are found by the log files they hold open in the folder."""
        found = []
        for entry in Path("/proc").iterdir():
            # Not this process, the driver: it keeps Ray's event logs of the first cluster
            # it joined open in that cluster's folder.
            if entry.name.isdigit() and int(entry.name) != os.getpid() and _uses(entry, folder):
                found.append(int(entry.name))
        return found

    def kill_node(self, folder: Path) -> None:
        """SIGKILL every process of the node, again until none is left (a daemon may be
        starting a worker as it dies)."""
        deadline = time.monotonic() + 10
        while (pids := self.processes(folder)) and time.monotonic() < deadline:
            for pid in pids:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.05)


def _uses(process: Path, folder: Path) -> bool:
    """Does the process ``/proc/PID`` name ``folder`` in its command line or environment,
    or hold a file below it open?"""
    try:
        if str(folder).encode() in (process / "cmdline").read_bytes() + (
                process / "environ").read_bytes():
            return True
        return any(os.readlink(link).startswith(f"{folder}/")
                   for link in (process / "fd").iterdir())
    except OSError:
        return False  # gone, or not ours to read


def _ray_cli() -> str:
    return str(Path(sys.executable).with_name("ray"))


def _ray_env(node: Path, **extra: str) -> dict[str, str]:
    """The environment of a test node's Ray daemons: a home of their own, in the node's
    folder (a token that an earlier local ``ray.init`` left in ~/.ray would turn token
    authentication on for the head only, and the second node could not join; and the
    node's processes are found by it)."""
    home = node / "home"
    home.mkdir(exist_ok=True)
    return {**os.environ, "HOME": str(home), "RAY_USAGE_STATS_ENABLED": "0", **extra}


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    """A cluster of its own, for a test that kills one of its nodes."""
    yield from _two_nodes()


@pytest.fixture(scope="module")
def shared_cluster() -> Iterator[Cluster]:
    """One cluster for the tests that leave it as they found it (its start is most of
    their time)."""
    yield from _two_nodes()


def _two_nodes() -> Iterator[Cluster]:
    # Short folders: Ray's unix sockets live below them (a path may not exceed 107 bytes).
    head, node = (Path(tempfile.mkdtemp(prefix=f"ng-ray-{name}-", dir="/tmp"))
                  for name in ("head", "node"))
    port = _free_port()
    common = ["--num-cpus", "1", "--disable-usage-stats"]
    made = Cluster(f"127.0.0.1:{port}", (head, node))
    try:
        subprocess.run([_ray_cli(), "start", "--head", "--port", str(port), "--temp-dir",
                        str(head), "--include-dashboard", "false", *common],
                       env=_ray_env(head, **FAST_DEATH), check=True, capture_output=True,
                       timeout=120)
        subprocess.run([_ray_cli(), "start", "--address", made.address, "--temp-dir",
                        str(node), *common], env=_ray_env(node, **FAST_DEATH),
                       check=True, capture_output=True, timeout=120)
        yield made
    finally:
        for folder in (node, head):
            made.kill_node(folder)
        time.sleep(0.5)
        for folder in (head, node):
            shutil.rmtree(folder, ignore_errors=True)


def _samples(path: Path, bodies: list[str]) -> Path:
    path.write_text("".join(json.dumps({"task_id": task, "completion": body}) + "\n"
                            for task, body in bodies), encoding="utf-8")
    return path


def _suite(folder: Path) -> Path:
    from evalplus_ng.tasks.artifact import write_plus_file
    from evalplus_ng.tasks.registry import load_humaneval

    tasks = {t.task_id: t for t in load_humaneval()}
    folder.mkdir()
    write_plus_file([replace(tasks["HumanEval/53"], plus_inputs=([-3, 4], [10**20, 1])),
                     replace(tasks["HumanEval/13"], plus_inputs=([7, 21], [10**9, 6]))],
                    folder / "HumanEvalPlus.jsonl.gz")
    return folder


SAMPLES = [("HumanEval/53", "    return x + y\n"), ("HumanEval/53", "    return abs(x) + y\n"),
           ("HumanEval/53", "    while True:\n        pass\n"),
           ("HumanEval/53", "    raise ValueError(x)\n"),
           ("HumanEval/13", "    while b:\n        a, b = b, a % b\n    return a\n"),
           ("HumanEval/13", "    return min(a, b)\n"),
           ("HumanEval/13", "    import os\n    os._exit(1)\n")]


def _judged(path: Path) -> dict[str, Any]:
    """A results document without what differs between two runs of the same judging: the
    date it was written, the MAC over it and where it ran (the jail: ``ray`` on a
    cluster)."""
    document: dict[str, Any] = json.loads(path.read_text())
    document.pop("date", None)
    document["evalplus_ng"].pop("mac", None)
    document["evalplus_ng"].pop("jail", None)
    return document


def _evaluate(samples: Path, artifacts: Path, results: Path, *extra: str) -> str:
    result = CliRunner().invoke(main, ["evaluate", "--samples", str(samples), "--artifacts",
                                       str(artifacts), "--results", str(results),
                                       "--min-time-limit", "0.5", *extra])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_evaluate_and_augment_on_ray_give_the_local_results(shared_cluster: Cluster,
                                                            tmp_path: Path) -> None:
    artifacts = _suite(tmp_path / "artifacts")
    samples = _samples(tmp_path / "s.jsonl", SAMPLES)
    local = _evaluate(samples, artifacts, tmp_path / "local.json", "-j", "2")
    remote = _evaluate(samples, artifacts, tmp_path / "ray.json", "--backend", "ray",
                       "--address", shared_cluster.address)
    ours, theirs = (_judged(tmp_path / name) for name in ("local.json", "ray.json"))
    assert ours == theirs  # verdicts, failing inputs, failure kinds and identity
    assert "\njail: each Ray node's own\n" in remote and "\njail: " in local

    def summary(text: str) -> list[str]:
        return [line for line in text.splitlines() if not line.startswith("jail: ")]

    assert summary(remote.replace("ray.json", "local.json"))[2:] == summary(local)[1:]
    # Both nodes judged: the summary counts each node's sandbox jobs.
    per_node = next(line for line in remote.splitlines() if line.startswith("sandbox jobs"))
    assert per_node.count(",") == 1, per_node
    # augment: the same seed gives the same bytes wherever the tasks run.
    for name, extra in (("local", ["-j", "2"]),
                        ("ray", ["--backend", "ray", "--address", shared_cluster.address])):
        result = CliRunner().invoke(main, ["augment", "--tasks", "0,53", "--per-task", "20",
                                           "--out", str(tmp_path / name), "--no-audit",
                                           "--no-reduce", "--no-calibrate", *extra])
        assert result.exit_code == 0, result.output
        assert ("tasks augmented per Ray node" in result.stdout) == (name == "ray")
    for file in ("HumanEvalPlus.jsonl.gz", "HumanEvalPlus-Stress.jsonl.gz", "stats.json"):
        assert (tmp_path / "local" / file).read_bytes() == (tmp_path / "ray" / file).read_bytes()
    # reduce: requirements computed a task a unit on the cluster, stored by the driver.
    shutil.copytree(tmp_path / "ray", tmp_path / "reduced")
    for folder, extra in ((tmp_path / "local", ["-j", "2"]),
                          (tmp_path / "reduced", ["--backend", "ray", "--address",
                                                  shared_cluster.address])):
        result = CliRunner().invoke(main, ["reduce", "--out", str(folder), *extra])
        assert result.exit_code == 0, result.output
        assert ("tasks reduced per Ray node" in result.stdout) == (folder.name == "reduced")
    for file in ("HumanEvalPlus-Mini.jsonl.gz", "reduction.json", "reduction.md"):
        assert (tmp_path / "local" / file).read_bytes() == (
            tmp_path / "reduced" / file).read_bytes()
    caches = [sorted((folder / "reduction").rglob("*.json")) for folder in
              (tmp_path / "local", tmp_path / "reduced")]
    assert [p.relative_to(tmp_path / "local") for p in caches[0]] == [
        p.relative_to(tmp_path / "reduced") for p in caches[1]] and caches[0]
    for ours, theirs in zip(*caches, strict=True):
        assert ({**json.loads(ours.read_text()), "seconds": 0}
                == {**json.loads(theirs.read_text()), "seconds": 0})
    # calibrate: every task timed on the cluster (a unit measures its node's reference).
    result = CliRunner().invoke(main, ["calibrate", "--out", str(tmp_path / "ray"),
                                       "--backend", "ray", "--address", shared_cluster.address])
    assert result.exit_code == 0, result.output
    # Two tasks in each of the plus, stress and edge suites (HumanEval's edge tier is
    # empty, its contracts being written, but its tasks are timed on their base tests).
    assert "calibrated" in result.stdout and "of 6 tasks" in result.stdout
    from evalplus_ng.tasks.plusfile import load_plus_file

    for file in ("HumanEvalPlus.jsonl.gz", "HumanEvalPlus-Stress.jsonl.gz"):
        timed = load_plus_file(tmp_path / "ray" / file)
        assert all(t.calibration is not None and t.calibration.reference_seconds
                   and len(t.calibration.units) == len(t.base_inputs) + len(t.plus_inputs)
                   for t in timed)
        assert [replace(t, calibration=None) for t in timed] == load_plus_file(
            tmp_path / "local" / file)


def test_program_tasks_on_ray_give_the_local_results(shared_cluster: Cluster, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # Program tasks' jobs (programs on stdin, a checker's) are plain jobs to the cluster:
    # augment (its MINI too) and evaluate give the local bytes and verdicts.
    from programfixtures import SUM, augment, sum_tasks, use_plan, write_samples

    use_plan(monkeypatch)  # planning runs on the driver; the nodes run the reference
    tasks = sum_tasks(tmp_path / "tasks.jsonl.gz")
    backends = {"local": ["-j", "2"],
                "ray": ["--backend", "ray", "--address", shared_cluster.address]}
    for name, extra in backends.items():
        output = augment(tasks, tmp_path / name, "--no-calibrate", "--mini", *extra,
                         per_task=30).output
        assert ("sandbox jobs per Ray node" in output) == (name == "ray"), output
        assert ("sandbox jobs of the MINI per Ray node" in output) == (name == "ray")
    for file in ("ProgramsPlus.jsonl.gz", "ProgramsMini.jsonl.gz", "mini-stats.json"):
        assert (tmp_path / "local" / file).read_bytes() == (tmp_path / "ray" / file).read_bytes()
    wrong = "n = int(input())\nxs = input().split()\nprint(sum(map(int, xs[:100])))\n"
    slow = "n = int(input())\nwhile n == 200:\n    pass\nprint(sum(map(int, input().split())))\n"
    codes = [SUM, wrong, slow, "print(0)\n", "import os\nos._exit(3)\n"]
    judged = {}
    for name, extra in backends.items():
        samples = write_samples(tmp_path / f"{name}.jsonl", "cc/sum", codes)
        result = CliRunner().invoke(main, ["evaluate", "--dataset-file",
                                           str(tmp_path / "ray" / "ProgramsPlus.jsonl.gz"),
                                           "--samples", str(samples), "--min-time-limit", "0.5",
                                           *extra])
        assert result.exit_code == 0, result.output
        nodes = next((line for line in result.stdout.splitlines()
                      if line.startswith("sandbox jobs per Ray node: ")), "")
        assert (sum(int(part.split()[1]) for part in nodes.split(": ")[1].split(", "))
                if nodes else 0) == (len(codes) if name == "ray" else 0)
        [path] = tmp_path.glob(f"{name}.evalplus-ng.full-*.json")
        document = json.loads(path.read_text())
        judged[name] = [{**entry, "tests": [{**run, "seconds": 0} for run in entry["tests"]]}
                        for entry in document["eval"]["cc/sum"]]
    assert judged["local"] == judged["ray"]
    assert [(e["full_status"], e["first_failure"] and e["first_failure"]["status"])
            for e in judged["ray"]] == [("pass", None), ("fail", "wrong_answer"),
                                        ("fail", "timeout"), ("fail", "wrong_answer"),
                                        ("fail", "runtime_error")]


def test_a_node_killed_mid_run_does_not_stop_evaluate(cluster: Cluster, tmp_path: Path) -> None:
    from evalplus_ng.evaluation.verdicts import EvalConfig
    from evalplus_ng.pipeline.context import Workspace
    from evalplus_ng.pipeline.evaluate import EvaluateRequest, run_evaluate
    from evalplus_ng.tasks.registry import resolve

    artifacts = _suite(tmp_path / "artifacts")
    # Distinct slow samples (each times out on a base input): the run lasts seconds.
    slow = [("HumanEval/53", f"    if x == {x}:\n        while True:\n            pass\n"
                             f"    return x + y + {n % 2}\n") for n, x in enumerate(range(12))]
    samples = _samples(tmp_path / "s.jsonl", SAMPLES + slow)
    killed: list[int] = []

    def progress(done: int, _total: int) -> None:
        if done >= 3 and not killed:
            killed.append(done)
            cluster.kill_node(cluster.folders[1])

    def request(backend: str, results: str) -> EvaluateRequest:
        where = Backend(2, backend == "ray", cluster.address if backend == "ray" else None)
        return EvaluateRequest(samples=samples, suite="plus",
                               workspace=Workspace(resolve("humaneval"), artifacts, where),
                               config=EvalConfig(floor_seconds=0.5),
                               results=tmp_path / results)

    summary = run_evaluate(request("ray", "ray.json"), progress)
    assert killed and not cluster.processes(cluster.folders[1])
    run_evaluate(request("local", "local.json"))
    ours, theirs = (_judged(tmp_path / name) for name in ("local.json", "ray.json"))
    assert ours == theirs and len(summary.results) == len(SAMPLES) + 12


def test_a_ray_run_cut_short_resumes_where_it_stopped(shared_cluster: Cluster,
                                                      tmp_path: Path) -> None:
    # The driver alone writes the results file: what it judged before it stopped is kept
    # and a run with --resume judges only the rest.
    from evalplus_ng.evaluation.verdicts import EvalConfig
    from evalplus_ng.pipeline.context import Workspace
    from evalplus_ng.pipeline.evaluate import EvaluateRequest, run_evaluate
    from evalplus_ng.tasks.registry import resolve

    artifacts = _suite(tmp_path / "artifacts")
    samples = _samples(tmp_path / "s.jsonl", SAMPLES)

    class Stopped(Exception):
        pass

    def stop(done: int, _total: int) -> None:
        if done == 3:
            raise Stopped

    def request(backend: str, results: str, resume: bool = False) -> EvaluateRequest:
        where = Backend(2, backend == "ray",
                        shared_cluster.address if backend == "ray" else None)
        return EvaluateRequest(samples=samples, suite="plus",
                               workspace=Workspace(resolve("humaneval"), artifacts, where),
                               config=EvalConfig(floor_seconds=0.5), resume=resume,
                               results=tmp_path / results)

    with pytest.raises(Stopped):
        run_evaluate(request("ray", "ray.json"), stop)
    assert len(json.loads((tmp_path / "ray.json").read_text())["eval"]) >= 1
    resumed = run_evaluate(request("ray", "ray.json", resume=True))
    assert resumed.reused == 3 and len(resumed.results) == len(SAMPLES)
    run_evaluate(request("local", "local.json"))
    ours, theirs = (_judged(tmp_path / name) for name in ("local.json", "ray.json"))
    # A checkpoint holds no failure's diff (expected outputs, written once the run is
    # complete): the samples judged before the stop have none; all else is the same.
    for document in (ours, theirs):
        for entries in document["eval"].values():
            for entry in entries:
                entry.pop("base_diff", None)
                entry.pop("plus_diff", None)
    assert ours == theirs


def test_a_node_killed_mid_run_does_not_stop_augment(cluster: Cluster, tmp_path: Path) -> None:
    from evalplus_ng.pipeline.augment import AugmentConfig, run_augment, select_tasks
    from evalplus_ng.pipeline.context import Workspace
    from evalplus_ng.tasks.registry import load_humaneval, resolve

    tasks = select_tasks(load_humaneval(), "0-5")
    config = AugmentConfig(per_task=60, seed=7)
    killed: list[int] = []

    def progress(done: int, _total: int) -> None:
        if done >= 1 and not killed:
            killed.append(done)
            cluster.kill_node(cluster.folders[1])

    humaneval = resolve("humaneval")
    remote = run_augment(tasks, config, Workspace(humaneval, tmp_path / "ray",
                                                  Backend(2, True, cluster.address)), progress)
    assert killed and not cluster.processes(cluster.folders[1])
    assert len(remote.reports) == 6 and sum(remote.nodes.values()) == 6
    run_augment(tasks, config, Workspace(humaneval, tmp_path / "local", Backend(2)))
    for file in ("HumanEvalPlus.jsonl.gz", "HumanEvalPlus-Stress.jsonl.gz", "stats.json"):
        assert (tmp_path / "local" / file).read_bytes() == (tmp_path / "ray" / file).read_bytes()


def test_a_cluster_that_cannot_be_reached_is_a_one_line_error(tmp_path: Path) -> None:
    samples = _samples(tmp_path / "s.jsonl", SAMPLES[:1])
    result = CliRunner().invoke(main, ["evaluate", "--samples", str(samples), "--suite", "base",
                                       "--backend", "ray", "--address",
                                       f"127.0.0.1:{_free_port()}"])
    assert result.exit_code != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: cannot reach the Ray cluster at")
    result = CliRunner().invoke(main, ["evaluate", "--samples", str(samples), "--address", "x:1"])
    assert result.exit_code == 2 and "--address names a Ray cluster" in result.stderr


@contextlib.contextmanager
def _one_node(cpus: int = 1, **env: str) -> Iterator[Cluster]:
    """A cluster of one node (its own folder, ``env`` added to its daemons' environment,
    which its workers and their sandboxes inherit); every process of it killed after."""
    folder = Path(tempfile.mkdtemp(prefix="ng-ray-", dir="/tmp"))
    port = _free_port()
    made = Cluster(f"127.0.0.1:{port}", (folder, folder))
    try:
        subprocess.run([_ray_cli(), "start", "--head", "--port", str(port), "--temp-dir",
                        str(folder), "--include-dashboard", "false", "--num-cpus", str(cpus),
                        "--disable-usage-stats"], env=_ray_env(folder, **env), check=True,
                       capture_output=True, timeout=120)
        yield made
    finally:
        made.kill_node(folder)
        time.sleep(0.5)
        shutil.rmtree(folder, ignore_errors=True)


def test_a_sample_on_a_ray_worker_cannot_see_rays_folder() -> None:
    # Ray's folder holds logs and objects spilled from the object store (jobs with their
    # expected outputs). The weak mode shows the machine's /tmp: the worker's sandbox
    # covers Ray's folder there (the jail, in either mode, shows no /tmp at all).
    from evalplus_ng.backend.cluster import RayExecutor
    from evalplus_ng.records import Job

    with _one_node(EVALPLUS_NG_JAIL="weak") as made:
        folder = made.folders[0]
        code = ("import os\n"
                "def f(x):\n"
                f"    seen = os.listdir({str(folder)!r}) if os.path.isdir({str(folder)!r}) "
                "else []\n"
                "    visible = os.listdir('/tmp') if os.path.isdir('/tmp') else []\n"
                "    return [seen, len(visible)]\n")
        with RayExecutor(made.address) as executor:
            (result,) = list(executor.map([Job(code=code, entry_point="f", inputs=[[1]],
                                               time_limits=[10.0])]))
    assert result.outcomes and result.outcomes[0].value is not None, result
    seen, visible = result.outcomes[0].value
    assert seen == [] and visible > 0  # /tmp is there, Ray's folder below it is not


def test_a_sample_on_a_ray_worker_sees_only_the_allow_list() -> None:
    # The node's daemons and workers hold a key (as the shell that started Ray would):
    # the supervisors a worker starts do not pass it on.
    from evalplus_ng.backend.cluster import RayExecutor
    from evalplus_ng.records import Job
    from evalplus_ng.sandbox.environ import NAMES

    secret = f"sk-{uuid.uuid4().hex}"
    code = ("import os\ndef f(x):\n"
            "    return sorted(f'{k}={v}' for k, v in os.environ.items())\n")
    with _one_node(OPENAI_API_KEY=secret) as made, RayExecutor(made.address) as executor:
        (result,) = list(executor.map([Job(code=code, entry_point="f", inputs=[[1]],
                                           time_limits=[10.0])]))
    assert result.outcomes and result.outcomes[0].value is not None, result
    variables = result.outcomes[0].value
    assert secret not in json.dumps(variables)
    assert {line.split("=", 1)[0] for line in variables} - {"TMPDIR", "PWD"} == set(NAMES)


# The hostile corpus and its surroundings (tests/test_sandbox.py), here run by Ray workers.
surroundings = corpus.surroundings
marker = corpus.marker


@corpus.requires_root
def test_the_hostile_corpus_on_ray_workers_is_contained_and_leaves_nothing(
        surroundings: corpus.Surroundings, marker: str) -> None:
    from evalplus_ng.backend.cluster import RayExecutor

    # Processes whose environment cannot be read count as marked: those already here.
    before = {p.pid for p in corpus._processes(marker) if p.marked}
    jobs = [corpus._job(corpus.GOOD)]
    for name in corpus.CONTAINED:
        jobs += [corpus._job(surroundings.code(name)), corpus._job(corpus.GOOD)]
    # The marker reaches the Ray daemons, their workers, and the workers' sandboxes.
    with _one_node(2, **sandboxmark.variables(marker)) as made:
        with RayExecutor(made.address, corpus.FAST) as executor:
            results = list(executor.map(jobs))
        assert all(result.all_passed for result in results[::2])
        for name, result in zip(corpus.CONTAINED, results[1::2], strict=True):
            corpus._assert_verdict(name, result)
        # While the workers live (their sandboxes kept for the next chunks): no sample's
        # process outlived its job.
        assert corpus._wait_for_no_leftovers(marker) == []
    surroundings.assert_untouched()
    # The node gone: its workers' sandboxes went with it.
    deadline = time.monotonic() + 10
    while (alive := [p for p in corpus._processes(marker)
                     if p.marked and not p.zombie and p.pid not in before]
           ) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert alive == []
