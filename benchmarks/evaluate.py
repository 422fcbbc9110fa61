"""Throughput and verdict agreement of evalplus-ng's ``evaluate`` against evalplus 0.3.1's.

What it measures: samples judged per second by each tool on the same samples and
the same suite in the same run, their ratio, and every sample whose
``(base_status, plus_status)`` differs between the two, with the likely reason.

How:

1. **Suite.** The 164 HumanEval tasks from :func:`evalplus_ng.tasks.registry.load_humaneval`
   (base inputs recovered from ``check()``), given plus inputs = every base input
   again plus up to ``--variants`` small variations of it ("bump": ints +1, floats
   +0.5, strings reversed, lists reversed with their items bumped; "shrink": last
   list item / character dropped, ints -1). A variation is kept only when the
   reference solution answers it within 0.5 s without raising, its output is plain
   data, and plain JSON represents it exactly (so evalplus and evalplus-ng see the
   same values). Written once with :func:`evalplus_ng.tasks.artifact.write_plus_file`.
2. **Samples.** The first ``--files`` files of ``/work/shared/samples/humaneval``
   (``--all`` for every one), each completion sanitized with
   :func:`evalplus_ng.tasks.sanitize.sanitize` (repeated to its fixed point: sanitize is
   not always idempotent, and evalplus-ng re-sanitizes a ``solution``), concatenated
   into one temporary JSON Lines file of ``{task_id, solution}``. Both tools get that
   full code and run it verbatim: evalplus 0.3.1's ``evaluate`` does not sanitize,
   evalplus-ng runs with ``--no-sanitize``. That neither tool changed it is checked and
   reported.
3. **evalplus 0.3.1** lives in a scratch venv (``--venv``, created on first use with
   ``pip install evalplus==0.3.1``; never a project dependency). It runs as
   ``python -m evalplus.evaluate --dataset humaneval --samples S --parallel J
   --min_time_limit 1 --gt_time_limit_factor 4`` with ``HUMANEVAL_OVERRIDE_PATH``
   pointing at the suite, ``HOME``/``XDG_CACHE_HOME`` in a fresh scratch folder so
   it computes its ground truth like evalplus-ng does (``--warm`` also times a
   second run that reuses its ground-truth cache). A small driver calls the same
   ``evalplus.evaluate.main`` and leaves with ``os._exit`` once the results file is
   written: evalplus's "stuck checker" thread would otherwise keep the process
   alive up to 20 s more after the work is done, which is not judging time.
4. **evalplus-ng** runs as ``python -m evalplus_ng.cli evaluate --samples S --suite
   PATH -j J --min-time-limit 1 --time-factor 4 --no-sanitize`` (end to end, like
   evalplus), and
   in-process through :func:`evalplus_ng.pipeline.evaluate.run_evaluate` to split off the
   ground-truth time.
5. **Verdicts** are matched by (task, rank within task), which both tools keep in
   file order. Each difference is explained by re-running the sample and the
   reference on the disagreeing input in evalplus-ng's sandbox, with the typed
   input and with its plain-JSON form: type strictness (``==`` holds but the typed
   oracle refuses), float tolerance, input types lost by JSON, timeouts, errors.

Same parallelism (``-j``, default 2), same limits (per-test max(1 s, 4 x ground
truth), 4 GiB address space) on both sides. Each tool's wall-clock time and the
machine's busy CPU time during it are recorded; ``--repeat N`` runs N rounds in
alternating order and keeps each tool's fastest, since other work on the machine
slows a run down but never speeds it up. evalplus-ng's sandbox scans /tmp after
every child, so the number of entries in /tmp is reported too.

    python benchmarks/evaluate.py [--files 3 | --all] [-j 2] [--repeat 1] [--warm]
                                  [--json report.json]
"""

# ruff: noqa: E402  (the project's imports follow the sys.path set-up for a plain checkout)
from __future__ import annotations

import argparse
import contextlib
import copy
import dataclasses
import importlib.util
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any
from unittest import mock

ROOT = Path(__file__).resolve().parents[1]
if importlib.util.find_spec("evalplus_ng") is None:  # run from a checkout, not installed
    sys.path.insert(0, str(ROOT))

from evalplus_ng.backend.executors import Backend
from evalplus_ng.evaluation import verdicts as evaluate_module
from evalplus_ng.evaluation.verdicts import EvalConfig
from evalplus_ng.judge import check as oracle_check
from evalplus_ng.oracle.groundtruth import GroundTruth, run_ground_truth
from evalplus_ng.pipeline import evaluate as command
from evalplus_ng.pipeline.context import Workspace
from evalplus_ng.records import Job, Status, Task
from evalplus_ng.sandbox import Sandbox
from evalplus_ng.serialize import Unserializable, canonical, decode, encode
from evalplus_ng.tasks.artifact import plus_record, write_plus_file
from evalplus_ng.tasks.plusfile import load_plus_file
from evalplus_ng.tasks.registry import load_humaneval, resolve
from evalplus_ng.tasks.samples import Sanitizing
from evalplus_ng.tasks.sanitize import sanitize
from evalplus_ng.types import Args, TaskId

SAMPLES_DIR = Path("/work/shared/samples/humaneval")
EVALPLUS_VERSION = "0.3.1"
DEFAULT_VENV = Path(tempfile.gettempdir()) / f"evalplus-{EVALPLUS_VERSION}-venv"
MIN_TIME_LIMIT = 1.0
TIME_FACTOR = 4.0
OURS_CLI = "evalplus-ng (CLI)"
OURS_INPROCESS = "evalplus-ng (in-process)"
EVALPLUS = f"evalplus {EVALPLUS_VERSION}"
EVALPLUS_WARM = f"evalplus {EVALPLUS_VERSION} (warm cache)"
#: A variation is dropped when the reference needs longer than this on it.
VARIANT_SECONDS = 0.5
#: Time limit of the re-runs that explain a difference.
EXPLAIN_SECONDS = 10.0

# Runs evalplus's own entry point and reports phase times; ``os._exit`` skips the
# wait for evalplus's non-daemon "stuck checker" thread (it sleeps 20 s per turn).
_DRIVER = r"""
import json, os, sys, time
began = time.perf_counter()
timings_path = sys.argv.pop(1)
sys.argv[0] = "evalplus.evaluate"
import evalplus.evaluate as ev
imported = time.perf_counter() - began
truth = [0.0]
original = ev.get_groundtruth
def timed(*args, **kwargs):
    start = time.perf_counter()
    try:
        return original(*args, **kwargs)
    finally:
        truth[0] += time.perf_counter() - start
ev.get_groundtruth = timed
code = 0
try:
    ev.main()
except SystemExit as exc:
    code = exc.code if isinstance(exc.code, int) else 1
except BaseException:
    import traceback
    traceback.print_exc()
    code = 1
total = time.perf_counter() - began
with open(timings_path, "w") as handle:
    json.dump({"import": imported, "ground_truth": truth[0], "total": total}, handle)
sys.stdout.flush()
sys.stderr.flush()
os._exit(code)
"""


# --------------------------------------------------------------------------- suite


class _Slow(BaseException):
    """Raised by the alarm when the reference takes too long on a variation."""


def _on_alarm(_signum: int, _frame: FrameType | None) -> None:
    raise _Slow


def _bump(value: Any) -> Any:
    kind = type(value)
    if kind is int:
        return value + 1
    if kind is float:
        return value + 0.5
    if kind is str:
        return value[::-1]
    if kind is list:
        return [_bump(item) for item in reversed(value)]
    return value


def _shrink(value: Any) -> Any:
    kind = type(value)
    if kind is int:
        return value - 1
    if kind in (str, list):
        return value[:-1]
    return value


VARIATIONS: tuple[Callable[[Any], Any], ...] = (_bump, _shrink)


def _plain(task: Task, args: Args) -> Any:
    """The plain-JSON form evalplus reads for one argument list."""
    record = plus_record(dataclasses.replace(task, base_inputs=(), plus_inputs=(args,)))
    return json.loads(json.dumps(record["plus_input"][0]))


def _answers(reference: Callable[..., Any], args: Args) -> bool:
    """Does the trusted reference return plain data on ``args`` quickly, without raising?"""
    signal.setitimer(signal.ITIMER_REAL, VARIANT_SECONDS)
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            output = reference(*copy.deepcopy(args))
        encode(output)
    except (Exception, _Slow):
        return False
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    return True


def with_variations(task: Task, count: int) -> Task:
    """The task with plus inputs: its base inputs, then up to ``count`` variations of each."""
    namespace: dict[str, Any] = {"__name__": "__reference__"}
    exec(compile(task.solution, f"<{task.task_id}>", "exec"), namespace)
    reference: Callable[..., Any] = namespace[task.entry_point]
    seen = {canonical(list(args)) for args in task.base_inputs}
    plus: list[Args] = [copy.deepcopy(list(args)) for args in task.base_inputs]
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    try:
        for args in task.base_inputs:
            for vary in VARIATIONS[:count]:
                variant = [vary(arg) for arg in args]
                key = canonical(variant)
                if key in seen:
                    continue
                seen.add(key)
                if canonical(_plain(task, variant)) != key:
                    continue
                if _answers(reference, variant):
                    plus.append(variant)
    finally:
        signal.signal(signal.SIGALRM, previous)
    return dataclasses.replace(task, plus_inputs=tuple(plus))


# --------------------------------------------------------------------------- samples


@dataclass(frozen=True)
class Origin:
    """Where a sample came from and what both tools were given."""

    file: str
    line: int
    task_id: TaskId
    solution: str
    #: Sanitize passes until the code stopped changing (1 when sanitize is idempotent on it).
    rounds: int


def sanitized(answer: str, task: Task, most: int = 5) -> tuple[str, int]:
    """Sanitize to a fixed point, so that evalplus-ng's own re-sanitizing is a no-op."""
    code = sanitize(answer, task.prompt, task.entry_point)
    for rounds in range(1, most + 1):
        again = sanitize(code, task.prompt, task.entry_point)
        if again == code:
            return code, rounds
        code = again
    return code, most + 1


def write_samples(files: Sequence[Path], tasks: dict[TaskId, Task], out: Path) -> list[Origin]:
    """Sanitize every completion of ``files`` into one ``{task_id, solution}`` file."""
    origins: list[Origin] = []
    with out.open("w", encoding="utf-8") as handle:
        for path in files:
            lines = path.read_text(encoding="utf-8").splitlines()
            for number, line in enumerate(lines, start=1):
                if not line.strip():
                    continue
                record = json.loads(line)
                task = tasks[record["task_id"]]
                answer = record.get("solution", record.get("completion", ""))
                code, rounds = sanitized(answer, task)
                origins.append(Origin(path.name, number, task.task_id, code, rounds))
                handle.write(json.dumps({"task_id": task.task_id, "solution": code}) + "\n")
    return origins


# --------------------------------------------------------------------------- runs


@dataclass
class Run:
    """One timed run of one tool."""

    tool: str
    seconds: float
    samples: int
    ground_truth_seconds: float | None = None
    startup_seconds: float | None = None
    results: Path | None = None
    notes: list[str] = field(default_factory=list)
    #: Busy CPU time of the machine during the run (see :func:`_cpu`).
    cpu_seconds: float = 0.0

    @property
    def rate(self) -> float:
        """Samples per second, end to end."""
        return self.samples / self.seconds

    @property
    def judging_rate(self) -> float | None:
        """Samples per second without startup and ground truth, when they are known."""
        if self.ground_truth_seconds is None:
            return None
        rest = self.seconds - self.ground_truth_seconds - (self.startup_seconds or 0.0)
        return self.samples / rest if rest > 0 else None

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready summary."""
        return {
            "tool": self.tool, "seconds": round(self.seconds, 3), "samples": self.samples,
            "samples_per_second": round(self.rate, 2), "cpu_seconds": round(self.cpu_seconds, 3),
            "ground_truth_seconds": _round(self.ground_truth_seconds),
            "startup_seconds": _round(self.startup_seconds),
            "judging_samples_per_second": _round(self.judging_rate),
            "results": str(self.results) if self.results else None, "notes": self.notes,
        }


def _cpu() -> float:
    """Busy CPU seconds of the whole machine so far (all cores, from /proc/stat).

    Not ``getrusage``: evalplus-ng's jailed processes are killed with their jail, not
    reaped up the process tree, so their time never reaches RUSAGE_CHILDREN. The
    machine's own count takes every process, and so also other work running at the
    same time: run benchmarks on an otherwise idle machine.
    """
    with open("/proc/stat") as handle:
        fields = handle.readline().split()[1:]
    # user nice system idle iowait irq softirq steal: all but idle and iowait.
    busy = sum(int(v) for i, v in enumerate(fields[:8]) if i not in (3, 4))
    return busy / os.sysconf("SC_CLK_TCK")


def timed(run: Callable[[], Run]) -> Run:
    """Run one tool and attach the CPU time it used."""
    before = _cpu()
    result = run()
    result.cpu_seconds = _cpu() - before
    return result


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def best_runs(runs: Sequence[Run]) -> dict[str, Run]:
    """The fastest run of each tool (least disturbed by whatever else the machine does)."""
    best: dict[str, Run] = {}
    for run in runs:
        if run.tool not in best or run.seconds < best[run.tool].seconds:
            best[run.tool] = run
    return best


def _fresh_copy(samples: Path, folder: Path) -> Path:
    """A copy of the samples in its own folder (each tool writes results beside it)."""
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    target = folder / samples.name
    shutil.copyfile(samples, target)
    return target


def _project_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return env


def run_ours_cli(samples: Path, suite: Path, jobs: int, folder: Path) -> Run:
    """evalplus-ng's CLI as a subprocess, end to end."""
    target = _fresh_copy(samples, folder)
    results = target.with_name(f"{target.stem}.evalplus-ng.json")
    command = [
        sys.executable, "-m", "evalplus_ng.cli", "evaluate", "--no-sanitize", "--samples",
        str(target),
        "--suite", str(suite), "-j", str(jobs), "--min-time-limit", str(MIN_TIME_LIMIT),
        "--time-factor", str(TIME_FACTOR), "--results", str(results),
    ]
    log = folder / "log.txt"
    began = time.perf_counter()
    with log.open("w") as handle:
        code = subprocess.run(command, stdout=handle, stderr=subprocess.STDOUT,
                              stdin=subprocess.DEVNULL, env=_project_env(), cwd=folder).returncode
    seconds = time.perf_counter() - began
    if code != 0:
        raise SystemExit(f"evalplus-ng CLI failed ({code}); see {log}")
    return Run(OURS_CLI, seconds, _count(target), results=results)


def run_ours_inprocess(samples: Path, suite: Path, jobs: int, folder: Path) -> Run:
    """evalplus-ng through ``run_evaluate``, timing its ground-truth phase."""
    target = _fresh_copy(samples, folder)
    truth_seconds = [0.0]

    def timed(*args: Any, **kwargs: Any) -> dict[TaskId, GroundTruth]:
        start = time.perf_counter()
        try:
            return run_ground_truth(*args, **kwargs)
        finally:
            truth_seconds[0] += time.perf_counter() - start

    notes: list[str] = []
    request = command.EvaluateRequest(
        samples=target, suite=str(suite),
        workspace=Workspace(resolve("humaneval"), backend=Backend(jobs)),
        config=EvalConfig(floor_seconds=MIN_TIME_LIMIT, factor=TIME_FACTOR),
        sanitizing=Sanitizing.NONE,
    )
    # ``evaluate_staged`` computes the ground truth in two stages: both are timed.
    with mock.patch.object(evaluate_module, "run_ground_truth", timed):
        began = time.perf_counter()
        summary = command.run_evaluate(
            request, status=lambda m: notes.append(m) if m.startswith("warning") else None
        )
        seconds = time.perf_counter() - began
    return Run(OURS_INPROCESS, seconds, len(summary.results), truth_seconds[0],
               0.0, summary.results_path, notes)


def _count(samples: Path) -> int:
    return sum(1 for line in samples.read_text(encoding="utf-8").splitlines() if line.strip())


def venv_python(venv: Path) -> Path:
    """A venv holding evalplus 0.3.1: reused when present, else created now."""
    python = venv / "bin" / "python"
    probe = [str(python), "-c", "import importlib.metadata as m; print(m.version('evalplus'))"]
    if python.exists():
        found = subprocess.run(probe, capture_output=True, text=True)
        if found.returncode == 0 and found.stdout.strip() == EVALPLUS_VERSION:
            return python
    print(f"creating {venv} with evalplus=={EVALPLUS_VERSION} (one-off)...", file=sys.stderr)
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "-q", f"evalplus=={EVALPLUS_VERSION}"],
                   check=True)
    return python


#: The variable through which evalplus 0.3.1 reads a dataset's suite from a file.
OVERRIDE_VARIABLES = {"humaneval": "HUMANEVAL_OVERRIDE_PATH", "mbpp": "MBPP_OVERRIDE_PATH"}


def run_evalplus(python: Path, samples: Path, suite: Path, jobs: int, folder: Path,
                 cache: Path, label: str, dataset: str = "humaneval") -> Run:
    """evalplus 0.3.1's evaluate as a subprocess on ``dataset`` (``humaneval`` or ``mbpp``),
    its suite read from ``suite``; ``cache`` holds its dataset/ground truth."""
    target = _fresh_copy(samples, folder)
    (cache / "home").mkdir(parents=True, exist_ok=True)
    env = dict(os.environ)
    env.pop("EVALPLUS_TIMEOUT_PER_TASK", None)  # a string there breaks 0.3.1's min()
    env.pop("EVALPLUS_MAX_MEMORY_BYTES", None)  # keep its 4 GiB default, as ours
    env.update({
        OVERRIDE_VARIABLES[dataset]: str(suite), "HOME": str(cache / "home"),
        "XDG_CACHE_HOME": str(cache / "xdg"), "TOKENIZERS_PARALLELISM": "false",
    })
    timings = folder / "timings.json"
    command = [
        str(python), "-c", _DRIVER, str(timings), "--dataset", dataset,
        "--samples", str(target), "--parallel", str(jobs),
        "--min_time_limit", str(MIN_TIME_LIMIT), "--gt_time_limit_factor", str(TIME_FACTOR),
    ]
    log = folder / "log.txt"
    began = time.perf_counter()
    with log.open("w") as handle:
        code = subprocess.run(command, stdout=handle, stderr=subprocess.STDOUT,
                              stdin=subprocess.DEVNULL, env=env, cwd=folder).returncode
    seconds = time.perf_counter() - began
    results = target.with_name(target.name.replace(".jsonl", "_eval_results.json"))
    if code != 0 or not results.is_file():
        raise SystemExit(f"evalplus failed ({code}); see {log}")
    phases = json.loads(timings.read_text())
    return Run(label, seconds, _count(target), phases["ground_truth"],
               phases["import"] + max(0.0, seconds - phases["total"]), results)


# --------------------------------------------------------------------------- verdicts


Verdicts = dict[TaskId, list[dict[str, Any]]]


def load_verdicts(path: Path) -> Verdicts:
    """The ``eval`` table of an EvalPlus-layout results file."""
    table: Verdicts = json.loads(path.read_text(encoding="utf-8"))["eval"]
    return table


def paired(origins: Sequence[Origin], ours: Verdicts,
           theirs: Verdicts) -> Iterator[tuple[Origin, dict[str, Any], dict[str, Any]]]:
    """Each sample with its entry in both tables (same task, same rank within the task)."""
    rank: Counter[TaskId] = Counter()
    for origin in origins:
        index = rank[origin.task_id]
        rank[origin.task_id] += 1
        yield origin, ours[origin.task_id][index], theirs[origin.task_id][index]


def _pair(entry: dict[str, Any]) -> tuple[str, str]:
    return entry["base_status"], entry["plus_status"]


@dataclass(frozen=True)
class Probe:
    """One input run in evalplus-ng's sandbox: the outcome and the decoded value."""

    status: Status
    value: Any
    error: str | None
    seconds: float


def _probe(sandbox: Sandbox, code: str, task: Task, args: Any) -> Probe:
    try:
        wire = [encode(list(args))]
    except Unserializable as exc:
        return Probe(Status.BAD_OUTPUT, None, f"input not plain: {exc}", 0.0)
    result = sandbox.run(Job(code, task.entry_point, wire, [EXPLAIN_SECONDS],
                             task_id=task.task_id))
    if result.load.status is not Status.OK:
        return Probe(result.load.status, None, f"load: {result.load.error}", 0.0)
    outcome = result.outcomes[0]
    value = decode(outcome.value) if outcome.status is Status.OK else None
    return Probe(outcome.status, value, outcome.error, outcome.seconds)


def _short(value: Any, limit: int = 80) -> str:
    text = f"{value!r} ({type(value).__name__})"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _inputs(task: Task, column: str) -> tuple[Args, ...]:
    return task.base_inputs if column == "base" else task.plus_inputs


def _locate(task: Task, column: str, failed: Sequence[Any]) -> int | None:
    """Index of the input listed as failing (in plain-JSON form) in the results file."""
    if not failed:
        return None
    wanted = json.dumps(failed[0], sort_keys=True)
    for index, args in enumerate(_inputs(task, column)):
        if json.dumps(_plain(task, list(args)), sort_keys=True) == wanted:
            return index
    return None


def _float_close(expected: Any, actual: Any) -> bool:
    if isinstance(expected, float) and isinstance(actual, (int, float)):
        return abs(expected - actual) <= 1e-3 * max(1.0, abs(expected))
    if isinstance(expected, (list, tuple)) and isinstance(actual, (list, tuple)):
        return len(expected) == len(actual) and all(
            _float_close(e, a) for e, a in zip(expected, actual, strict=True)
        )
    return False


def explain(sandbox: Sandbox, task: Task, code: str, ours: dict[str, Any],
            theirs: dict[str, Any]) -> str:
    """The likely reason two verdicts differ, from re-running the disagreeing input."""
    statuses = {*_pair(ours), *_pair(theirs)}
    for column in ("base", "plus"):
        mine, other = ours[f"{column}_status"], theirs[f"{column}_status"]
        if mine == other:
            continue
        index = _locate(task, column, ours[f"{column}_fail_tests"])
        side = "ours"
        if index is None:
            index = _locate(task, column, theirs[f"{column}_fail_tests"])
            side = "evalplus"
        if index is None:
            if "timeout" in statuses:
                return f"{column}: time limit (ours {mine}, evalplus {other}), no failing input"
            failing = "ours" if mine != "pass" else "evalplus"
            probe = _probe(sandbox, code, task, task.base_inputs[0] if task.base_inputs else [])
            detail = probe.error or probe.status.value
            return f"{column}: {failing} fails before any input runs (our re-run: {detail})"
        return _explain_input(sandbox, task, code, column, index, side, mine, other)
    return "no column differs"


def _explain_input(sandbox: Sandbox, task: Task, code: str, column: str, index: int,
                   side: str, mine: str, other: str) -> str:
    typed = list(_inputs(task, column)[index])
    plain = _plain(task, typed)
    where = f"{column}[{index}] (failing for {side})"
    reference = _probe(sandbox, task.solution, task, typed)
    sample = _probe(sandbox, code, task, typed)
    if canonical(plain) != canonical(typed):
        sample_plain = _probe(sandbox, code, task, plain)
        reference_plain = _probe(sandbox, task.solution, task, plain)
        return (f"{where}: input types lost by plain JSON, evalplus calls with "
                f"{_short(plain, 60)} not {_short(typed, 60)}; sample gives "
                f"{_short(sample_plain.value, 50)} vs reference {_short(reference_plain.value, 50)}"
                f" there, {_short(sample.value, 50)} vs {_short(reference.value, 50)} typed")
    overran = sample.status is Status.TIMEOUT or sample.seconds >= MIN_TIME_LIMIT
    if (mine, other) == ("timeout", "fail") and overran:
        ended = "still running" if sample.status is Status.TIMEOUT else sample.status.value
        return (f"{where}: time limit, reported differently: the sample runs past the limit "
                f"({ended} after {sample.seconds:.1f}s on re-run, reference "
                f"{reference.seconds:.4f}s); "
                "evalplus 0.3.1 turns a test its SIGALRM interrupts into 'fail' (it says "
                "'timeout' only when the whole child process had to be killed)")
    if "timeout" in (mine, other) or sample.status is Status.TIMEOUT:
        return (f"{where}: time limit; ours {mine}, evalplus {other}; sample {sample.status.value}"
                f" in {sample.seconds:.2f}s, reference {reference.seconds:.4f}s")
    if sample.status is not Status.OK:
        return f"{where}: sample {sample.status.value} in our sandbox: {sample.error}"
    if reference.status is not Status.OK:
        return f"{where}: reference {reference.status.value}: {reference.error}"
    expected, actual = reference.value, sample.value
    if oracle_check(task.oracle, typed, expected, actual, task.atol):
        return (f"{where}: our oracle accepts {_short(actual)} for {_short(expected)} on "
                "re-run (flaky or evalplus-only failure)")
    if expected == actual:
        return f"{where}: type strictness, expected {_short(expected)}, got {_short(actual)}"
    if _float_close(expected, actual):
        return f"{where}: float tolerance, expected {_short(expected)}, got {_short(actual)}"
    return f"{where}: different output, expected {_short(expected)}, got {_short(actual)}"


# --------------------------------------------------------------------------- main


_STARTED = time.monotonic()


def say(message: str) -> None:
    """Progress on stderr, with seconds since start."""
    print(f"[{time.monotonic() - _STARTED:6.1f}s] {message}", file=sys.stderr, flush=True)


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--files", type=int, default=3, help="how many samples files (sorted)")
    parser.add_argument("--all", action="store_true", help="every samples file")
    parser.add_argument("-j", "--jobs", type=int, default=2, help="workers, both tools")
    parser.add_argument("--samples-dir", type=Path, default=SAMPLES_DIR)
    parser.add_argument("--venv", type=Path, default=DEFAULT_VENV,
                        help="scratch venv with evalplus 0.3.1 (created when missing)")
    parser.add_argument("--work", type=Path, default=None,
                        help="scratch folder (default: a new one under /tmp, kept)")
    parser.add_argument("--variants", type=int, default=2, choices=range(len(VARIATIONS) + 1),
                        help="variations per base input added to the plus inputs")
    parser.add_argument("--suite", type=Path, default=None,
                        help="use this HumanEvalPlus file (e.g. augment's output) as the suite "
                             "instead of base inputs plus variations")
    parser.add_argument("--warm", action="store_true",
                        help="also time evalplus with its ground-truth cache already filled")
    parser.add_argument("--no-inprocess", action="store_true",
                        help="skip the in-process evalplus-ng run (CLI only)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="rounds (alternating order); the best round of each tool counts")
    parser.add_argument("--json", type=Path, default=None, help="save the report here")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Run both tools, compare, print the table; exit 0."""
    options = _parse(argv)
    files = sorted(options.samples_dir.glob("*.jsonl"))
    if not options.all:
        files = files[: options.files]
    if not files:
        raise SystemExit(f"no samples files in {options.samples_dir}")
    work = options.work or Path(tempfile.mkdtemp(prefix="evalplus-ng-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    python = venv_python(options.venv)

    say(f"building the suite in {work} ...")
    if options.suite is not None:
        tasks = load_plus_file(options.suite)
    else:
        tasks = [with_variations(task, options.variants) for task in load_humaneval()]
    by_id = {task.task_id: task for task in tasks}
    suite = work / "suite.jsonl"
    write_plus_file(tasks, suite)
    n_base = sum(len(t.base_inputs) for t in tasks)
    n_plus = sum(len(t.plus_inputs) for t in tasks)
    samples = work / "samples.jsonl"
    origins = write_samples(files, by_id, samples)
    say(f"{len(origins)} samples from {len(files)} file(s); suite {n_base} base, {n_plus} plus "
        "inputs")

    def evalplus_runs(folder: Path) -> list[Run]:
        cache = folder / "cache"  # fresh: evalplus computes its ground truth, as we do
        found = [timed(lambda: run_evalplus(python, samples, suite, options.jobs,
                                            folder / "cold", cache, EVALPLUS))]
        if options.warm:
            found.append(timed(lambda: run_evalplus(python, samples, suite, options.jobs,
                                                    folder / "warm", cache, EVALPLUS_WARM)))
        return found

    plans: list[tuple[str, Callable[[Path], list[Run]]]] = [
        ("ours-cli",
         lambda folder: [timed(lambda: run_ours_cli(samples, suite, options.jobs, folder))]),
    ]
    if not options.no_inprocess:
        plans.append(("ours-inprocess", lambda folder: [
            timed(lambda: run_ours_inprocess(samples, suite, options.jobs, folder))
        ]))
    plans.append(("evalplus", evalplus_runs))
    runs: list[Run] = []
    for round_ in range(1, options.repeat + 1):
        # Alternate the order so that neither tool always runs on the warmer machine.
        for name, plan in plans if round_ % 2 else plans[::-1]:
            say(f"round {round_}/{options.repeat}: {name} ...")
            runs.extend(plan(work / f"{name}-{round_}"))
    best = best_runs(runs)
    first = {run.tool: run for run in reversed(runs)}
    ours_first, theirs_first = first[OURS_CLI], first[EVALPLUS]
    assert ours_first.results is not None and theirs_first.results is not None
    ours = load_verdicts(ours_first.results)
    theirs = load_verdicts(theirs_first.results)

    say("comparing verdicts ...")
    changed = 0
    evalplus_changed = 0
    differences: list[dict[str, Any]] = []
    counts: dict[str, Counter[str]] = {"evalplus-ng": Counter(), "evalplus": Counter()}
    with Sandbox(options.jobs) as sandbox:
        for origin, mine, other in paired(origins, ours, theirs):
            changed += mine["solution"] != origin.solution
            evalplus_changed += other["solution"] != origin.solution
            counts["evalplus-ng"].update(f"{c}:{mine[f'{c}_status']}" for c in ("base", "plus"))
            counts["evalplus"].update(f"{c}:{other[f'{c}_status']}" for c in ("base", "plus"))
            if _pair(mine) == _pair(other):
                continue
            task = by_id[origin.task_id]
            differences.append({
                "sample": f"{origin.file}:{origin.line}", "task_id": origin.task_id,
                "ours": "/".join(_pair(mine)), "evalplus": "/".join(_pair(other)),
                "reason": explain(sandbox, task, mine["solution"], mine, other),
            })

    report = {
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "files": [path.name for path in files], "samples": len(origins), "jobs": options.jobs,
        "suite": {"path": str(suite), "tasks": len(tasks), "base_inputs": n_base,
                  "plus_inputs": n_plus, "variants_per_input": options.variants},
        "time_limits": {"floor_seconds": MIN_TIME_LIMIT, "factor": TIME_FACTOR},
        "repeat": options.repeat,
        "runs": [run.as_dict() for run in runs],
        "best": {tool: run.as_dict() for tool, run in best.items()},
        "verdict_counts": {tool: dict(sorted(c.items())) for tool, c in counts.items()},
        "sanitize_not_idempotent": sum(origin.rounds > 1 for origin in origins),
        "solutions_changed_by_our_resanitize": changed,
        "solutions_changed_by_evalplus": evalplus_changed,
        "differences": differences, "work": str(work),
        "tmp_entries": _tmp_entries(),
    }
    report.update(ratios(best))
    print_report(report, list(best.values()))
    if options.json:
        options.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0


def ratios(best: dict[str, Run]) -> dict[str, float]:
    """evalplus-ng over evalplus: wall-clock samples/s, CPU per sample, judging phase only."""
    found: dict[str, float] = {}
    ours, theirs = best.get(OURS_CLI), best[EVALPLUS]
    if ours is not None:
        found["ratio_end_to_end"] = round(ours.rate / theirs.rate, 2)
        if ours.cpu_seconds > 0:
            found["ratio_cpu"] = round(theirs.cpu_seconds / ours.cpu_seconds, 2)
    inprocess = best.get(OURS_INPROCESS)
    if inprocess and inprocess.judging_rate and theirs.judging_rate:
        found["ratio_judging_only"] = round(inprocess.judging_rate / theirs.judging_rate, 2)
    warm = best.get(EVALPLUS_WARM)
    if ours is not None and warm is not None:
        found["ratio_end_to_end_vs_warm_evalplus"] = round(ours.rate / warm.rate, 2)
    return found


def _tmp_entries() -> int:
    """Entries in /tmp: evalplus-ng's sandbox scans it after every child, so it matters."""
    try:
        return len(os.listdir("/tmp"))
    except OSError:
        return -1


def print_report(report: dict[str, Any], runs: Sequence[Run]) -> None:
    """The short table."""
    suite = report["suite"]
    print(f"\n{report['samples']} samples ({len(report['files'])} files), -j {report['jobs']}; "
          f"suite: {suite['tasks']} tasks, {suite['base_inputs']} base + "
          f"{suite['plus_inputs']} plus inputs")
    print(f"best of {report['repeat']} round(s) per tool")
    print(f"{'tool':<30}{'seconds':>9}{'samples/s':>11}{'CPU s':>9}{'ground truth s':>16}"
          f"{'judging samples/s':>19}")
    for run in runs:
        truth = "" if run.ground_truth_seconds is None else f"{run.ground_truth_seconds:.2f}"
        judging = "" if run.judging_rate is None else f"{run.judging_rate:.1f}"
        print(f"{run.tool:<30}{run.seconds:>9.2f}{run.rate:>11.1f}{run.cpu_seconds:>9.1f}"
              f"{truth:>16}{judging:>19}")
    labels = {
        "ratio_end_to_end": "samples/s, end to end (CLI vs evalplus, both compute ground truth)",
        "ratio_end_to_end_vs_warm_evalplus": "samples/s, end to end vs evalplus with warm cache",
        "ratio_judging_only": "samples/s, judging only (no startup, no ground truth)",
        "ratio_cpu": "CPU seconds per sample, evalplus / ours (load-independent)",
    }
    for key, label in labels.items():
        if key in report:
            print(f"ratio {report[key]:5.1f}x  {label}")
    for tool, counts in report["verdict_counts"].items():
        print(f"{tool:<12} " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    print(f"sanitize not idempotent on {report['sanitize_not_idempotent']} samples (fed both "
          f"tools its fixed point); solutions changed by our re-sanitize: "
          f"{report['solutions_changed_by_our_resanitize']}, by evalplus: "
          f"{report['solutions_changed_by_evalplus']}")
    differences = report["differences"]
    print(f"(base, plus) status differs for {len(differences)} of {report['samples']} samples")
    for row in differences:
        print(f"  {row['task_id']:<14} ours {row['ours']:<17} evalplus {row['evalplus']:<17} "
              f"{row['sample']}\n      {row['reason']}")
    print(f"scratch files: {report['work']}; /tmp holds {report['tmp_entries']} entries")


if __name__ == "__main__":
    sys.exit(main())
