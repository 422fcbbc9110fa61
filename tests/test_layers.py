"""The package's architecture, kept by a test: wings in layers, imports only downward.

Like import-linter's "layers" contract: a module may import modules of its own wing and
of any layer below; never a layer above, never a sibling of its own layer; and no import
cycle anywhere. Every import counts, the ones inside functions and under
``TYPE_CHECKING`` too (a lazy import is still a dependency). A new module must be given
a place here, which is the point: the layers are the map a newcomer reads first.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "evalplus_ng"

#: Highest first. A wing is a subpackage; a foundation layer lists top-level modules that
#: must not import each other.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("cli",),  # parses flags, calls the pipeline
    ("fireforms", "meter"),  # the command line's: evalplus's (fire's) forms, progress lines
    # one call per command: augment, evaluate, audit, calibrate, report (programs/: the
    # same commands on program tasks, and their augment chain)
    ("pipeline",),
    ("report",),  # what results say, as Markdown and HTML
    ("reduce",),  # MINI: requirement kinds, set cover, profiles (programs/: of program tasks)
    ("evaluation",),  # samples judged against a suite; why a verdict failed
    # the ground truth: outputs, tiers, time limits, defects, jury (programs/: the
    # reference's answers on program tasks, their time limits and defects)
    ("oracle",),
    # seeds, contracts, mutation, bounds and likeness of new inputs (programs/: the stdin
    # input planner of program tasks, and their LLM generators)
    ("generate",),
    ("backend",),  # where sandbox jobs run: the local pool or Ray
    ("tasks",),  # datasets, tasks files, samples files, artifacts: no stage
    ("sandbox",),  # untrusted code runs here only
    ("judge", "jobs", "protocols", "seal", "pools", "typespec"),
    # a program's stdout compared as a contest judge does; a task's checker program's protocol
    ("textjudge", "checker"),
    ("serialize", "records"),
    ("types", "files", "resources"),
    ("errors",),
)


def module_name(path: Path, root: Path) -> str:
    """``evalplus_ng.tasks.spec`` for ``<root>/tasks/spec.py``."""
    parts = [root.name, *path.relative_to(root).with_suffix("").parts]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(root: Path) -> dict[str, Path]:
    """Every module of the package at ``root``, by dotted name."""
    return {module_name(path, root): path for path in sorted(root.rglob("*.py"))}


def imports_of(name: str, path: Path, known: Mapping[str, Path]) -> Iterator[tuple[int, str]]:
    """(line, module) for each import of one of ``known`` in the module ``name``."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in known:
                    yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([node.module] if node.module else [])])
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                if submodule in known:
                    yield node.lineno, submodule
                elif base in known:
                    yield node.lineno, base


def place(name: str, layers: Sequence[Sequence[str]]) -> tuple[int, str] | None:
    """(layer index, the wing or module it belongs to) of a dotted module name."""
    parts = name.split(".")
    if len(parts) < 2:
        return None  # the package itself: lazy names only
    for index, members in enumerate(layers):
        if parts[1] in members:
            return index, parts[1]
    raise AssertionError(f"{name} has no layer in tests/test_layers.py: give it one")


def violations(root: Path, layers: Sequence[Sequence[str]]) -> list[str]:
    """Each import that goes up a layer or across a layer, as ``path:line: a -> b``."""
    known = modules(root)
    found = []
    for name, path in known.items():
        here = place(name, layers)
        if here is None:
            continue
        for line, imported in imports_of(name, path, known):
            there = place(imported, layers)
            if there is None or there[1] == here[1]:
                continue
            if there[0] <= here[0]:
                where = "up" if there[0] < here[0] else "across"
                found.append(f"{path.relative_to(root.parent)}:{line}: {name} -> {imported} "
                             f"({where})")
    return found


def cycles(root: Path) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan's algorithm)."""
    known = modules(root)
    edges = {name: sorted({m for _, m in imports_of(name, path, known) if m != name})
             for name, path in known.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in edges[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for name in sorted(edges):
        if name not in index:
            visit(name)
    return groups


def test_imports_go_only_down_the_layers() -> None:
    assert violations(PACKAGE, LAYERS) == []


def test_no_import_cycle() -> None:
    assert cycles(PACKAGE) == []


def test_every_module_has_a_layer() -> None:
    for name in modules(PACKAGE):
        place(name, LAYERS)


def test_the_cli_reaches_program_tasks_through_their_chain_alone() -> None:
    """Program tasks have one door from the command line: their pipeline's chain (and the
    defaults its help shows, kept in the sub-package itself so that it need not import the
    chain)."""
    known = modules(PACKAGE)
    reached = {module for _line, module in imports_of("evalplus_ng.cli", known["evalplus_ng.cli"],
                                                      known) if "program" in module}
    assert reached == {"evalplus_ng.pipeline.programs.chain", "evalplus_ng.pipeline.programs"}


def _package(tmp_path: Path, files: Mapping[str, str]) -> Path:
    root = tmp_path / "pkg"
    for relative, text in {"__init__.py": "", **files}.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def test_the_checks_find_an_upward_import_a_sibling_import_and_a_cycle(tmp_path: Path) -> None:
    root = _package(tmp_path, {
        "low/__init__.py": "",
        "low/a.py": "def f():\n    from pkg.high import b\n",  # lazy, still upward
        "high/__init__.py": "",
        "high/b.py": "from pkg.low import a\n",
        "left.py": "from . import right\n",
        "right.py": "import pkg.left\n",
    })
    layers = (("high",), ("left", "right"), ("low",))
    found = violations(root, layers)
    assert found == ["pkg/left.py:1: pkg.left -> pkg.right (across)",
                     "pkg/low/a.py:2: pkg.low.a -> pkg.high.b (up)",
                     "pkg/right.py:1: pkg.right -> pkg.left (across)"]
    assert sorted(map(sorted, cycles(root))) == [["pkg.high.b", "pkg.low.a"],
                                                  ["pkg.left", "pkg.right"]]
    with pytest.raises(AssertionError, match="no layer"):
        violations(root, (("high",), ("low",)))
