"""Input-generation throughput: evalplus-ng's fuzz pipeline against EvalPlus 0.3.1's TypedMutGen.

For every task both generators get the SAME seed inputs and a contract of the
SAME strength, run single-process one after the other, and are asked for
``--per-task`` new inputs (at most ``--seconds`` of generation each). The
figure reported is distinct valid new inputs per second, and the ratio
ours / theirs per task and its median.

    PYTHONPATH=. python benchmarks/generate.py [--tasks all|0,5,10-20] [--per-task 1000]
        [--seconds 60] [--json report.json] [--evalplus-python PATH]

Seeds (outside both timings). ``evalplus_ng.pipeline.augment.groundwork``, the
very call ``augment`` makes (same per-task seed): the contract widened to the
shapes the prompt admits, and the seeds (the base inputs, docstring examples,
the seed corpus if any and up to 100 Hypothesis draws, each kept only when the
contract accepts it, deduplicated). Both sides get this list as their seed pool
(TypedMutGen's ``inputs``, our fuzz corpus). Values cross to the EvalPlus
process by pickle, so tuples, sets and int dict keys arrive unchanged.

The contract. Ours: ``contracts/humaneval/HumanEval_N.py``, i.e. the arity,
exact types of the annotations (``typespec.matches``: ``bool`` is not ``int``,
``int`` is not ``float``, ...) and ``pre(...) is True``. Theirs: the same thing
written in EvalPlus's style, as ``c_code = <contract module> + prompt +
<assert lines> + canonical_solution`` (EvalPlus's own layout is prompt +
contract asserts + canonical solution). The contract module's source (without
comments and docstrings) is pasted at the top with ``pre`` renamed ``_ng_pre``;
the asserts are one ``type(x) is
...`` expression per parameter generated from the same specs, then ``assert
_ng_pre(...) is True``. Arity is checked by the call itself (no HumanEval entry
point has defaults or ``*args``). The "agree" column is the share of EvalPlus's
valid inputs that our contract also accepts: 100% means the translation is
not looser than ours.

What counts as a valid new input.
  * Ours: an input kept by the ground-truth oracle (``groundtruth.oracle``: the
    ground truth run twice in the sandbox, 1 s limit, within augment's budget of
    executed lines, same output both runs) after the fuzz loop produced it (a
    mutant, or one of its scaled-up inputs) as a new, distinct
    (``serialize.canonical``), contract-valid input, in any of augment's tiers
    (plus, stress or edge).
  * Theirs: an input returned by ``TypedMutGen.generate`` (its ``new_inputs``):
    ``hash(str(x))`` not seen before and ``trusted_check_exec(c_code, [x])``
    succeeded, i.e. the ground truth with the contract asserts ran in-process
    without raising within its 1 s ``SIGALRM`` limit.
  On both sides an input counts once (deduplicated with ``canonical``) and only
  when it is not one of the seeds: base inputs and the other seeds are free
  input to both, so only generated inputs are counted.

What is inside the timing.
  * Ours: ``evalplus_ng.pipeline.augment.generate``, the very loop ``augment``
    runs after the groundwork: the seeded fuzz stream (mutation + contract
    filter, in-process), the sandboxed oracle and the tiers (the plain reference
    timed where one exists), with augment's further rounds when the oracle drops
    too many. Fuzz and oracle seconds are timed by wrapping the two from outside. The
    one-worker sandbox is started (and warmed with one job) once, before any
    timing, as EvalPlus's interpreter start-up and imports are outside its timing.
    The oracle also re-runs the non-base seeds, which ``fuzz`` emits first.
  * Theirs: ``TypedMutGen(seeds, entry_point, c_code)`` plus ``generate(N)``
    with its validity check, in a fresh process of the EvalPlus venv
    (``random.seed(task seed)`` first and ``PYTHONHASHSEED=0``, as it draws
    ingredients from sets of strings; memory capped at 4 GiB as our sandbox
    child's is). Its own timeout is set to ``--seconds``.
  Ours is capped by giving each round's fuzzing the time left of ``--seconds`` (the
  oracle is not interrupted; ``augment`` itself gives each round the whole budget);
  theirs by TypedMutGen's own ``timeout``.

When EvalPlus finds no valid input within the cap, the ratio shown is a lower
bound (as if it had found one at the end: marked ``>=``). Needs a venv with
``evalplus==0.3.1`` (not a project dependency)::

    python -m venv /tmp/evalplus-0.3.1-venv
    /tmp/evalplus-0.3.1-venv/bin/pip install evalplus==0.3.1
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import json
import math
import os
import pickle
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any
from unittest import mock

from evalplus_ng import typespec as ts
from evalplus_ng.generate.contract import Contract, contract_file
from evalplus_ng.generate.fuzz import FuzzConfig, Fuzzer, FuzzResult
from evalplus_ng.generate.seed import BASE, Seed
from evalplus_ng.oracle.groundtruth import Oracle, oracle
from evalplus_ng.oracle.tiers import PlainReference
from evalplus_ng.pipeline import augment
from evalplus_ng.pipeline.augment import (
    AugmentConfig,
    Groundwork,
    _task_seed,
    generate,
    groundwork,
    references,
    select_tasks,
)
from evalplus_ng.records import Job, Task
from evalplus_ng.resources import data_dir
from evalplus_ng.sandbox import Limits, Sandbox
from evalplus_ng.serialize import Unserializable, canonical
from evalplus_ng.tasks.registry import resolve
from evalplus_ng.types import Args
from evalplus_ng.typespec import Spec

DEFAULT_PYTHON = "/tmp/evalplus-0.3.1-venv/bin/python"
#: A spread of HumanEval tasks: scalars, strings, lists, nested lists, dicts,
#: tuples, Any, loose and very strict contracts, cheap and costly ground truths.
REPRESENTATIVE = "0,1,10,12,13,17,22,26,32,39,47,53,63,75,87,95,116,129,148,160"
#: Extra wall-clock time the EvalPlus process gets beyond ``--seconds`` before it is killed.
GRACE_SECONDS = 120.0
#: Builtins the type checks use, under names no parameter shadows (HumanEval/95's is ``dict``).
ALIASES = ("_ng_type, _ng_len, _ng_all = type, len, all\n"
           "_ng_bool, _ng_int, _ng_float, _ng_str = bool, int, float, str\n"
           "_ng_list, _ng_tuple, _ng_set, _ng_dict = list, tuple, set, dict\n\n\n")
#: One EvalPlus-style contract line (EvalPlus marks them with ``# $_CONTRACT_$``).
ASSERT = '    assert {check}, "invalid inputs"  # $_CONTRACT_$\n'

#: Runs inside the EvalPlus venv: payload (pickle) on stdin, result (pickle) to argv[1].
DRIVER = r"""
import contextlib, importlib.metadata, pickle, random, resource, sys, time
payload = pickle.load(sys.stdin.buffer)
memory = payload["memory_bytes"]
resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
from evalplus.gen.type_mut import TypedMutGen
random.seed(payload["seed"])
error = None
with contextlib.redirect_stdout(sys.stderr):  # generate() prints progress
    start = time.perf_counter()
    gen = TypedMutGen(payload["seeds"], payload["entry_point"], payload["code"])
    gen.timeout = payload["seconds"]
    tried = len(gen.seed_hash)
    try:
        gen.generate(payload["num"])
    except Exception as exc:  # e.g. multipledispatch has no mutator for a type
        error = f"{type(exc).__name__}: {exc}"
    seconds = time.perf_counter() - start
result = {"inputs": gen.new_inputs[: payload["num"]], "seconds": seconds, "error": error,
          "tried": len(gen.seed_hash) - tried, "version": importlib.metadata.version("evalplus")}
with open(sys.argv[1], "wb") as handle:
    pickle.dump(result, handle)
"""


@dataclass
class Side:
    """One generator's result on one task."""

    valid: int = 0
    seconds: float = 0.0
    candidates: int = 0
    note: str = ""

    @property
    def rate(self) -> float:
        return self.valid / self.seconds if self.seconds > 0 else 0.0


@dataclass
class Row:
    """Both generators on one task."""

    task_id: str
    seeds: int
    ours: Side
    theirs: Side
    agree: float | None = None
    ratio: float | None = None
    lower_bound: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


# --------------------------------------------------------------------------- contract


def type_check(spec: Spec, expr: str, depth: int = 0) -> str:
    """A Python expression that is true exactly when ``typespec.matches(<expr>, spec)``.

    It uses the ``_ng_*`` aliases that :data:`ALIASES` defines.
    """
    kind = spec.kind
    element = f"_ng_e{depth}"
    if kind == ts.ANY:
        return "True"
    if kind == ts.NONE:
        return f"{expr} is None"
    if kind in (ts.BOOL, ts.INT, ts.FLOAT, ts.STR):
        return f"_ng_type({expr}) is _ng_{kind}"
    if kind == ts.UNION:
        return "(" + " or ".join(type_check(m, expr, depth) for m in spec.args) + ")"
    if kind in (ts.LIST, ts.SET) or (kind == ts.TUPLE and spec.variadic):
        inner = type_check(spec.args[0], element, depth + 1)
        items = "" if inner == "True" else f" and _ng_all({inner} for {element} in {expr})"
        return f"(_ng_type({expr}) is _ng_{kind}{items})"
    if kind == ts.DICT:
        key, value = f"_ng_k{depth}", f"_ng_v{depth}"
        inner = (f"{type_check(spec.args[0], key, depth + 1)}"
                 f" and {type_check(spec.args[1], value, depth + 1)}")
        return (f"(_ng_type({expr}) is _ng_dict"
                f" and _ng_all({inner} for {key}, {value} in {expr}.items()))")
    if kind == ts.TUPLE:
        parts = [f"_ng_type({expr}) is _ng_tuple", f"_ng_len({expr}) == {len(spec.args)}"]
        parts += [type_check(m, f"{expr}[{i}]", depth) for i, m in enumerate(spec.args)]
        return "(" + " and ".join(parts) + ")"
    raise ts.SpecError(f"no type check for {spec}")


def _top_level_names(source: str) -> set[str]:
    names: set[str] = set()
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
    return names


def compact(source: str) -> str:
    """``source`` without comments and docstrings: the same code, less for EvalPlus to compile."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) \
                and isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            node.body = body[1:] or [ast.Pass()]
    return ast.unparse(tree)


def evalplus_code(task: Task, contract: Contract) -> str:
    """``c_code`` for TypedMutGen: our contract as EvalPlus-style asserts before the body."""
    lines = [line for line in task.canonical_solution.splitlines() if line.strip()]
    indent = lines[0][: len(lines[0]) - len(lines[0].lstrip())] if lines else "    "
    checks = [type_check(spec, name) for name, spec in zip(contract.names, contract.specs,
                                                            strict=True)]
    asserts = "".join(ASSERT.replace("    ", indent, 1).format(check=c)
                      for c in checks if c != "True")
    header = ALIASES
    if contract.source:
        clash = (_top_level_names(contract.source) - {"pre"}) & _top_level_names(task.solution)
        if clash:
            raise ValueError(f"{task.task_id}: contract and solution both define {clash}")
        header += compact(contract.source) + "\n_ng_pre = pre\ndel pre\n\n\n"
        call = ", ".join(contract.names)
        asserts += ASSERT.replace("    ", indent, 1).format(check=f"_ng_pre({call}) is True")
    return header + task.prompt + asserts + task.canonical_solution


def plain_signature(task: Task) -> bool:
    """True when the entry point has neither defaults nor ``*args``/keyword-only parameters."""
    for node in ast.parse(task.prompt).body:
        if isinstance(node, ast.FunctionDef) and node.name == task.entry_point:
            a = node.args
            return not (a.defaults or a.vararg or a.kwarg or a.kwonlyargs)
    return False


# --------------------------------------------------------------------------- ours


class _Stopwatch:
    """Times ``augment``'s own generation from outside (its module's fuzzer and oracle
    wrapped, as ``benchmarks/evaluate.py`` times the ground truth): fuzz and oracle
    seconds, oracle jobs and inputs judged, and the fuzz stream capped at the seconds left
    of the run's ``seconds`` (``augment`` gives each round the whole budget)."""

    def __init__(self, seconds: float) -> None:
        self.seconds, self.start = seconds, time.perf_counter()
        self.fuzz = self.oracle = self.calls = 0.0
        self.jobs = self.judged = 0

    def left(self) -> float:
        return max(0.0, self.seconds - (time.perf_counter() - self.start))

    @contextlib.contextmanager
    def watching(self) -> Iterator[None]:
        watch = self

        class Capped(Fuzzer):
            def extend(self, target: int) -> FuzzResult:
                self.config = FuzzConfig(budget_seconds=watch.left())
                began = time.perf_counter()
                try:
                    return super().extend(target)
                finally:
                    watch.fuzz += time.perf_counter() - began

        def timed(task: Task, inputs: Sequence[Args], *args: Any, **kwargs: Any) -> Oracle:
            began = time.perf_counter()
            verdict = oracle(task, inputs, *args, **kwargs)
            watch.oracle += time.perf_counter() - began
            watch.calls += sum(verdict.seconds)  # the faster of each input's two calls
            watch.jobs, watch.judged = watch.jobs + 1, watch.judged + len(inputs)
            return verdict

        with mock.patch.object(augment, "Fuzzer", Capped), \
                mock.patch.object(augment, "oracle", timed):
            yield


def run_ours(task: Task, ground: Groundwork, reference: PlainReference, num: int,
             seconds: float, sandbox: Sandbox,
             config: AugmentConfig) -> tuple[Side, dict[str, Any]]:
    """``augment``'s generation itself (:func:`evalplus_ng.pipeline.augment.generate`: the
    fuzz stream, the oracle and the tiers, in rounds) from the task's groundwork, asked
    for ``num`` inputs beyond the seeds; an input counts in any tier."""
    seed_keys = ({canonical(s.args) for s in ground.seeds}
                 | {canonical(a) for a in task.base_inputs})
    free = sum(1 for s in ground.seeds if s.source != BASE)  # fuzz emits these first
    watch = _Stopwatch(seconds)
    with watch.watching():
        suites = generate(task, replace(config, per_task=num + free), reference, ground,
                          sandbox)
    elapsed = time.perf_counter() - watch.start
    found = [*suites.plus, *suites.stress, *suites.edge]
    distinct = {canonical(args) for args in found} - seed_keys
    report = suites.report
    side = Side(min(num, len(distinct)), elapsed, report.attempts,
                "budget hit" if report.budget_hit else "")
    return side, {"fuzz_rejected": report.rejected, "oracle_dropped": report.dropped,
                  "tiers": {"plus": len(suites.plus), "stress": len(suites.stress),
                            "edge": len(suites.edge), **report.tiers},
                  "judged": watch.judged, "sandbox_jobs": watch.jobs,
                  "fuzz_seconds": watch.fuzz, "oracle_seconds": watch.oracle,
                  # The ground truth's own calls on kept inputs (the faster of its two
                  # calls; the report doubles it): what no sandbox or fuzzer speed-up
                  # removes.
                  "ground_truth_call_seconds": watch.calls}


# --------------------------------------------------------------------------- theirs


def run_theirs(python: str, task: Task, contract: Contract, seeds: Sequence[Seed],
               task_seed: int, num: int, seconds: float) -> tuple[Side, float | None, str]:
    """TypedMutGen in the EvalPlus venv; returns its side, the agreement and its version."""
    payload = {
        "seeds": [list(s.args) for s in seeds], "entry_point": task.entry_point,
        "code": evalplus_code(task, contract), "seed": task_seed, "num": num,
        "seconds": seconds, "memory_bytes": Limits().memory_bytes,
    }
    with tempfile.TemporaryDirectory(prefix="generate-bench-") as folder:
        out = Path(folder) / "result.pickle"
        try:
            process = subprocess.run(
                [python, "-c", DRIVER, str(out)], input=pickle.dumps(payload), cwd=folder,
                env={**os.environ, "PYTHONHASHSEED": "0"},  # it picks from sets of strings
                capture_output=True, timeout=seconds + GRACE_SECONDS, check=False)
        except subprocess.TimeoutExpired:
            return Side(0, seconds + GRACE_SECONDS, 0, "killed: no result"), None, "?"
        if not out.is_file():
            tail = process.stderr.decode(errors="replace").strip().splitlines()[-3:]
            return Side(0, 0.0, 0, "crashed: " + " | ".join(tail)), None, "?"
        result: dict[str, Any] = pickle.loads(out.read_bytes())
    seed_keys = {canonical(s.args) for s in seeds} | {canonical(a) for a in task.base_inputs}
    distinct: dict[str, Args] = {}
    for args in result["inputs"]:
        try:
            key = canonical(args)
        except Unserializable:
            continue
        if key not in seed_keys:
            distinct.setdefault(key, args)
    agree = (sum(contract.valid(a) for a in distinct.values()) / len(distinct)
             if distinct else None)
    note = result["error"] or ""
    side = Side(len(distinct), float(result["seconds"]), int(result["tried"]), note)
    return side, agree, str(result["version"])


# --------------------------------------------------------------------------- report


def _ratio(ours: float, theirs: Side) -> tuple[float | None, bool]:
    if theirs.valid:
        return ours / theirs.rate, False
    if ours and theirs.seconds > 0:
        return ours * theirs.seconds, True
    return None, False


def finish(row: Row) -> None:
    """Fill in the ratio (a lower bound when EvalPlus found nothing)."""
    row.ratio, row.lower_bound = _ratio(row.ours.rate, row.theirs)


def _show(ratio: float | None, lower_bound: bool) -> str:
    return "-" if ratio is None else f"{'>=' if lower_bound else ''}{ratio:.1f}x"


def print_row(row: Row) -> None:
    ratio = _show(row.ratio, row.lower_bound)
    agree = "-" if row.agree is None else f"{100 * row.agree:.0f}%"
    notes = "; ".join(f"{who}: {side.note}" for who, side in
                      (("ours", row.ours), ("evalplus", row.theirs)) if side.note)
    print(f"{row.task_id:<14}{row.seeds:>6}  {row.ours.valid:>5} {row.ours.seconds:>7.2f}"
          f" {row.ours.rate:>9.1f}  {row.theirs.valid:>5} {row.theirs.seconds:>7.2f}"
          f" {row.theirs.rate:>9.1f}  {ratio:>9} {agree:>6}  {notes}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", default=REPRESENTATIVE,
                        help="'all', or ids/numbers/ranges like 0,5,10-20 "
                             f"(default: {REPRESENTATIVE})")
    parser.add_argument("--per-task", type=int, default=1000, help="new inputs asked of each")
    parser.add_argument("--seconds", type=float, default=60.0,
                        help="generation cap per task per tool")
    parser.add_argument("--json", type=Path, default=None, help="save the table here")
    parser.add_argument("--evalplus-python", default=DEFAULT_PYTHON,
                        help="python of a venv with evalplus==0.3.1")
    options = parser.parse_args()

    check = subprocess.run([options.evalplus_python, "-c",
                            "import importlib.metadata as m; print(m.version('evalplus'))"],
                           capture_output=True, text=True, check=False)
    if check.returncode != 0:
        sys.exit(f"{options.evalplus_python} cannot import evalplus; see this script's docstring")
    if check.stdout.strip() != "0.3.1":
        print(f"warning: evalplus {check.stdout.strip()}, not 0.3.1", file=sys.stderr)

    humaneval = resolve("humaneval")
    tasks = select_tasks(humaneval.load(), None if options.tasks == "all" else options.tasks)
    config = AugmentConfig(per_task=options.per_task, budget_seconds=options.seconds)
    plain = references(tasks, humaneval)
    folder = data_dir("contracts") / config.dataset
    print(f"{len(tasks)} tasks, {options.per_task} new inputs asked, cap {options.seconds:g} s"
          " per task per tool", flush=True)
    rows: list[Row] = []
    version = "?"
    with Sandbox(1, Limits()) as sandbox:
        sandbox.run(Job("def f():\n    return 1\n", "f", [[]], [5.0]))  # start the supervisor
        print(f"{'task':<14}{'seeds':>6}  {'ours':>5} {'s':>7} {'per s':>9}  {'evalp':>5} {'s':>7}"
              f" {'per s':>9}  {'ratio':>9} {'agree':>6}", flush=True)
        for task in tasks:
            if not contract_file(folder, task.task_id).is_file() or not plain_signature(task):
                print(f"{task.task_id}: skipped (no contract file or not a plain signature)")
                continue
            reference = plain[task.task_id]
            ground = groundwork(task, config, reference, humaneval, sandbox)
            ours, extra = run_ours(task, ground, reference, options.per_task,
                                   options.seconds, sandbox, config)
            theirs, agree, version = run_theirs(
                options.evalplus_python, task, ground.contract, ground.seeds,
                _task_seed(config, task.task_id), options.per_task, options.seconds)
            row = Row(task.task_id, len(ground.seeds), ours, theirs, agree, extra=extra)
            row.extra["evalplus_candidates"] = theirs.candidates
            finish(row)
            print_row(row)
            rows.append(row)

    ratios = [row.ratio for row in rows if row.ratio is not None]
    median = statistics.median(ratios) if ratios else math.nan
    geomean = math.exp(statistics.fmean(math.log(r) for r in ratios if r > 0)) \
        if any(r > 0 for r in ratios) else math.nan
    ours_total = sum(r.ours.valid for r in rows) / max(1e-9, sum(r.ours.seconds for r in rows))
    theirs_total = sum(r.theirs.valid for r in rows) / max(1e-9,
                                                          sum(r.theirs.seconds for r in rows))
    agreements = [r.agree for r in rows if r.agree is not None]
    print(f"\nmedian ratio {median:.1f}x over {len(ratios)} tasks (geometric mean {geomean:.1f}x;"
          f" {sum(r.lower_bound for r in rows)} lower bounds); pooled {ours_total:.0f} vs"
          f" {theirs_total:.0f} valid inputs/s")
    split = [(r.extra["fuzz_seconds"], r.extra["oracle_seconds"],
              2 * r.extra["ground_truth_call_seconds"]) for r in rows if r.ours.seconds > 0]
    if split:
        fuzz_total, oracle_total, calls_total = (sum(column) for column in zip(*split, strict=True))
        print(f"our time: fuzz {fuzz_total:.1f}s, oracle {oracle_total:.1f}s, of which the"
              f" ground truth's own calls (both runs) {calls_total:.1f}s")
        slow = [r for r in rows if r.ratio is not None and r.ratio < 10 and r.ours.seconds > 0]
        if slow:
            shares = ", ".join(
                f"{r.task_id.split('/')[-1]}: "
                f"{200 * r.extra['ground_truth_call_seconds'] / r.ours.seconds:.0f}%"
                for r in slow)
            print(f"tasks below 10x, share of our time inside ground-truth calls: {shares}")
    if agreements:
        print(f"EvalPlus inputs our contract accepts: min {100 * min(agreements):.1f}%,"
              f" mean {100 * statistics.fmean(agreements):.1f}%")
    if options.json is not None:
        document = {
            "command": " ".join([Path(sys.executable).name, *sys.argv]),
            "python": platform.python_version(), "evalplus": version,
            "per_task": options.per_task, "seconds": options.seconds,
            "median_ratio": median, "geomean_ratio": geomean,
            "pooled_rate": {"ours": ours_total, "evalplus": theirs_total},
            "tasks": [{**asdict(r), "ours_rate": r.ours.rate, "evalplus_rate": r.theirs.rate}
                      for r in rows],
        }
        options.json.parent.mkdir(parents=True, exist_ok=True)
        options.json.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
