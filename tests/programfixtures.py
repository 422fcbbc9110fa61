"""What the tests of program tasks share (test_programs, test_checker, test_program_limits,
test_program_mini, test_augment_programs), written here once: a tiny task ("print a + b"),
tasks and samples files of JSON lines, a fake input plan ("n, then n integers") with its
two-task file, an executor that must not be asked to run anything, and ``augment`` run
through the command line. Their one-worker sandbox is conftest's ``program_sandbox``.

Nothing reads ``../shared``.
"""

from __future__ import annotations

import gzip
import json
import random
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import test_sandbox as corpus  # leftover processes (tests/ is on the path, as pytest runs)
from click.testing import CliRunner, Result

from evalplus_ng.cli import main
from evalplus_ng.generate.programs import planner as stdin_planner
from evalplus_ng.generate.programs.planner import LARGE, RANDOM, InputPlan, ProgramInput
from evalplus_ng.judge import JUDGE
from evalplus_ng.records import ProgramTask, ProgramTest
from evalplus_ng.sandbox import Limits, Sandbox

# --------------------------------------------------------------------------- "a + b"

#: The tiny task's reference.
ADD = "a, b = map(int, input().split())\nprint(a + b)\n"
#: Its tests: one public, two hidden ones of the dataset.
ADD_TESTS = (ProgramTest("1 2\n", "3\n", True), ProgramTest("5 5\n", "10\n"),
             ProgramTest("-1 1\n", "0\n"))
ADD_TASK = ProgramTask("cc/add", "Print a + b.", ADD, ADD_TESTS)


def add_record(tests: Sequence[Any] | None = None, task_id: str = "cc/add",
               **fields: Any) -> dict[str, Any]:
    """The tiny task as a tasks file's line: ``tests`` (as written) in place of
    :data:`ADD_TESTS` where given, ``fields`` added."""
    written = [{"input": t.input, "output": t.output, "public": t.public} for t in ADD_TESTS]
    return {"task_id": task_id, "prompt": ADD_TASK.prompt, "canonical_solution": ADD,
            "tests": written if tests is None else tests, **fields}


# --------------------------------------------------------------------------- files


def write_jsonl(path: Path, records: Sequence[Any]) -> Path:
    """``records`` as JSON lines at ``path``, gzipped (the same bytes every time) where its
    name ends in ``.gz``."""
    text = "".join(json.dumps(record) + "\n" for record in records)
    if path.suffix == ".gz":
        path.write_bytes(gzip.compress(text.encode(), mtime=0))
    else:
        path.write_text(text)
    return path


def gz_lines(path: Path) -> list[dict[str, Any]]:
    """The records of a gzipped JSON-lines file (a tasks file, ``augment``'s artifact)."""
    return [json.loads(line) for line in gzip.decompress(path.read_bytes()).splitlines()]


def write_samples(path: Path, task_id: str, codes: Sequence[str]) -> Path:
    """A samples file: each of ``codes`` a ``solution`` of ``task_id``, in order."""
    return write_jsonl(path, [{"task_id": task_id, "solution": code} for code in codes])


# --------------------------------------------------------------------------- a fake plan

#: The fake plan's reference: the sum of n integers.
SUM = "n = int(input())\nxs = list(map(int, input().split()))\nprint(sum(xs))\n"


@dataclass(frozen=True)
class SumPlan:
    """"n, then n integers" (1 <= n <= 200, |x| <= 1000): a real little validator."""

    task_id: str
    contract: dict[str, Any] | None = None
    reason: str = ""

    def violation(self, text: str) -> str | None:
        lines = text.split("\n")
        if len(lines) != 3 or lines[2] != "":
            return "two lines expected"
        if not lines[0].isdigit() or not 1 <= int(lines[0]) <= 200:
            return "n out of 1..200"
        numbers = lines[1].split(" ")
        if len(numbers) != int(lines[0]):
            return "not n numbers"
        if not all(x.lstrip("-").isdigit() and abs(int(x)) <= 1000 for x in numbers):
            return "a number out of range"
        return None


def fake_plan(task: ProgramTask) -> Any:
    """:class:`SumPlan` for ``cc/sum``; no input grammar for any other task."""
    if task.task_id == "cc/sum":
        return SumPlan(task.task_id, {"grammar": "n then n integers"})
    return InputPlan(task.task_id, None, "the statement names no input format")


def fake_inputs(plan: Any, seeds: Sequence[str], rng: random.Random,
                count: int) -> list[ProgramInput]:
    """Distinct inputs, none a seed; every tenth one large (n = 200)."""
    made: list[ProgramInput] = []
    seen = set(seeds)
    while len(made) < count:
        large = len(made) % 10 == 9
        n = 200 if large else rng.randint(1, 12)
        text = f"{n}\n{' '.join(str(rng.randint(-1000, 1000)) for _ in range(n))}\n"
        if text not in seen:
            seen.add(text)
            made.append(ProgramInput(text, LARGE if large else RANDOM))
    return made


def use_plan(monkeypatch: pytest.MonkeyPatch, planner: Any = fake_plan,
             generator: Any = fake_inputs) -> None:
    """``planner`` and ``generator`` in place of the planner's, for ``augment`` run by the
    command line."""
    monkeypatch.setattr(stdin_planner, "plan_for", planner)
    monkeypatch.setattr(stdin_planner, "program_inputs", generator)


def sum_tasks(path: Path, extra: Sequence[dict[str, Any]] = ()) -> Path:
    """The fake plan's tasks file: ``cc/sum`` (a public and a hidden test, other fields
    for ``augment`` to keep), ``cc/echo`` (no grammar) and ``extra``."""
    return write_jsonl(path, [
        {"task_id": "cc/sum", "name": "1A. Sum", "prompt": "Print the sum of n integers.",
         "canonical_solution": SUM, "source": "ours", "tags": ["math"],
         "tests": [{"input": "3\n1 2 3\n", "output": "6\n", "public": True},
                   {"input": "2\n5 5\n", "output": "10\n", "public": False}]},
        {"task_id": "cc/echo", "prompt": "Echo.", "canonical_solution": "print(input())\n",
         "tests": [{"input": "a\n", "output": "a\n", "public": True}]},
        *extra,
    ])


class NoRuns:
    """An executor for runs that must not need the sandbox."""

    def run(self, job: Any) -> Any:
        raise AssertionError("no job expected")

    def map(self, jobs: Any) -> Any:
        assert not list(jobs), "no job expected"
        return iter(())


# --------------------------------------------------------------------------- running


def augment(tasks: Path, out: Path, *flags: str, per_task: int) -> Result:
    """``augment --dataset-file tasks --out out --per-task N *flags``, which must succeed."""
    result = CliRunner().invoke(main, ["augment", "--dataset-file", str(tasks), "--out",
                                       str(out), "--per-task", str(per_task), *flags])
    assert result.exit_code == 0, result.output
    return result


@contextmanager
def program_sandbox(marker: str) -> Iterator[Sandbox]:
    """One worker (a gigabyte, five seconds to load), tagged with ``marker`` for
    :func:`test_sandbox._leftovers`."""
    with pytest.MonkeyPatch.context() as patch:
        corpus.tag(patch, marker)
        with Sandbox(1, Limits(memory_bytes=1 << 30, load_seconds=5.0), judge=JUDGE) as box:
            yield box
