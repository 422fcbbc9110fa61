"""Command line: thin click wrappers over the pipeline's commands (:mod:`evalplus_ng.pipeline`).

Only this module maps exceptions to exit codes and one-line messages.
"""

from __future__ import annotations

import contextlib
import functools
import math
import os
import shlex
import signal
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from evalplus_ng.backend.executors import LOCAL, Backend, Capacity
from evalplus_ng.errors import EvalplusError, InputError, UnknownTaskError
from evalplus_ng.evaluation.verdicts import EDGE, FAILURES, LIKE_BASE, EvalConfig, pass_at_k
from evalplus_ng.files import probe_folder
from evalplus_ng.fireforms import EVALPLUS_EVALUATE, FireFormError, read
from evalplus_ng.meter import Meter
from evalplus_ng.oracle.defects import task_order
from evalplus_ng.oracle.timelimits import CHUNK as CALIBRATION_CHUNK
from evalplus_ng.oracle.timelimits import DEFAULT_FACTOR, DEFAULT_FLOOR_SECONDS
from evalplus_ng.pipeline.audit import OpinionSource
from evalplus_ng.pipeline.context import AUTO, DEFAULT_OUT, Workspace
from evalplus_ng.pipeline.evaluate import EvaluateRequest, EvaluateSummary, run_evaluate

# The program chain is imported where a command uses it (its planner takes a fifth of a
# second to import, which function tasks' commands would pay for nothing).
from evalplus_ng.pipeline.programs import DEFAULT_COUNT as PROGRAM_CANDIDATES
from evalplus_ng.pipeline.programs import DEFAULT_TIME_LIMIT as PROGRAM_REFERENCE_SECONDS
from evalplus_ng.records import Verdict
from evalplus_ng.report.render import edge_counts
from evalplus_ng.report.summary import UNRECORDED
from evalplus_ng.sandbox import Limits
from evalplus_ng.tasks.mbpp import VERSION as MBPP_RELEASE
from evalplus_ng.tasks.registry import known, program_file, resolve
from evalplus_ng.tasks.samples import (
    Families,
    Sanitizing,
    families_of,
    parse_families,
    sample_files,
)
from evalplus_ng.tasks.spec import SUITE_SUFFIXES, Dataset

EXIT_INPUT = 2  # bad flag, bad file: the same code click uses for usage errors
EXIT_INTERNAL = 3
EXIT_INTERRUPTED = 130
#: Bounds of the numbers flags take: beyond them a time limit, a budget or a memory cap
#: only overflows somewhere below (a day; a thousand times the ground truth; 16 TiB).
MAX_SECONDS = 86400.0
MAX_FACTOR = 1000.0
MAX_MEMORY_MB = 1 << 24

if TYPE_CHECKING:
    from evalplus_ng.generate.llmseed import OpenAIEndpoint
    from evalplus_ng.pipeline.audit import AuditSummary
    from evalplus_ng.pipeline.augment import AugmentSummary
    from evalplus_ng.pipeline.calibrate import CalibrateSummary
    from evalplus_ng.pipeline.minimize import ReduceSummary
    from evalplus_ng.pipeline.programs.chain import (
        ProgramAuditSummary,
        ProgramAugmentConfig,
        ProgramChainOptions,
    )

F = TypeVar("F", bound=Callable[..., Any])


def _errors_to_exit_codes(command: F) -> F:
    """Turn engine errors into one stderr line and an exit code; keep tracebacks for bugs."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except InputError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(EXIT_INPUT)
        except UnknownTaskError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(EXIT_INPUT)
        except EvalplusError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(EXIT_INTERNAL)
        except OSError as exc:
            if exc.filename is None:
                raise
            click.echo(f"error: {exc.filename}: {exc.strerror or exc}", err=True)
            sys.exit(EXIT_INPUT)
        except KeyboardInterrupt:
            click.echo(f"interrupted: {_continue_with(click.get_current_context())}",
                       err=True)
            sys.exit(EXIT_INTERRUPTED)

    return wrapper  # type: ignore[return-value]


#: Where a command's command line, as typed, is kept in its context (``ctx.meta``).
_TYPED = "evalplus_ng.typed"
#: What each command has kept when interrupted, and the flag that continues it (if the
#: same command line alone does not).
_KEPT = {
    "evaluate": ("the verdicts so far are in the results file", "--resume"),
    "augment": ("finished tasks are checkpointed in the --out folder (audited tasks and "
                "MINI requirements too)", ""),
    "audit": ("audited tasks are checkpointed in the --out folder", ""),
    "reduce": ("the requirements gathered so far are cached in the --out folder", ""),
    "calibrate": ("each suite file calibrated before the interrupt is written", ""),
}


def _continue_with(ctx: click.Context) -> str:
    """What an interrupted command kept, and the command line that continues it."""
    name = ctx.command.name or ""
    if name not in _KEPT:
        return "nothing was written"
    kept, flag = _KEPT[name]
    typed = [t for t in ctx.meta.get(_TYPED, []) if not _asks_again(t)]
    line = shlex.join([*ctx.command_path.split(), *typed,
                       *([flag] if flag and flag not in typed else [])])
    return f"{kept}; `{line}` continues"


def _asks_again(token: str) -> bool:
    """``-i`` or ``--i_just_wanna_run`` in a form fire takes (not with ``--resume``)."""
    return token == "-i" or token.lstrip("-").partition("=")[0].replace("-", "_") == (
        "i_just_wanna_run")


class _Command(click.Command):
    """A command that keeps its command line as typed (the interrupt message names it)."""

    def forms(self, ctx: click.Context, args: list[str]) -> list[str]:
        """The command line in click's forms (here: as it is)."""
        return args

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta[_TYPED] = list(args)
        return super().parse_args(ctx, self.forms(ctx, args))


class _FireCommand(_Command):
    """``evaluate``, which also takes evalplus 0.3.1's command lines: python-fire's forms
    of its flags (:mod:`evalplus_ng.fireforms`) rewritten as ours."""

    def forms(self, ctx: click.Context, args: list[str]) -> list[str]:
        ours = {name: not option.is_flag for option in self.get_params(ctx)
                if isinstance(option, click.Option)
                for name in (*option.opts, *option.secondary_opts)}
        try:
            line = read(args, EVALPLUS_EVALUATE, ours)
        except FireFormError as exc:
            raise click.UsageError(str(exc), ctx) from None
        for notice in line.notices:
            click.echo(f"notice: {notice}", err=True)
        return line.args

    def collect_usage_pieces(self, ctx: click.Context) -> list[str]:
        return [*super().collect_usage_pieces(ctx), "[DATASET [SAMPLES]]"]


class _UsageLine(click.ClickException):
    """A usage error (unknown flag, bad value) shown as one line, like every other error."""

    exit_code = EXIT_INPUT

    def show(self, file: Any = None) -> None:
        click.echo(f"error: {self.format_message()}", err=True)


@contextlib.contextmanager
def _one_line() -> Iterator[None]:
    try:
        yield
    except click.exceptions.NoArgsIsHelpError:
        raise
    except click.UsageError as exc:
        raise _UsageLine(exc.format_message()) from None


class _Main(click.Group):
    """The command group; its usage errors, and its commands', are one line each."""

    command_class = _Command

    def make_context(self, info_name: str | None, args: list[str],
                     parent: click.Context | None = None, **extra: Any) -> click.Context:
        with _one_line():
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: click.Context) -> Any:
        with _one_line():
            return super().invoke(ctx)


class _Finite(click.FloatRange):
    """A float range that refuses ``nan`` (which passes any range check) and ``inf``."""

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number.", param, ctx)
        return number


def _writable(folder: Path, flag: str, make: bool = True, named: Path | None = None) -> None:
    """Before any work: one line naming ``flag`` and the path (``named``, a file to be
    written in ``folder``, else ``folder``) where nothing can be written in ``folder``,
    or where it cannot be made (``make``; left to the command where it is absent and not
    ``make``). Nothing is made here."""
    if not make and not folder.is_dir():
        return
    try:
        probe_folder(folder)
    except OSError as exc:
        verb = "write in" if folder.is_dir() else "make"
        where = f"the folder {folder}" if named is not None else "this folder"
        raise InputError(str(named or folder), None,
                         f"{flag}: cannot {verb} {where} ({exc.strerror or exc})") from None


class _Progress(Meter):
    """A stage's progress on stderr: n/N, rate and ETA (:mod:`evalplus_ng.meter`)."""

    def __init__(self, label: str) -> None:
        super().__init__(label, sys.stderr)


def _dataset_options(command: F) -> F:
    """``--dataset``, ``--dataset-file`` and ``--data``; see :func:`_dataset`."""
    for option in reversed([
        click.option("--dataset", "dataset_name", default="humaneval", show_default=True,
                     metavar="NAME|FILE",
                     help=f"A built-in benchmark ({', '.join(known())}) or your own tasks "
                          "file (.jsonl or .jsonl.gz; see docs/reference/formats/tasks.md)."),
        click.option("--dataset-file", type=click.Path(path_type=Path, dir_okay=False),
                     default=None,
                     help="Where a built-in benchmark's tasks are read from (MBPP+: "
                          "MbppPlus.jsonl.gz v0.2.0) [default: $MBPP_OVERRIDE_PATH, else "
                          "downloaded once into the user cache]."),
        click.option("--data", type=click.Path(path_type=Path, file_okay=False), default=None,
                     help="Your data folder for this benchmark: contracts/, seeds/, fixed/, "
                          "plain/, dataset.json [default: OUT/data]."),
    ]):
        command = option(command)
    return command


def _family_option(command: F) -> F:
    """``--family PATTERN=FAMILY``: the user's families of samples files."""
    return click.option(
        "--family", "family", multiple=True, metavar="PATTERN=FAMILY",
        help="The --samples files whose name matches the shell pattern PATTERN (e.g. "
             "'qwen3_*') are one family, FAMILY, for the jury, which counts families "
             "(repeatable; the first match wins). Every other samples file is a family of "
             "its own.")(command)


def _families(family: tuple[str, ...], samples: Path | None) -> Families:
    """``--family`` checked against the ``--samples`` files before any work: each pattern
    must match one of them."""
    if not family:
        return ()
    if samples is None:
        raise click.UsageError("--family: only with --samples")
    declared = parse_families(family)
    families_of(sample_files(samples), declared)
    return declared


def _backend_options(command: F) -> F:
    """``--backend local|ray`` and ``--address``: where the work runs."""
    for option in reversed([
        click.option("--backend", type=click.Choice(["local", "ray"]), default="local",
                     show_default=True,
                     help="Where the work runs: this machine's pool (-j), or a Ray cluster "
                          "(pip install 'evalplus-ng[ray]'; see docs/how-to/ray.md)."),
        click.option("--address", default=None, metavar="HOST:PORT",
                     help="The Ray cluster to join [default: $RAY_ADDRESS, the one started "
                          "on this machine, else a new local instance]; --backend ray only."),
    ]):
        command = option(command)
    return command


def _allow_weak_jail(_context: click.Context, _parameter: click.Parameter,
                     allowed: bool) -> None:
    """``--allow-weak-jail``: where no jail can be made and no mode is named, pick the weak
    mode by its public variable (read by every sandbox of the run, in this process, its
    worker processes and a local Ray instance's workers), and say so."""
    from evalplus_ng.sandbox.jail import MODE_VARIABLE, Mode, mode

    if not allowed or os.environ.get(MODE_VARIABLE):
        return
    try:
        mode()
    except ValueError as exc:
        os.environ[MODE_VARIABLE] = Mode.WEAK.value
        reason = str(exc).split(";")[0]
        click.echo(f"warning: {reason}; --allow-weak-jail: untrusted code runs in the weak "
                   "mode, where it can read this machine's files", err=True)


def _jail_option(command: F) -> F:
    """``--allow-weak-jail``, on every command that runs untrusted code."""
    return click.option(
        "--allow-weak-jail", is_flag=True, expose_value=False, callback=_allow_weak_jail,
        help="Where neither bubblewrap nor the kernel's namespaces can make a jail, run "
             "untrusted code anyway, in the weak mode: it can read this machine's files "
             "(see docs/explanation/sandbox.md). Without it, such a machine refuses to run "
             "samples.")(command)


def _backend(backend: str, address: str | None, jobs: int,
             memory_bytes: int = Limits().memory_bytes) -> Backend:
    """Where the work runs, as ``--backend``, ``--address`` and ``-j`` say: built once,
    passed down. Local workers are capped at what this machine can run (a line says so)."""
    if backend == "local" and address is not None:
        raise click.UsageError("--address names a Ray cluster: add --backend ray")
    if backend == "local":
        jobs = _runnable(jobs, memory_bytes)
    return Backend(jobs, backend == "ray", address or None)


def _runnable(jobs: int, memory_bytes: int) -> int:
    """``-j`` capped at this machine's cores and at the workers whose memory cap (each
    worker's sample may use ``memory_bytes``) the memory available holds."""
    here = Capacity.here()
    workers = here.workers(memory_bytes)
    if jobs <= workers:
        return jobs
    memory = ("" if here.available_bytes is None else
              f", {here.available_bytes / (1 << 30):.1f} GiB of memory available for "
              f"{memory_bytes / (1 << 30):g} GiB per worker")
    click.echo(f"notice: -j {jobs} capped at {workers} worker(s): {here.cores} core(s)"
               f"{memory}", err=True)
    return workers


@contextlib.contextmanager
def _bar(label: str) -> Iterator[Callable[[int, int], None]]:
    """A :class:`_Progress` bar, as the pipeline's stages take one."""
    with _Progress(label) as progress:
        yield progress.update


def _print_nodes(what: str, nodes: Mapping[str, int]) -> None:
    """The work each Ray node did (nothing with the local pool)."""
    if nodes:
        click.echo(f"{what} per Ray node: " + ", ".join(
            f"{node[:8]} {count}" for node, count in sorted(nodes.items())))


def _dataset(name: str, dataset_file: Path | None, data: Path | None, out: Path) -> Dataset:
    """The dataset the options name; the user's data folder defaults to ``out/data``."""
    return resolve(name, data if data is not None else out / "data", dataset_file)


def _workspace(name: str, dataset_file: Path | None, data: Path | None, out: Path,
               backend: Backend = LOCAL) -> Workspace:
    """What a command works in: the dataset the options name, the artifacts folder
    ``out`` and where the work runs."""
    return Workspace(_dataset(name, dataset_file, data, out), out, backend)


def _default_jobs() -> int:
    return max(1, len(os.sched_getaffinity(0)))


#: ``-j/--jobs`` of the commands whose work is sandbox jobs alone.
_workers_option = click.option("-j", "--jobs", type=click.IntRange(min=1), default=_default_jobs,
                               show_default="number of cores",
                               help="Parallel sandbox workers.")


@click.group(cls=_Main, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="evalplus-ng")
def main() -> None:
    """evalplus-ng: rigorous test suites for code-generation benchmarks."""
    # SIGTERM unwinds like Ctrl-C: the sandbox stops every worker and removes its folders.
    signal.signal(signal.SIGTERM, _terminated)


def _terminated(signum: int, _frame: object) -> None:
    raise SystemExit(128 + signum)


@main.command(cls=_FireCommand)
@_dataset_options
@click.option("--samples", "samples", required=True, type=click.Path(path_type=Path),
              help="JSON Lines file (task_id plus completion or solution per line), or a "
                   "folder in EvalPlus's layout (TASK_ID/0.py, 1.py, ... with _ for /).")
@click.option("--suite", default=AUTO, show_default=True,
              metavar="auto|base|plus|mini|stress|stress-mini|edge|PATH",
              help="Tests to judge with: the dataset's own (base), augment's outputs (plus: "
                   "base and plus tests; stress: the efficiency tier; the minis: their "
                   "reductions; edge: inputs unlike the base tests where no contract is "
                   "written), or a suite file in EvalPlus's format. auto: plus when "
                   "--artifacts holds augment's plus suite, else base. Program tasks: "
                   "base|original|plus|stress|full (auto: full; see "
                   "docs/how-to/program-tasks.md).")
@click.option("--artifacts", type=click.Path(path_type=Path, file_okay=False),
              default=DEFAULT_OUT, show_default=True,
              help="Folder where `augment` wrote its suites (for --suite plus|mini).")
@click.option("--tasks", "task_spec", default=None, metavar="LIST",
              help="Only these tasks: ids, numbers or ranges, e.g. '0,5,10-20' (a quick "
                   "first run); samples of the others are left out.")
@click.option("--base-only", "base_only", is_flag=True,
              help="EvalPlus's flag: the same as --suite base.")
@click.option("--mini", "mini", is_flag=True,
              help="EvalPlus's flag: the same as --suite mini.")
@click.option("--noextreme", "--no-extreme", "noextreme", is_flag=True,
              help="EvalPlus's flag, accepted: our plus suite already keeps extreme "
                   "(efficiency) inputs apart, in the stress suite.")
@click.option("-j", "--jobs", "--parallel", "jobs", type=click.IntRange(min=1),
              default=_default_jobs, show_default="number of cores",
              help="Parallel sandbox workers (--parallel: EvalPlus's name).")
@click.option("--results", "results", type=click.Path(path_type=Path, dir_okay=False),
              default=None, show_default="beside the samples, S.evalplus-ng.SUITE.json",
              help="Where to write the results (the default names the suite: one file "
                   "per suite, for `report`).")
@click.option("--evalplus-results", "evalplus_results", is_flag=True,
              help="Write the results under EvalPlus's own name (S_eval_results.json), "
                   "which evalplus.evaluate then loads as its own: written only once "
                   "every sample is judged (until then S_eval_results.json.partial).")
@click.option("--no-sanitize", "raw", is_flag=True,
              help="Judge answers as written, as evalplus.evaluate alone does: a completion "
                   "is appended to the prompt, with no markdown or prose stripped. By "
                   "default answers are sanitized as evalplus.sanitize does, then judged.")
@click.option("--repair", is_flag=True,
              help="Sanitize with our repairs too (imports the answer forgot, a body found "
                   "in prose, a broken helper dropped for the prompt's): pass@k is then no "
                   "longer EvalPlus's, and the summary counts the verdicts the repairs "
                   "changed.")
@click.option("--resume", is_flag=True, help="Reuse verdicts already in the results file.")
@click.option("-i", "--i-just-wanna-run", "again", is_flag=True,
              help="EvalPlus's flag: judge every sample again, ignoring a previous results "
                   "file (our default; not with --resume).")
@click.option("--details", "--test-details", "details", is_flag=True,
              help="Run every test instead of stopping at a sample's first failure "
                   "(--test-details: EvalPlus's name).")
@click.option("--min-time-limit", "min_time_limit",
              type=_Finite(min=0.01, max=MAX_SECONDS), default=None,
              show_default="the suite's calibration, else 1.0",
              help="Floor of every per-test time limit, seconds (program tasks: also "
                   "the limit of a test that neither it nor its task names, else 10 s).")
@click.option("--time-factor", "--gt-time-limit-factor", "time_factor",
              type=_Finite(min=1.0, max=MAX_FACTOR), default=None,
              show_default="the suite's calibration, else 4.0",
              help="Per-test limit as a multiple of the ground truth's time "
                   "(--gt-time-limit-factor: EvalPlus's name).")
@click.option("--version", "release", default=None, metavar="RELEASE",
              help="EvalPlus's flag: the HumanEval+ or MBPP+ release it downloads. Accepted "
                   f"where it names what evalplus-ng reads (MBPP+ {MBPP_RELEASE}; any for "
                   "HumanEval, which evalplus 0.3.1 ignores it for too).")
@click.option("--memory-mb", type=click.IntRange(min=64, max=MAX_MEMORY_MB), default=4096,
              show_default=True, help="Address-space cap of each sample process, MiB.")
@_backend_options
@_jail_option
@_errors_to_exit_codes
def evaluate(dataset_name: str, dataset_file: Path | None, data: Path | None, samples: Path,
             suite: str, base_only: bool, mini: bool, noextreme: bool, artifacts: Path,
             task_spec: str | None,
             jobs: int, results: Path | None, evalplus_results: bool, raw: bool,
             repair: bool, resume: bool, again: bool, details: bool,
             min_time_limit: float | None, time_factor: float | None, release: str | None,
             memory_mb: int, backend: str, address: str | None) -> None:
    """Judge LLM samples against a suite and print pass@k.

    evalplus 0.3.1's command lines work too (`evalplus.evaluate` replaced by
    `evalplus-ng evaluate`): its flags with underscores, --flag=value, --noflag, the
    dataset and samples as positional arguments (see docs/how-to/from-evalplus.md).
    """
    if again and resume:
        raise click.UsageError("--i-just-wanna-run judges every sample again and --resume "
                               "reuses verdicts: choose one")
    _evalplus_release(dataset_name, release)
    programs = program_file(dataset_name, dataset_file)
    if programs is not None:  # stdin/stdout tasks: see _evaluate_programs
        _evaluate_programs(programs, samples, "base" if base_only else suite, jobs, results,
                           resume, details, min_time_limit, memory_mb,
                           _backend(backend, address, jobs, memory_mb << 20), task_spec)
        return
    if base_only or mini:
        # With both, evalplus judges the MINI's base tests: the base tests.
        chosen = "base" if base_only else "mini"
        if suite not in (AUTO, chosen):
            raise click.UsageError(f"--{'base-only' if base_only else 'mini'} and --suite "
                                   f"{suite} name two suites: choose one")
        suite = chosen
    if raw and repair:
        raise click.UsageError("--no-sanitize and --repair ask for opposite things: choose one")
    if noextreme and suite in ("stress", "stress-mini"):
        raise click.UsageError(f"--noextreme and --suite {suite} ask for opposite things: "
                               "the stress suite is the extreme inputs")
    if suite not in (AUTO, "base", *SUITE_SUFFIXES) and not Path(suite).exists():
        names = ", ".join((AUTO, "base", *SUITE_SUFFIXES))
        raise click.BadParameter(f"{suite!r} is neither a suite name ({names}) nor a file",
                                 param_hint="--suite")
    named = click.get_current_context().get_parameter_source("artifacts")
    if (suite == AUTO and named is not click.core.ParameterSource.DEFAULT
            and not artifacts.is_dir()):
        # The default folder may be missing (then --suite auto judges the base tests); a
        # folder the user names must not quietly give a base-only run (a suite named
        # from it fails on its own, naming the suite's file).
        raise click.BadParameter(f"{artifacts}: no such folder (where `augment` wrote its "
                                 "suites)", param_hint="--artifacts")
    if results is not None:
        _writable(results.parent, "--results", named=results)
    elif samples.exists():  # the results go beside the samples
        _writable(samples if samples.is_dir() else samples.parent,
                  "--samples (its results go beside it, or to --results PATH)", make=False,
                  named=samples)
    request = EvaluateRequest(
        samples=samples, suite=suite, resume=resume,
        workspace=_workspace(dataset_name, dataset_file, data, artifacts,
                             _backend(backend, address, jobs, memory_mb << 20)),
        config=EvalConfig(floor_seconds=min_time_limit, factor=time_factor, details=details),
        limits=Limits(memory_bytes=memory_mb << 20), results=results,
        evalplus_results=evalplus_results,
        sanitizing=(Sanitizing.NONE if raw else Sanitizing.REPAIR if repair
                    else Sanitizing.EVALPLUS),
        task_spec=task_spec,
    )
    with _Progress("judging") as progress:
        summary = run_evaluate(request, progress.update,
                               status=lambda message: click.echo(message, err=True))
    base_pass = summary.count("base", Verdict.PASS)
    skipped = (f", {sum(summary.skipped.values())} skipped: their tasks are not in the suite"
               if summary.skipped else "")
    click.echo(f"{len(summary.results)} samples judged ({summary.reused} reused{skipped}); "
               f"results in {summary.results_path}")
    refused = summary.refused()
    if refused:
        click.echo(f"{sum(refused.values())} sample(s) failed without running: " + ", ".join(
            f"{count} {why}" for why, count in sorted(refused.items())))
    _print_nodes("sandbox jobs", summary.nodes)
    _print_jail(summary.jail)
    click.echo(f"base: {base_pass} pass")
    click.echo(f"over {summary.coverage()}")
    for column, row in summary.pass_at_k.items():
        cells = ", ".join(f"pass@{k} {100 * value:.1f}" for k, value in row.items())
        if column == "plus":  # the suite's tests beyond base: plus, stress or edge
            column = summary.beyond + (" (efficiency)" if summary.beyond == "stress" else "")
        click.echo(f"{column}: {cells}")
    base_row, plus_row = summary.pass_at_k.get("base", {}), summary.pass_at_k.get("plus", {})
    if summary.suite != "base" and base_row and plus_row:
        drops = ", ".join(f"pass@{k} {100 * (base_row[k] - plus_row[k]):.1f}"
                          for k in base_row if k in plus_row)
        click.echo(f"drop from base to {summary.beyond}: {drops} points")
    if summary.suite != "base":
        _print_kills(summary, split=bool(plus_row))
    if summary.unrepaired:
        _print_repairs(summary)


def _print_jail(jail: str) -> None:
    """Which jail ran the samples (the results file records it too)."""
    click.echo("jail: each Ray node's own" if jail == "ray" else f"jail: {jail}"
               + (" (samples could read this machine's files)" if jail == "weak" else ""))


def _print_repairs(summary: EvaluateSummary) -> None:
    """What ``--repair`` changed: programs, verdicts, and pass@k without repairs."""
    changes = summary.repair_changes()
    beyond = summary.beyond
    ways = "; ".join(
        f"{label}: {changes[f'{column} gained']} now pass, {changes[f'{column} lost']} now fail"
        for column, label in (("base", "base"), ("plus", f"base + {beyond}"))
        if column == "base" or summary.suite != "base")
    click.echo(f"repairs (--repair) changed the program of {summary.repaired} sample(s) and "
               f"the verdict of {summary.verdicts_repaired()} ({ways})")
    cells = "; ".join(f"{beyond if column == 'plus' else column}: " + ", ".join(
        f"pass@{k} {100 * value:.1f}" for k, value in row.items())
                      for column, row in pass_at_k(summary.unrepaired).items())
    click.echo(f"without repairs (as evalplus.sanitize, then evalplus.evaluate): {cells}")


def _evalplus_release(dataset: str, release: str | None) -> None:
    """``--version`` (evalplus's: the release of HumanEval+ or MBPP+ it downloads) where it
    names what evalplus-ng reads; bare (fire's ``True``) or ``default`` anywhere."""
    if release in (None, "default", "True") or dataset == "humaneval":
        return  # evalplus 0.3.1 downloads HumanEval+ v0.1.10 whatever --version says
    if dataset == "mbpp" and release == MBPP_RELEASE:
        return
    reads = f"MBPP+ {MBPP_RELEASE}" if dataset == "mbpp" else "no EvalPlus release"
    raise click.UsageError(f"--version {release}: evalplus-ng reads {reads} for --dataset "
                           f"{dataset}")


def _evaluate_programs(tasks: Path, samples: Path, suite: str, jobs: int,
                       results: Path | None, resume: bool, details: bool,
                       time_limit: float | None, memory_mb: int, backend: Backend,
                       task_spec: str | None = None) -> None:
    """``evaluate`` on a tasks file of stdin/stdout programs: base (public tests) and the
    suite's verdicts (:data:`~evalplus_ng.evaluation.program_verdicts.PROGRAM_SUITES`), pass@k."""
    from evalplus_ng.pipeline.programs import chain

    if suite not in (AUTO, *chain.PROGRAM_SUITES):
        raise click.UsageError(
            f"--suite {suite}: program tasks are judged on {'|'.join(chain.PROGRAM_SUITES)}: "
            "the public tests (base), the dataset's tests (original), augment's tiers after "
            "the public tests (plus, stress), or every test (full; auto, the default)")
    config = chain.ProgramConfig(time_limit=time_limit or chain.JUDGE_TIME_LIMIT,
                                 details=details, min_time_limit=time_limit,
                                 suite=chain.FULL if suite == AUTO else suite)
    request = chain.ProgramRequest(tasks, samples, config,
                                   Limits(memory_bytes=memory_mb << 20), backend, results,
                                   resume, task_spec)
    with _Progress("judging") as progress:
        summary = chain.run_evaluate_programs(
            request, progress.update, status=lambda message: click.echo(message, err=True))
    click.echo(f"{len(summary.results)} programs judged ({summary.reused} reused); results "
               f"in {summary.results_path}")
    _print_nodes("sandbox jobs", summary.nodes)
    _print_jail(summary.jail)
    click.echo(f"base: {summary.count('base', Verdict.PASS)} pass")
    click.echo(f"over {summary.coverage()}")
    for column, row in summary.pass_at_k.items():
        click.echo(f"{column}: " + ", ".join(f"pass@{k} {100 * value:.1f}"
                                             for k, value in row.items()))
    for column in summary.pass_at_k:
        failed = summary.failures(column)
        if failed["samples"]:
            wrong = ", ".join(f"{n} {status}" for status, n in failed["correctness"].items()
                              if n)
            click.echo(f"{column} failures: {failed['samples']} sample(s): correctness "
                       f"{sum(failed['correctness'].values())}" + (f" ({wrong})" if wrong else "")
                       + f", timeout {failed['timeout']}"
                       + (f", refused {failed['refused']}" if failed["refused"] else ""))
    broken = summary.checker_errors()
    if broken:
        click.echo(f"warning: {sum(broken.values())} sample(s) failed where their task's "
                   "checker broke (checker_error: counted as failures, but the checker's "
                   "fault): " + ", ".join(f"{task_id} ({n})" for task_id, n in broken.items()),
                   err=True)


def _print_kills(summary: EvaluateSummary, split: bool) -> None:
    """One line: the kills by failure kind, then (``split``) by what they rest on."""
    kills = summary.kills()
    kinds = ", ".join(f"{kills[kind]} {kind}" for kind in FAILURES if kills[kind])
    line = f"kills (pass base, fail {summary.beyond}): {sum(kills.values())}" + (
        f" ({kinds})" if kinds else "")
    if split:
        judged = summary.judged()
        bases, edges = judged.bases, edge_counts(judged.edges)
        line += (f"; {bases[LIKE_BASE]} on inputs like the base tests, {bases[EDGE]} on edge "
                 "classes the prompt does not mention" + (f" ({edges})" if edges else "")
                 + (f", {bases[UNRECORDED]} not known" if bases[UNRECORDED] else ""))
    click.echo(line)


@main.command()
@_dataset_options
@click.option("--out", type=click.Path(path_type=Path, file_okay=False), default=DEFAULT_OUT,
              show_default=True, help="Folder for the artifacts and per-task checkpoints.")
@click.option("--tasks", default=None, metavar="LIST",
              help="Only these tasks: ids, numbers or ranges, e.g. '0,5,10-20'.")
@click.option("--per-task", type=click.IntRange(min=1), default=1000, show_default=True,
              help="New (plus) inputs wanted per task (program tasks: candidate inputs made "
                   f"per task, {PROGRAM_CANDIDATES} by default).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Random seed; the same seed gives byte-identical artifacts.")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=_default_jobs,
              show_default="number of cores", help="Tasks augmented in parallel.")
@click.option("--no-llm-seeds", is_flag=True,
              help="Do not use the seed corpus in seeds/ (program tasks: the generators "
                   "and validators `seed` cached in seeds/generators/).")
@click.option("--budget", type=_Finite(min=1.0, max=MAX_SECONDS), default=120.0,
              show_default=True,
              help="Wall-clock safety net per task, seconds.")
@click.option("--samples", "samples_dir", default=None,
              type=click.Path(path_type=Path, exists=True),
              help="LLM samples: a *.jsonl file or a folder of them. The audit's jury "
                   "checks the ground truth with them; MINI then keeps their kills too.")
@_family_option
@click.option("--no-audit", is_flag=True, help="Do not audit the reference solutions.")
@click.option("--no-reduce", is_flag=True, help="Do not write the MINI suite.")
@click.option("--no-calibrate", is_flag=True,
              help="Do not time the ground truth: no calibrated per-test time limits "
                   "(timings are the only part of the suites that differs between runs; "
                   "program tasks: no time_limit on the new tests).")
@click.option("--time-limit", "time_limit", type=_Finite(min=0.01, max=MAX_SECONDS),
              default=None, show_default=f"{PROGRAM_REFERENCE_SECONDS:g}",
              help="Program tasks: seconds the reference may take on a new input (beyond, "
                   "the input is dropped).")
@click.option("--timings", "timings_file", default=None,
              type=click.Path(path_type=Path, exists=True, dir_okay=False),
              help="Program tasks: replay what the reference's time decided in an earlier "
                   "run (its OUT/reference-seconds.json): the same inputs kept or dropped, "
                   "with the same seconds and limits. With the same --seed, the same "
                   "artifact byte for byte.")
@click.option("--mini", is_flag=True,
              help="Program tasks: also reduce each task's plus and stress tiers to a MINI "
                   "(OUT/ProgramsMini.jsonl.gz; slow: about a minute a task, mostly running "
                   "mutants). Without it, a MINI reduced from another suite is removed.")
@click.option("--include-multiple-answers", "multiple_answers", is_flag=True,
              help="Program tasks: augment the tasks flagged multiple_answers_suspected "
                   "that have no checker program too (their new outputs are the reference's "
                   "answer, which another right program need not print; skipped by "
                   "default). Tasks with a checker are augmented anyway.")
@_backend_options
@_jail_option
@_errors_to_exit_codes
def augment(dataset_name: str, dataset_file: Path | None, data: Path | None, out: Path,
            tasks: str | None, per_task: int, seed: int, jobs: int, no_llm_seeds: bool,
            budget: float, samples_dir: Path | None, family: tuple[str, ...], no_audit: bool,
            no_reduce: bool, no_calibrate: bool, time_limit: float | None,
            timings_file: Path | None, mini: bool, multiple_answers: bool, backend: str,
            address: str | None) -> None:
    """Generate a HumanEval+ style suite (many new valid inputs per task) and its MINI.

    On a tasks file of stdin/stdout programs: new hidden tests (plus and stress) appended
    to each task, in OUT/ProgramsPlus.jsonl.gz, and with --mini its MINI in
    OUT/ProgramsMini.jsonl.gz.
    """
    programs = program_file(dataset_name, dataset_file)
    given = _given_flags(click.get_current_context())
    if programs is not None:
        from evalplus_ng.pipeline.programs import chain

        _refuse(given, _FUNCTION_ONLY, "program tasks")
        _writable(out, "--out")
        _augment_programs(
            _workspace(dataset_name, dataset_file, data, out, _backend(backend, address, jobs)),
            chain.ProgramAugmentConfig(
                count=per_task if "per_task" in given else PROGRAM_CANDIDATES, seed=seed,
                time_limit=time_limit or PROGRAM_REFERENCE_SECONDS,
                multiple_answers=multiple_answers),
            chain.ProgramChainOptions(tasks=tasks, samples_dir=samples_dir,
                                      families=_families(family, samples_dir),
                                      llm_pairs=not no_llm_seeds, timings=timings_file,
                                      calibrate=not no_calibrate, reduce=mini))
        return
    _refuse(given, _PROGRAM_ONLY, "function tasks")
    _writable(out, "--out")
    space = _workspace(dataset_name, dataset_file, data, out, _backend(backend, address, jobs))
    from evalplus_ng.pipeline.augment import AugmentConfig, select_tasks
    from evalplus_ng.pipeline.chain import ChainOptions, run_augment_chain

    chosen = select_tasks(space.dataset.load(), tasks)
    config = AugmentConfig(dataset=space.dataset.name, per_task=per_task, seed=seed,
                           use_corpus=not no_llm_seeds, budget_seconds=budget)
    options = ChainOptions(samples_dir=samples_dir, families=_families(family, samples_dir),
                           audit=not no_audit, calibrate=not no_calibrate,
                           reduce=not no_reduce)

    def on_stage(stage: str, summary: Any) -> None:
        if stage == "augment":
            _print_augment(summary, out, per_task)
        elif stage == "audit":
            _print_audit(summary, samples_dir, space.backend.workers, hold=True)
        elif stage == "calibrate":
            _print_calibrate(summary, DEFAULT_FLOOR_SECONDS, DEFAULT_FACTOR)
        elif stage == "stale":
            click.echo(f"removed {summary}: reduced from another suite "
                       "(`evalplus-ng reduce` makes this one's)", err=True)
        else:
            _print_reduce(summary)

    run_augment_chain(chosen, config, space, options, _bar, on_stage,
                      status=lambda message: click.echo(message, err=True))


#: ``augment``'s flags that only one kind of task takes (by parameter name).
_FUNCTION_ONLY = {"budget": "--budget",
                  "no_audit": "--no-audit", "no_reduce": "--no-reduce"}
_PROGRAM_ONLY = {"time_limit": "--time-limit", "multiple_answers": "--include-multiple-answers",
                 "mini": "--mini", "timings_file": "--timings"}


def _given_flags(ctx: click.Context) -> set[str]:
    """The parameters the command line set (not left at their defaults)."""
    return {name for name in ctx.params
            if ctx.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE}


def _refuse(given: set[str], flags: Mapping[str, str], kind: str) -> None:
    """One usage line naming the flags of ``flags`` that were given but mean nothing for
    ``kind``."""
    named = [flag for name, flag in flags.items() if name in given]
    if named:
        raise click.UsageError(f"{', '.join(named)}: not for {kind}")


def _augment_programs(space: Workspace, config: ProgramAugmentConfig,
                      options: ProgramChainOptions) -> None:
    """``augment`` on a tasks file of stdin/stdout programs: the chain, each stage's
    summary printed as the stage ends."""
    from evalplus_ng.pipeline.programs import chain

    def on_stage(stage: str, summary: Any) -> None:
        if stage == "pairs":
            click.echo(f"LLM generators and validators: {summary.found} of {summary.chosen} "
                       f"tasks have them (from {summary.folder})", err=True)
        elif stage == "augment":
            for line in chain.augment_lines(summary):
                click.echo(line)
            _print_nodes("sandbox jobs", summary.nodes)
            for line in chain.warning_lines(summary.reports, summary.limits):
                click.echo(f"warning: {line}", err=True)
        elif stage == "audit":
            _print_program_audit(summary, hold=True)
        elif stage == "stale":
            click.echo(f"removed {summary}: reduced from another suite", err=True)
        else:
            for line in chain.mini_lines(summary):
                click.echo(line)
            _print_nodes("sandbox jobs of the MINI", summary.nodes)

    chain.run_program_chain(config, space, options, _bar, on_stage)


def _print_augment(summary: AugmentSummary, out: Path, per_task: int) -> None:
    count = f"{len(summary.reports)} tasks ({summary.resumed} from checkpoints)"
    if summary.kept:
        count = (f"{len(summary.reports) - summary.kept} tasks augmented ({summary.resumed} "
                 f"from checkpoints), {summary.kept} kept from the suite already in {out}, "
                 f"{len(summary.reports)} in all")
    click.echo(f"{count}; wrote {summary.artifact}, {summary.stress_artifact}, "
               f"{summary.edge_artifact} and {out / 'stats.json'}")
    _print_nodes("tasks augmented", summary.nodes)
    _print_table(summary, per_task)


def _print_table(summary: AugmentSummary, per_task: int) -> None:
    """Tests per task, shaped like the EvalPlus paper's Table 2."""
    from evalplus_ng.pipeline.augment import table

    rows = {
        "base": [len(task.base_inputs) for task in summary.tasks],
        "plus": [len(task.plus_inputs) for task in summary.tasks],
        "base+plus": [len(task.base_inputs) + len(task.plus_inputs) for task in summary.tasks],
        "stress": [len(task.plus_inputs) for task in summary.stress_tasks],
        "edge": [len(task.plus_inputs) for task in summary.edge_tasks],
    }
    click.echo(f"{'tests/task':<10} {'avg':>8} {'median':>8} {'min':>6} {'max':>6}")
    for name, counts in rows.items():
        cells = table(counts)
        click.echo(f"{name:<10} {cells['avg']:>8} {cells['median']:>8} "
                   f"{cells['min']:>6} {cells['max']:>6}")
    short = [f"{r.task_id} ({r.plus_inputs})" for r in summary.reports if r.plus_inputs < per_task]
    if short:
        click.echo(f"{len(short)} task(s) below {per_task} plus inputs: {', '.join(short)}")
    doubtful = [f"{r.task_id} ({r.tiers['plain-disagrees']})" for r in summary.reports
                if r.tiers.get("plain-disagrees")]
    if doubtful:
        click.echo(f"warning: the plain reference disagrees with the ground truth on some "
                   f"inputs (kept in plus; one of the two is wrong): {', '.join(doubtful)}",
                   err=True)


@main.command()
@_dataset_options
@click.option("--model", required=True, help="Model name, as the endpoint knows it.")
@click.option("--base-url", default=None, metavar="URL",
              help="OpenAI-compatible endpoint, e.g. http://localhost:8000/v1 "
                   "[default: OpenAI's, or $OPENAI_BASE_URL].")
@click.option("--api-key-env", default="OPENAI_API_KEY", show_default=True, metavar="VAR",
              help="Environment variable holding the API key (optional with --base-url).")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=4, show_default=True,
              help="Concurrent requests.")
@click.option("--rounds", type=click.IntRange(min=1), default=1, show_default=True,
              help="Rounds per task; a round asks once per prompt kind "
                   "(complex, corner-case, difficult).")
@click.option("--per-request", type=click.IntRange(min=1, max=100), default=10,
              show_default=True, help="Inputs asked for in each request.")
@click.option("--tasks", default=None, metavar="LIST",
              help="Only these tasks: ids, numbers or ranges, e.g. '0,5,10-20'.")
@click.option("--out", type=click.Path(path_type=Path, file_okay=False), default=None,
              help="Folder for the corpus files [default: DATA/seeds; program tasks: their "
                   "generators and validators in its generators/].")
@click.option("--force", is_flag=True,
              help="Ask again even for tasks this model has answered for all rounds.")
@click.option("--timeout", type=_Finite(min=1.0, max=MAX_SECONDS), default=120.0,
              show_default=True,
              help="Per-request timeout, seconds.")
@click.option("--retries", type=click.IntRange(min=0), default=4, show_default=True,
              help="Retries of a request after 429, 5xx, a timeout or a connection error.")
@click.option("--backoff", type=_Finite(min=0.0, max=MAX_SECONDS), default=1.0,
              show_default=True,
              help="First retry delay, seconds; doubles per retry, capped at 30.")
@click.option("--temperature", type=_Finite(min=0.0, max=2.0), default=0.8,
              show_default=True, help="Sampling temperature.")
@click.option("--max-tokens", type=click.IntRange(min=16), default=2048, show_default=True,
              help="Reply length cap, tokens.")
@click.option("--date", default=None, hidden=True, help="Provenance date (tests).")
@_errors_to_exit_codes
def seed(dataset_name: str, dataset_file: Path | None, data: Path | None, model: str,
         base_url: str | None, api_key_env: str, jobs: int,
         rounds: int, per_request: int, tasks: str | None, out: Path | None, force: bool,
         timeout: float, retries: int, backoff: float, temperature: float, max_tokens: int,
         date: str | None) -> None:
    """Ask a model (any OpenAI-compatible endpoint) for seed inputs; add them to seeds/.

    On a tasks file of stdin/stdout programs: ask for each task's input generator and
    input validator (two programs), cached in seeds/generators/ for `augment`.
    """
    import datetime

    from evalplus_ng.errors import EndpointError
    from evalplus_ng.generate.contract import load_contract
    from evalplus_ng.generate.llmseed import RetryPolicy, SeedConfig, run_seed
    from evalplus_ng.pipeline.augment import select_tasks
    from evalplus_ng.pipeline.programs import chain

    when = date or datetime.date.today().isoformat()
    policy = RetryPolicy(retries=retries, backoff=backoff)
    programs = program_file(dataset_name, dataset_file)
    ask: Callable[[OpenAIEndpoint, Callable[[int, int], None]], Any]
    if programs is not None:
        given = _given_flags(click.get_current_context())
        _refuse(given, {"rounds": "--rounds", "per_request": "--per-request"}, "program tasks")
        folder = out if out is not None else (
            data if data is not None else DEFAULT_OUT / "data") / "seeds"
        _writable(folder, "--out")

        def ask(endpoint: OpenAIEndpoint, progress: Callable[[int, int], None]) -> Any:
            return chain.seed_programs(programs, folder, endpoint, model, when, force,
                                       tasks, policy, jobs, progress)
    else:
        dataset = _dataset(dataset_name, dataset_file, data, DEFAULT_OUT)
        chosen = select_tasks(dataset.load(), tasks)
        folder = out if out is not None else dataset.user_folder.seeds
        _writable(folder, "--out")
        contracts = {task.task_id: load_contract(task, dataset.contract_path(task.task_id))
                     for task in chosen}
        config = SeedConfig(model=model, date=when, rounds=rounds, per_request=per_request,
                            force=force)

        def ask(endpoint: OpenAIEndpoint, progress: Callable[[int, int], None]) -> Any:
            return run_seed(chosen, contracts, folder, endpoint, config, policy, jobs,
                            progress)
    try:
        endpoint = _endpoint(model, base_url, api_key_env, timeout, max_tokens, temperature)
        with _Progress("asking") as meter:
            summary = ask(endpoint, meter.update)
    except EndpointError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_INPUT)
    except KeyboardInterrupt:
        click.echo("interrupted: finished tasks are saved; the same command continues",
                   err=True)
        sys.exit(EXIT_INTERRUPTED)
    click.echo(f"{len(summary.reports)} tasks asked, {len(summary.skipped)} already done; "
               + (f"{summary.programs} new programs (generators and validators) in "
                  f"{folder / chain.SUBFOLDER}" if programs is not None
                  else f"{summary.added} new inputs in {folder}"))
    if programs is not None:
        rejected = sum(len(report.rejected) for report in summary.reports)
        click.echo(f"{summary.requests} replies ({summary.attempts} attempts), {rejected} "
                   f"holding no program; tokens: {summary.prompt_tokens} prompt + "
                   f"{summary.completion_tokens} completion")
    else:
        click.echo(f"{summary.requests} requests, {summary.answered} answered "
                   f"({summary.attempts} attempts); tokens: {summary.prompt_tokens} prompt + "
                   f"{summary.completion_tokens} completion")
    for report in summary.failed:
        click.echo(f"failed: {report.task_id}: {report.failures[0]}", err=True)
    if summary.failed:
        click.echo(f"{len(summary.failed)} task(s) incomplete; run again to retry them", err=True)
        sys.exit(1)


def _endpoint(model: str, base_url: str | None, api_key_env: str, timeout: float,
              max_tokens: int, temperature: float) -> OpenAIEndpoint:
    """The endpoint ``seed`` asks; EndpointError when there is neither a key nor a URL."""
    from evalplus_ng.errors import EndpointError
    from evalplus_ng.generate.llmseed import OpenAIEndpoint

    api_key = os.environ.get(api_key_env) or ""
    if not api_key and base_url is None:
        raise EndpointError(f"no API key: set ${api_key_env} (or pass --base-url URL "
                            "for a local server)")
    return OpenAIEndpoint(model, base_url, api_key or "no-key", timeout=timeout,
                          max_tokens=max_tokens, temperature=temperature,
                          key_source=f"${api_key_env}")


@main.command()
@_dataset_options
@click.option("--out", type=click.Path(path_type=Path, file_okay=False), default=DEFAULT_OUT,
              show_default=True, help="Folder where `augment` wrote the suites.")
@click.option("--floor", type=_Finite(min=0.01, max=MAX_SECONDS), default=DEFAULT_FLOOR_SECONDS,
              show_default=True, help="Least time limit of any test, seconds.")
@click.option("--factor", type=_Finite(min=1.0, max=MAX_FACTOR), default=DEFAULT_FACTOR,
              show_default=True, help="Time limit as a multiple of the ground truth's time.")
@_workers_option
@_backend_options
@_jail_option
@_errors_to_exit_codes
def calibrate(dataset_name: str, dataset_file: Path | None, data: Path | None, out: Path,
              floor: float, factor: float, jobs: int, backend: str, address: str | None,
              ) -> None:
    """Time the ground truth on every test and store per-test time limits in the suites."""
    from evalplus_ng.pipeline.calibrate import run_calibrate

    _writable(out, "--out", make=False)
    space = _workspace(dataset_name, dataset_file, data, out, _backend(backend, address, jobs))
    with _Progress("calibrating") as progress:
        summary = run_calibrate(space, floor, factor, progress.update)
    _print_calibrate(summary, floor, factor)


def _print_calibrate(summary: CalibrateSummary, floor: float, factor: float) -> None:
    if not summary.tasks:
        click.echo(f"every task of {', '.join(str(p) for p in summary.paths)} keeps its "
                   "calibration")
        return
    click.echo(f"calibrated {summary.tests} tests of {summary.tasks} tasks in "
               f"{', '.join(str(p) for p in summary.paths)}")
    where = "median over the Ray nodes' units" if summary.nodes else "on this machine"
    click.echo(f"reference workload: {summary.reference_seconds:.4f} s {where}; "
               f"limits: max({floor} s, {factor} x ground truth)")
    _print_nodes(f"calibration units (up to {CALIBRATION_CHUNK} tasks)", summary.nodes)


@main.command()
@_dataset_options
@click.option("--out", type=click.Path(path_type=Path, file_okay=False), default=DEFAULT_OUT,
              show_default=True, help="Folder where `augment` wrote the full suite.")
@click.option("--profile", default=None,
              metavar="coverage|mutants|samples|full|offline|stress",
              help="Which requirements the reduced suite keeps (reducers/NAME.json) "
                   "[default: full with --samples, else offline; stress for --suite stress].")
@click.option("--suite", type=click.Choice(["plus", "stress"]), default="plus",
              show_default=True,
              help="Which full suite to reduce: plus (to HumanEvalPlus-Mini for HumanEval) "
                   "or stress (to HumanEvalPlus-Stress-Mini).")
@click.option("--samples", "samples_dir", default=None,
              type=click.Path(path_type=Path, file_okay=False, exists=True),
              help="Folder of LLM samples files (*.jsonl) for sample kills and pass@1.")
@_workers_option
@_backend_options
@_jail_option
@_errors_to_exit_codes
def reduce(dataset_name: str, dataset_file: Path | None, data: Path | None, out: Path,
           profile: str | None, suite: str, samples_dir: Path | None, jobs: int, backend: str,
           address: str | None) -> None:
    """Reduce a full suite to its MINI by set cover over test requirements."""
    # The strongest profile the inputs allow, as augment chooses it.
    chosen = profile or ("stress" if suite == "stress" else "full" if samples_dir else "offline")
    from evalplus_ng.pipeline.minimize import run_reduce

    _writable(out, "--out", make=False)
    space = _workspace(dataset_name, dataset_file, data, out, _backend(backend, address, jobs))
    with _Progress("reducing" if suite == "plus" else f"reducing {suite}") as progress:
        summary = run_reduce(space, chosen, samples_dir, progress.update,
                             status=lambda message: click.echo(message, err=True), suite=suite)
    _print_reduce(summary)


def _print_reduce(summary: ReduceSummary) -> None:
    click.echo(f"wrote {summary.mini_path} and {summary.report_path}")
    _print_nodes("tasks reduced", summary.nodes)
    spent = summary.seconds
    if spent:
        kinds = ", ".join(f"{label} {seconds}" for label, seconds in summary.spent_per_kind)
        click.echo(f"seconds (cumulative over cached runs): {kinds or 'none'}; "
                   f"this run {spent['this_run']}")
    for name, tests in summary.tests_per_task.items():
        kept = summary.kept.get(name)
        extra = (f", {100 * kept:.1f}% of the full suite's kills kept (samples that pass "
                 "the base tests)" if kept is not None else "")
        click.echo(f"{name}: {tests:.1f} tests/task{extra}")


@main.command()
@_dataset_options
@click.option("--out", type=click.Path(path_type=Path, file_okay=False), default=DEFAULT_OUT,
              show_default=True, help="Folder for audit.json and audit.md.")
@click.option("--suite", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="Suite file whose plus inputs to try "
                   "[default: the plus suite in OUT when present].")
@click.option("--samples", type=click.Path(path_type=Path), default=None,
              help="LLM samples (a *.jsonl file or a folder of them) for the jury: inputs "
                   "where base-passing samples of two families agree against the ground "
                   "truth.")
@_family_option
@click.option("--tasks", default=None, metavar="LIST",
              help="Only these tasks: ids, numbers or ranges, e.g. '0,5,10-20'.")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=_default_jobs,
              show_default="number of cores", help="Tasks audited in parallel.")
@_jail_option
@click.option("--opinion-model", default=None, metavar="NAME",
              help="Ask this model (an OpenAI-compatible endpoint) for a second opinion "
                   "on each jury lead; answers are cached in DATA/opinions.json.")
@click.option("--base-url", default=None, metavar="URL",
              help="The endpoint for --opinion-model [default: OpenAI's, or "
                   "$OPENAI_BASE_URL].")
@click.option("--api-key-env", default="OPENAI_API_KEY", show_default=True, metavar="VAR",
              help="Environment variable holding the API key (optional with --base-url).")
@click.option("--date", default=None, hidden=True, help="Provenance date (tests).")
@_errors_to_exit_codes
def audit(dataset_name: str, dataset_file: Path | None, data: Path | None, out: Path,
          suite: Path | None, samples: Path | None, family: tuple[str, ...],
          tasks: str | None, jobs: int, opinion_model: str | None, base_url: str | None,
          api_key_env: str, date: str | None) -> None:
    """Hunt for defects in the dataset's reference solutions.

    On a tasks file of stdin/stdout programs: the jury of --samples on the new tests of
    --suite (augment's ProgramsPlus.jsonl.gz), and augment's refuted plans.
    """
    _writable(out, "--out")
    import datetime

    from evalplus_ng.pipeline.augment import select_tasks

    programs = program_file(dataset_name, dataset_file)
    if programs is not None:
        _refuse(_given_flags(click.get_current_context()),
                {"opinion_model": "--opinion-model", "base_url": "--base-url",
                 "api_key_env": "--api-key-env"}, "program tasks")
        _audit_programs(_workspace(dataset_name, dataset_file, data, out,
                                   _backend("local", None, jobs)),
                        suite, samples, _families(family, samples), tasks)
        return

    space = _workspace(dataset_name, dataset_file, data, out, _backend("local", None, jobs))
    dataset = space.dataset
    chosen = [task.task_id for task in select_tasks(dataset.load(), tasks)]
    opinions = None
    if opinion_model is not None:
        from evalplus_ng.errors import EndpointError
        from evalplus_ng.generate.llmseed import OpenAIEndpoint
        from evalplus_ng.oracle.opinion import OpinionConfig, SecondOpinion

        api_key = os.environ.get(api_key_env) or ""
        if not api_key and base_url is None:
            raise click.UsageError(f"no API key: set ${api_key_env} (or pass --base-url URL "
                                   "for a local server)")
        endpoint = OpenAIEndpoint(opinion_model, base_url, api_key or "no-key", timeout=120.0,
                                  max_tokens=1024, temperature=0.0,
                                  key_source=f"${api_key_env}")
        opinions = SecondOpinion(endpoint, OpinionConfig(
            opinion_model, date or datetime.date.today().isoformat()),
            dataset.user_folder.definition / "opinions.json")
        try:
            _audit(space, suite, samples, chosen, families=_families(family, samples),
                   opinions=opinions)
        except EndpointError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(EXIT_INPUT)
        click.echo(f"second opinions: {opinions.asked} asked, the rest from the cache")
        return
    _audit(space, suite, samples, chosen, families=_families(family, samples))


def _audit(space: Workspace, suite: Path | None, samples: Path | None, chosen: list[str],
           families: Families = (), opinions: OpinionSource | None = None) -> None:
    from evalplus_ng.pipeline.audit import run_audit

    with _Progress("auditing") as progress:
        summary = run_audit(space, samples, progress.update, suite, task_ids=chosen,
                            families=families, opinions=opinions)
    _print_audit(summary, samples, space.backend.workers, hold=False)


def _audit_programs(space: Workspace, suite: Path | None, samples: Path | None,
                    families: Families, tasks: str | None) -> None:
    """``audit`` on program tasks (:func:`~.pipeline.programs.chain.audit_programs`)."""
    from evalplus_ng.pipeline.programs import chain

    with _Progress("auditing") as progress:
        summary = chain.audit_programs(space, suite, samples, families, tasks, progress.update)
    _print_program_audit(summary, hold=False)


def _print_program_audit(summary: ProgramAuditSummary, hold: bool) -> None:
    """What the program audit found and ran, and the tests its leads hold."""
    from evalplus_ng.oracle.defects import RAISES, SAMPLES, SUSPECT_SAMPLES, UNREVIEWED

    leads = [f for f in summary.findings if f.signal == SAMPLES]
    raises = sum(f.signal == RAISES for f in summary.findings)
    waiting = sum(f.status == UNREVIEWED for f in summary.findings)
    click.echo(f"{len(leads)} jury lead(s), {raises} refuted plan(s); {waiting} finding(s) "
               f"awaiting review; wrote {summary.json_path} and {summary.markdown_path}")
    _print_suspect([f.task_id for f in summary.findings if f.signal is SUSPECT_SAMPLES])
    skipped = ", ".join(f"{n} {why}" for why, n in summary.skipped.items())
    click.echo(f"jury: {summary.samples} samples, {summary.passing} pass the public tests; "
               f"{summary.judged} task(s) judged" + (f" (not judged: {skipped})" if skipped
                                                     else "")
               + f"; {summary.base_jobs} programs on the public tests "
                 f"({summary.seconds[0]} s), {summary.jury_jobs} on the new tests, "
                 f"{summary.runs} runs ({summary.seconds[1]} s)")
    if summary.held:
        where = ("held out of the suite" if hold else
                 "disputed (augment --samples holds them out of the suite)")
        click.echo(f"{sum(summary.held.values())} new test(s) of {len(summary.held)} task(s) "
                   f"{where} until a review settles their jury leads: "
                   + ", ".join(summary.held))


def _print_suspect(suspect: list[str]) -> None:
    """The tasks whose samples the jury found suspect (they outvote the ground truth on
    most inputs: nothing held), if any."""
    if suspect:
        click.echo(f"suspect samples on {len(suspect)} task(s) (they outvote the ground truth "
                   "on most inputs; nothing held, see audit.md): " + ", ".join(suspect))


def _print_audit(summary: AuditSummary, samples: Path | None, jobs: int, hold: bool) -> None:
    from evalplus_ng.oracle.defects import SUSPECT_SAMPLES

    waiting = sum(f.status == "unreviewed" for f in summary.findings)
    click.echo(f"{len(summary.defective)} defective reference solution(s), "
               f"{waiting} finding(s) awaiting review; wrote {summary.json_path} "
               f"and {summary.markdown_path}")
    if samples is not None:
        cost, (reading, judging) = summary.jury, summary.jury_seconds
        click.echo(f"jury: {cost.samples} base-passing sample runs, {cost.calls} calls, "
                   f"{cost.checks} shrink checks; {reading} s reading and base-testing the "
                   f"samples, {judging} s judging (summed over {jobs} worker(s))")
        _print_suspect([f.task_id for f in summary.findings
                        if f.signal is SUSPECT_SAMPLES])
    if summary.held:
        where = ("held out of the plus suite" if hold else
                 "disputed (augment holds them out of the plus suite)")
        click.echo(f"{sum(summary.held.values())} plus input(s) of {len(summary.held)} "
                   f"task(s) {where} until a review settles their jury leads: "
                   + ", ".join(sorted(summary.held, key=task_order)))



@main.command()
@click.argument("results", nargs=-1, required=True,
                type=click.Path(path_type=Path, exists=True))
@click.option("--artifacts", type=click.Path(path_type=Path, file_okay=False), multiple=True,
              default=(DEFAULT_OUT,), show_default=True,
              help="Folder where `augment` wrote a suite (for its stats and audit; of "
                   "program tasks: its stats and its MINI's tasks file); give one per dataset "
                   "(each is matched by the dataset its stats.json names).")
@click.option("--models", type=click.Path(path_type=Path, dir_okay=False, exists=True),
              default=None, metavar="FILE",
              help="JSON object of results-file stem -> display name, or -> {\"name\": ..., "
                   "and metadata such as \"size\", \"family\", \"link\"}.")
@click.option("--out", type=click.Path(path_type=Path, file_okay=False),
              default=Path("evalplus-ng-report"), show_default=True,
              help="Folder for report.md and report.html.")
@click.option("--include-partial", is_flag=True,
              help="Report results files whose run stopped early, flagged as partial "
                   "(without it, such a file is an error).")
@_errors_to_exit_codes
def report(results: tuple[Path, ...], artifacts: tuple[Path, ...], models: Path | None,
           out: Path, include_partial: bool) -> None:
    """Compare models: a leaderboard with pass@k, per-task pass rates, every task x model
    and what plus finds, per dataset and side by side, from results files (or folders of
    them; of functions and of program tasks), as Markdown and one self-contained HTML
    page."""
    from evalplus_ng.pipeline.report import run_report

    began = time.perf_counter()
    _writable(out, "--out")
    summary = run_report(list(results), out, artifacts, models, include_partial)
    click.echo(summary.markdown_path.read_text(encoding="utf-8"))
    click.echo(f"wrote {summary.markdown_path} and {summary.html_path} "
               f"({summary.board.files} results files, {time.perf_counter() - began:.1f} s)")


if __name__ == "__main__":  # pragma: no cover
    main()
