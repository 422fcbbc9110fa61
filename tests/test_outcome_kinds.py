"""Outcomes are told apart by their kind, never by their text.

An :class:`~evalplus_ng.records.Outcome`'s ``status`` and ``fault`` are decided where the
call ends (the sandbox's child, by the exception's class; the parent, for what it did
not run); ``error`` is text for people, which untrusted code can write. The check here
reads the package's source: no comparison or string method reads an ``error`` attribute,
and no message constant is searched for in a text.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from evalplus_ng.records import Fault, Job, JobResult, Outcome, Status, too_costly, unrun_fault
from evalplus_ng.sandbox import Limits, Sandbox

PACKAGE = Path(__file__).resolve().parent.parent / "evalplus_ng"
#: Texts that once named a kind inside an error message.
MESSAGE_CONSTANTS = {"COST_EXCEEDED", "OUTPUT_TOO_LARGE", "UNSTABLE", "NOT_EXAMINED"}
_TEXT_METHODS = {"startswith", "endswith", "find", "index", "count", "split", "partition"}
_TEXT_SEARCHES = {"search", "match", "fullmatch", "findall"}


def _reads_error(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Attribute) and n.attr == "error" for n in ast.walk(node))


def _decides(node: ast.AST) -> bool:
    """Whether ``node`` decides on an error's text."""
    if isinstance(node, ast.Compare):
        reads = (any(not isinstance(op, ast.Is | ast.IsNot) for op in node.ops)
                 and _reads_error(node))
        searches = (any(isinstance(op, ast.In | ast.NotIn) for op in node.ops)
                    and isinstance(node.left, ast.Name) and node.left.id in MESSAGE_CONSTANTS)
        return reads or searches
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        method = node.func.attr in _TEXT_METHODS and _reads_error(node.func.value)
        search = node.func.attr in _TEXT_SEARCHES and any(map(_reads_error, node.args))
        return method or search
    return False


def text_decisions(source: str) -> list[int]:
    """Lines where ``source`` decides on an error's text."""
    return sorted({node.lineno for node in ast.walk(ast.parse(source)) if _decides(node)})


def test_no_outcome_is_decided_by_its_text() -> None:
    found = {str(path.relative_to(PACKAGE.parent)): text_decisions(path.read_text())
             for path in sorted(PACKAGE.rglob("*.py"))}
    assert {path: lines for path, lines in found.items() if lines} == {}


def test_the_check_finds_the_old_ways() -> None:
    old = (
        'a = COST_EXCEEDED in (outcome.error or "")\n'
        'b = (outcome.error or "").startswith("RecursionError")\n'
        'c = NOT_EXAMINED not in text\n'
        'd = outcome.error == "did not run"\n'
        'e = re.search("Timeout", outcome.error)\n'
        'f = outcome.error is None\n'
        'g = f"{outcome.error}"\n'
    )
    assert text_decisions(old) == [1, 2, 3, 4, 5]


def test_an_outcome_knows_its_kind() -> None:
    with pytest.raises(ValueError, match="needs fault"):
        Outcome(Status.ERROR, error="ValueError: x")
    with pytest.raises(ValueError, match="has no fault"):
        Outcome(Status.TIMEOUT, fault=Fault.RAISED)
    with pytest.raises(ValueError, match="no error"):
        Outcome(Status.OK, error="answered")
    assert too_costly(Outcome(Status.TIMEOUT))
    assert too_costly(Outcome(Status.ERROR, error="", fault=Fault.COST))
    assert not too_costly(Outcome(Status.ERROR, error="CostExceeded", fault=Fault.RAISED))
    loaded = JobResult(Outcome(Status.OK), ())
    broken = JobResult(Outcome(Status.ERROR, error="SyntaxError", fault=Fault.RAISED), ())
    assert (unrun_fault(loaded), unrun_fault(broken)) == (Fault.NOT_RUN, Fault.NOT_LOADED)


CODE = '''
import sys

class CostExceeded(Exception):
    pass

def f(kind):
    if kind == "deep":
        return f(kind)
    if kind == "fake":  # a sample that names its exception as the budget's
        raise CostExceeded("more than 1 lines executed")
    if kind == "said":  # or says "RecursionError" in its message
        raise ValueError("RecursionError: maximum recursion depth exceeded")
    if kind == "loop":
        return sum(range(10 ** 7))
    return kind
'''


def test_the_child_decides_the_fault_by_the_exceptions_class() -> None:
    inputs = [["deep"], ["fake"], ["said"], ["ok"]]
    with Sandbox(1, Limits()) as sandbox:
        result = sandbox.run(Job(CODE, "f", inputs, [5.0] * 4, fail_fast=False))
        faults = [o.fault for o in result.outcomes]
        assert faults == [Fault.RECURSION, Fault.RAISED, Fault.RAISED, None]
        assert result.outcomes[1].error == "CostExceeded: more than 1 lines executed"
        counted = sandbox.run(Job(CODE, "f", [["loop"], ["ok"]], [20.0, 20.0],
                                  fail_fast=False, max_lines=1_000))
        assert [o.fault for o in counted.outcomes] == [Fault.COST, None]
        broken = sandbox.run(Job("def f(:\n", "f", [["ok"]], [5.0]))
        assert (broken.load.status, broken.load.fault) == (Status.ERROR, Fault.RAISED)
