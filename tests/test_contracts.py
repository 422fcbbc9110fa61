"""The shipped contracts: well formed, and every base input satisfies its task's contract."""

from __future__ import annotations

import ast

import pytest

from evalplus_ng.generate.contract import contract_file, load_contract, violations
from evalplus_ng.records import Task
from evalplus_ng.resources import data_dir
from evalplus_ng.tasks.registry import load_humaneval

FOLDER = data_dir("contracts") / "humaneval"
TASKS = load_humaneval()
WRITTEN = [task for task in TASKS if contract_file(FOLDER, task.task_id).is_file()]


def test_contract_files_name_real_tasks() -> None:
    known = {contract_file(FOLDER, task.task_id).name for task in TASKS}
    stray = sorted(p.name for p in FOLDER.glob("*.py") if p.name not in known)
    assert stray == []


@pytest.mark.parametrize("task", WRITTEN, ids=[t.task_id for t in WRITTEN])
def test_contract_is_well_formed_and_accepts_base_inputs(task: Task) -> None:
    source = contract_file(FOLDER, task.task_id).read_text(encoding="utf-8")
    tree = ast.parse(source)
    docstring = ast.get_docstring(tree)
    assert docstring and docstring.startswith(f"{task.task_id} "), "docstring names the task"
    pre = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "pre")
    prompt = next(n for n in ast.parse(task.prompt).body
                  if isinstance(n, ast.FunctionDef) and n.name == task.entry_point)
    assert [a.arg for a in pre.args.args] == [a.arg for a in prompt.args.args]
    assert all(a.annotation is not None for a in pre.args.args), "every parameter is typed"
    contract = load_contract(task, FOLDER)
    assert violations(contract, task.base_inputs) == []


def test_contracts_reject_what_they_should() -> None:
    by_id = {task.task_id: task for task in TASKS}
    checks = {
        # (task, a valid input, an input the docstring rules out)
        "HumanEval/13": ([3, 5], [True, 5]),
    }
    for task_id, (good, bad) in checks.items():
        if not contract_file(FOLDER, task_id).is_file():
            continue
        contract = load_contract(by_id[task_id], FOLDER)
        assert contract.valid(good)
        assert not contract.valid(bad)
