"""One constructor of a sandbox job from a task (:func:`evalplus_ng.jobs.task_job`)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from evalplus_ng.jobs import task_job
from evalplus_ng.records import VALUE, Task
from evalplus_ng.serialize import encode

PACKAGE = Path(__file__).resolve().parent.parent / "evalplus_ng"
TASK = Task("T/1", "", "f", "def f(x):\n    return x\n", ([1],), atol=1e-6, oracle="set",
            equality=VALUE)


def test_a_task_job_carries_everything_the_task_says_of_judging() -> None:
    job = task_job(TASK, "def f(x): return x", [[1], [(2, 3)]], 4.0, expected=[encode(1)] * 2,
                   fail_fast=False)
    assert (job.entry_point, job.task_id, job.oracle, job.equality, job.atol) == (
        "f", "T/1", "set", VALUE, 1e-6)
    assert job.inputs == [encode([1]), encode([(2, 3)])] and job.time_limits == [4.0, 4.0]
    assert job.fail_fast is False and job.expected == [encode(1)] * 2
    encoded = task_job(TASK, TASK.solution, seconds=[1.0, 2.0], wires=job.inputs)
    assert encoded.inputs == job.inputs and encoded.time_limits == [1.0, 2.0]
    with pytest.raises(ValueError, match="inputs or wires"):
        task_job(TASK, TASK.solution, [[1]], 1.0, wires=job.inputs)


def _jobs_made_from_a_task(path: Path) -> list[int]:
    """Lines that build a Job by hand from some task's entry point."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text())):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == "Job"):
            values = [*node.args, *(k.value for k in node.keywords)]
            if any(isinstance(v, ast.Attribute) and v.attr == "entry_point" for v in values):
                lines.append(node.lineno)
    return lines


def test_no_module_builds_a_task_job_by_hand(tmp_path: Path) -> None:
    found = {str(path.relative_to(PACKAGE)): _jobs_made_from_a_task(path)
             for path in sorted(PACKAGE.rglob("*.py")) if path.name != "jobs.py"}
    assert {path: lines for path, lines in found.items() if lines} == {}
    by_hand = tmp_path / "old.py"
    by_hand.write_text("job = Job(code=c, entry_point=task.entry_point, inputs=[], "
                       "time_limits=[])\n")
    assert _jobs_made_from_a_task(by_hand) == [1]
