"""How far a request travels through the package: module hops of a CLI run, measured.

What it measures, for one ``evaluate`` request and for the function ``augment`` chain
(each a real CLI run, in this process, on small offline inputs):

* **modules**: the package's modules the run's calls pass through;
* **passes**: distinct hops from one module into another (caller module, callee module:
  a hop made by several functions, or many times, counts once);
* **climbs**: those of them that, somewhere in the run, enter a module already on the call
  stack below the caller (the flow going back up to a module it came through:
  A -> B -> A), and
* **up**: those whose callee sits in a higher layer than its caller (a callback into
  the pipeline; the layers are ``tests/test_layers.py``'s ``LAYERS``).

Fewer of each is a shorter path for a reader following the request. Calls are seen with
``sys.setprofile`` and ``threading.setprofile`` (worker threads too); a function's
caller is the nearest frame of the package below it, so a call through the standard
library or click still counts as one edge. Sandbox children run in other processes and
are not followed: this is the trusted side's structure.

To compare revisions, run it with ``PYTHONPATH`` at each checkout::

    python benchmarks/hops.py [--json report.json]
    PYTHONPATH=/path/to/other/checkout python benchmarks/hops.py
"""

# ruff: noqa: E402  (the project's imports follow the sys.path set-up for a plain checkout)
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import threading
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if "evalplus_ng" not in sys.modules and not os.environ.get("PYTHONPATH"):
    sys.path.insert(0, str(ROOT))

from click.testing import CliRunner

import evalplus_ng

PACKAGE = Path(evalplus_ng.__file__).resolve().parent
sys.path.insert(0, str(ROOT / "tests"))
from test_layers import LAYERS

#: Three samples of the first HumanEval tasks: right, wrong, right.
SAMPLES = [
    {"task_id": "HumanEval/0", "completion": (
        "    return any(abs(a - b) < threshold for i, a in enumerate(numbers)"
        " for b in numbers[i + 1:])\n")},
    {"task_id": "HumanEval/2", "completion": "    return number - int(number) + 0.0\n"},
    {"task_id": "HumanEval/2", "completion": "    return number % 1.0\n"},
]


@dataclass(frozen=True)
class Hops:
    """One run's measure (see the module's docstring), and the edges themselves."""

    command: str
    modules: int
    passes: int
    climbs: int
    up: int
    edges: tuple[str, ...] = ()
    climbing: tuple[str, ...] = ()


def _module_of(filename: str) -> str | None:
    """``generate.mutate`` for a file of the package; None for any other file."""
    path = Path(filename)
    try:
        parts = path.resolve().relative_to(PACKAGE).with_suffix("").parts
    except ValueError:
        return None
    return ".".join(part for part in parts if part != "__init__") or "__init__"


def _layer(module: str) -> int:
    """0 for the highest layer; the wing is a module's first name."""
    wing = module.split(".", 1)[0]
    for index, layer in enumerate(LAYERS):
        if wing in layer:
            return index
    return len(LAYERS)


class _Tracer:
    def __init__(self) -> None:
        self.modules: set[str] = set()
        #: Each hop (caller module, callee module): whether it climbed, whether it went up.
        self.edges: dict[tuple[str, str], tuple[bool, bool]] = {}
        #: Each hop as text, by its first pair of functions: ``module:function -> ...``.
        self.names: dict[tuple[str, str], str] = {}
        #: Pairs of functions already looked at (the walk down the stack is paid once).
        self.seen: set[tuple[Any, Any]] = set()
        self.files: dict[str, str | None] = {}

    def _module(self, frame: FrameType) -> str | None:
        name = frame.f_code.co_filename
        if name not in self.files:
            self.files[name] = _module_of(name)
        return self.files[name]

    def __call__(self, frame: FrameType, event: str, _arg: object) -> None:
        if event != "call":
            return
        callee = self._module(frame)
        if callee is None:
            return
        self.modules.add(callee)
        below = frame.f_back
        while below is not None and self._module(below) is None:
            below = below.f_back
        if below is None:
            return
        caller = self._module(below)
        if caller == callee or caller is None:
            return
        edge = (caller, callee)
        functions = (below.f_code, frame.f_code)
        if functions in self.seen:
            return
        self.seen.add(functions)
        stack: set[str] = set()
        deeper = below.f_back
        while deeper is not None:
            module = self._module(deeper)
            if module is not None:
                stack.add(module)
            deeper = deeper.f_back
        climb, up = self.edges.get(edge, (False, False))
        self.edges[edge] = (climb or callee in stack, up or _layer(callee) < _layer(caller))
        self.names.setdefault(edge, f"{caller}:{below.f_code.co_name} -> "
                                    f"{callee}:{frame.f_code.co_name}")


def measure(command: str, args: Sequence[str]) -> Hops:
    """Run ``evalplus-ng <args>`` here with the tracer on."""
    from evalplus_ng.cli import main

    tracer = _Tracer()
    threading.setprofile(tracer)
    sys.setprofile(tracer)
    try:
        done = CliRunner().invoke(main, list(args))
    finally:
        sys.setprofile(None)
        threading.setprofile(None)  # type: ignore[arg-type]
    if done.exit_code != 0:
        raise SystemExit(f"{command} failed ({done.exit_code}):\n{done.output}")
    kinds = list(tracer.edges.values())
    return Hops(command, len(tracer.modules), len(kinds), sum(c for c, _ in kinds),
                sum(u for _, u in kinds), tuple(sorted(tracer.names.values())),
                tuple(sorted(tracer.names[edge] for edge, (climb, up) in tracer.edges.items()
                             if climb or up)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--json", type=Path,
                        help="also write the measures here, with every edge")
    parser.add_argument("--climbs", action="store_true",
                        help="also print the edges that climb or go up a layer")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="evalplus-ng-hops-") as scratch:
        folder = Path(scratch)
        samples = folder / "samples.jsonl"
        samples.write_text("".join(json.dumps(s) + "\n" for s in SAMPLES), encoding="utf-8")
        toy = ROOT / "examples" / "toy.jsonl"
        runs = [
            measure("evaluate", ["evaluate", "--samples", str(samples), "--suite", "base",
                                 "-j", "1", "--results", str(folder / "results.json")]),
            measure("augment chain", ["augment", "--dataset", str(toy), "--per-task", "30",
                                      "--seed", "0", "-j", "1", "--out", str(folder / "out")]),
        ]
    print(f"package: {PACKAGE}")
    print(f"{'request':<15}{'modules':>9}{'passes':>8}{'climbs':>8}{'up':>5}")
    for run in runs:
        print(f"{run.command:<15}{run.modules:>9}{run.passes:>8}{run.climbs:>8}{run.up:>5}")
    if options.climbs:
        for run in runs:
            print(f"\n{run.command}: edges that climb back or go up a layer")
            for edge in run.climbing:
                print(f"  {edge}")
    if options.json:
        options.json.write_text(json.dumps([asdict(run) for run in runs], indent=1) + "\n",
                                encoding="utf-8")


if __name__ == "__main__":
    main()
