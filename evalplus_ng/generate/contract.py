"""Per-task input contracts: the signature's types plus a precondition from the docstring.

A contract lives in ``contracts/<dataset>/<Task_Id>.py`` (``HumanEval/0`` ->
``HumanEval_0.py``) and defines ``pre(...) -> bool`` with the task's parameters.
Its annotations, where present, are the authoritative parameter types (the
prompt's annotations are often missing or loose); otherwise the prompt's are
used, and for unannotated parameters the types seen in the base inputs. An
input is valid when it has the right arity, every argument matches its type,
and ``pre`` returns True. Without a contract file, an input must also keep what the
base inputs take for granted (:mod:`evalplus_ng.generate.premises`).
"""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evalplus_ng import typespec
from evalplus_ng.errors import InputError
from evalplus_ng.generate import admit
from evalplus_ng.generate.premises import Premise, infer_premises, premise_violation
from evalplus_ng.records import Task
from evalplus_ng.tasks.spec import file_stem
from evalplus_ng.types import Args
from evalplus_ng.typespec import Spec


def contract_file(folder: Path, task_id: str) -> Path:
    """Where a task's contract lives."""
    return folder / f"{file_stem(task_id)}.py"


def _function(tree: ast.Module, name: str) -> ast.FunctionDef | None:
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return node
    return None


def _parameters(function: ast.FunctionDef) -> list[ast.arg]:
    return [*function.args.posonlyargs, *function.args.args]


@dataclass(frozen=True)
class Contract:
    """What a valid input of one task is."""

    task_id: str
    names: tuple[str, ...]
    specs: tuple[Spec, ...]
    source: str = ""
    pre: Callable[..., Any] | None = field(default=None, compare=False)
    #: The specs as the base inputs show them, before the prompt's words widened them
    #: (:mod:`evalplus_ng.generate.admit`); None: the same as ``specs``. Hypothesis draws from
    #: these (a random tuple of any length seldom passes a task's asserts).
    shown: tuple[Spec, ...] | None = None
    #: What the base inputs take for granted (:mod:`evalplus_ng.generate.premises`): kept by an
    #: inferred contract, empty where a contract file is written.
    premises: tuple[Premise, ...] = ()
    #: A contract file says what is valid: no premises, and every valid input is like
    #: the base tests (:mod:`evalplus_ng.generate.likeness` applies to inferred contracts only).
    written: bool = False
    #: ``typespec.predicate`` of each spec, in parameter order.
    checks: tuple[typespec.Check, ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "checks", tuple(map(typespec.predicate, self.specs)))

    def type_violation(self, position: int, value: Any) -> str | None:
        """None when ``value`` matches the spec of parameter ``position``, else why not."""
        if self.checks[position](value):
            return None
        return f"argument '{self.names[position]}' is not {self.specs[position]}"

    def pre_violation(self, args: Sequence[Any]) -> str | None:
        """None when the precondition and the premises hold for ``args`` (whose types are
        known good)."""
        if self.pre is not None:
            try:
                ok = self.pre(*args)
            except Exception as exc:
                return f"precondition raised {type(exc).__name__}"
            if ok is not True:
                return "precondition is false"
        return premise_violation(self.premises, args, self.names)

    def violation(self, args: Sequence[Any]) -> str | None:
        """None when ``args`` is valid, else why not (one short phrase)."""
        if len(args) != len(self.specs):
            return f"expected {len(self.specs)} arguments, got {len(args)}"
        for position, value in enumerate(args):
            reason = self.type_violation(position, value)
            if reason is not None:
                return reason
        return self.pre_violation(args)

    def valid(self, args: Sequence[Any]) -> bool:
        """True when ``args`` satisfies the contract."""
        return self.violation(args) is None


def signature_specs(
    task: Task, contract_source: str = "", allowed: Sequence[admit.Allowance] | None = None,
) -> tuple[tuple[str, ...], tuple[Spec, ...], tuple[Spec, ...]]:
    """Parameter names and specs: the contract's annotations, the prompt's, then inference
    from the base inputs, widened as ``allowed`` says (default: as far as the prompt's
    words admit, :func:`evalplus_ng.generate.admit.allowances`); and the specs before widening."""
    # MBPP's prompts hold no def: the reference's signature is then the one.
    prompt_function = (_function(ast.parse(task.prompt), task.entry_point)
                       or _function(ast.parse(task.solution), task.entry_point))
    if prompt_function is None:
        raise InputError(task.task_id, None,
                         f"neither the prompt nor the reference defines {task.entry_point}")
    parameters = _parameters(prompt_function)
    names = tuple(p.arg for p in parameters)
    contract_annotations: dict[str, ast.expr | None] = {}
    if contract_source:
        pre = _function(ast.parse(contract_source), "pre")
        if pre is not None:
            contract_annotations = {p.arg: p.annotation for p in _parameters(pre)}
    if allowed is None:
        allowed = admit.allowances(task.prompt, task.base_inputs)
    specs: list[Spec] = []
    shown: list[Spec] = []
    for position, parameter in enumerate(parameters):
        annotation = contract_annotations.get(parameter.arg) or parameter.annotation
        if annotation is not None:
            shown.append(typespec.from_annotation(annotation))
            specs.append(shown[-1])
        else:  # inferred from the base inputs, as wide as the prompt's words admit
            seen = [args[position] for args in task.base_inputs if len(args) > position]
            shown.append(typespec.infer(seen))
            specs.append(admit.widen(shown[-1], allowed[position]
                                     if position < len(allowed) else admit.NONE))
    return names, tuple(specs), tuple(shown)


def load_contract(task: Task, where: Path | None,
                  allowed: Sequence[admit.Allowance] | None = None) -> Contract:
    """The task's contract: the contract file ``where`` (or the task's file in the folder
    ``where``), else EvalPlus's ``$_CONTRACT_$`` asserts in ``task.contract`` turned into
    a precondition (:func:`precondition_from_asserts`); types only when neither exists.
    ``allowed``: how far inferred types widen (default: as the prompt admits)."""
    path = contract_file(where, task.task_id) if where is not None and where.is_dir() else where
    source = path.read_text(encoding="utf-8") if path is not None and path.is_file() else ""
    origin = str(path) if source else f"{task.task_id} (contract field)"
    try:
        names, specs, shown = signature_specs(task, source, allowed)
        if not source and CONTRACT_MARK in task.contract:
            source = precondition_from_asserts(task.contract, names, _imports(task.solution))
    except (SyntaxError, typespec.SpecError) as exc:
        raise InputError(str(path or task.task_id), getattr(exc, "lineno", None),
                         f"bad contract: {exc}") from None
    pre = None
    if source:
        namespace: dict[str, Any] = {"__name__": f"contract:{task.task_id}"}
        try:
            exec(compile(source, origin, "exec"), namespace)
        except SyntaxError as exc:
            raise InputError(origin, exc.lineno, f"bad contract: {exc.msg}") from None
        pre = namespace.get("pre")
        if pre is not None and not callable(pre):
            raise InputError(origin, None, "'pre' is not a function")
    written = path is not None and path.is_file()
    return Contract(task.task_id, names, specs, source, pre,
                    shown if shown != specs else None,
                    () if written else infer_premises(task.prompt, task.base_inputs), written)


#: The marker EvalPlus puts on each line of a task's ``contract`` field.
CONTRACT_MARK = "$_CONTRACT_$"


def _imports(solution: str) -> str:
    """The module-level imports of the reference (a contract may use what it imports)."""
    try:
        tree = ast.parse(solution)
    except SyntaxError:
        return ""
    return "".join(ast.unparse(node) + "\n" for node in tree.body
                   if isinstance(node, (ast.Import, ast.ImportFrom)))


def precondition_from_asserts(contract: str, names: Sequence[str], preamble: str = "") -> str:
    """A ``pre`` function (source) made of EvalPlus's contract lines: they run in the
    reference's body, on its parameters, after ``preamble`` (the reference's imports);
    an assertion that fails means "invalid"."""
    lines = [line for line in contract.splitlines() if CONTRACT_MARK in line]
    body = textwrap.dedent("\n".join(line.expandtabs(4) for line in lines))
    return (f"{preamble}def pre({', '.join(names)}):\n    try:\n"
            f"{textwrap.indent(body, ' ' * 8)}\n"
            "    except AssertionError:\n        return False\n    return True\n")


def violations(contract: Contract, inputs: Sequence[Args]) -> list[tuple[int, str]]:
    """(index, reason) for each input that breaks the contract."""
    found = []
    for index, args in enumerate(inputs):
        reason = contract.violation(args)
        if reason is not None:
            found.append((index, reason))
    return found
