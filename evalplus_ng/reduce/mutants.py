"""Mutants of the fixed ground truth, made with mutmut's own mutation operators.

mutmut (pinned to 3.8.1 in setup.cfg) has no public "mutants of this source"
call: its ``create_mutations`` wants a mutmut config in the working folder.
We drive the same pieces it uses (libcst metadata, its pragma visitor, its
``MutationVisitor`` over ``mutation_operators``, its one-occurrence
``deep_replace``) directly, so no config, ``mutants/`` folder or pytest run is
needed. These internals move between 3.x releases; ``tests/test_mutants.py``
pins the layout.

Mutants are untrusted code: they are only ever run through the sandbox.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass


@dataclass(frozen=True)
class Mutant:
    """One mutant: ``code`` is the whole mutated source; ``line`` where the change is."""

    number: int
    line: int
    code: str


def mutant_sources(source: str) -> list[Mutant]:
    """Every mutant mutmut's operators make of the functions in ``source``, in source order.

    Only mutations inside a function count (module-level code is setup, not
    behaviour); mutants that do not compile, or that equal the original or an
    earlier mutant textually (after normalising with ``ast``), are dropped.
    """
    import libcst as cst
    from libcst.metadata import MetadataWrapper, PositionProvider
    from mutmut.mutation.file_mutation import MutationVisitor, deep_replace
    from mutmut.mutation.mutators import mutation_operators
    from mutmut.mutation.pragma_handling import IgnoredCode, PragmaVisitor

    module = cst.parse_module(source)
    wrapper = MetadataWrapper(module)
    pragmas = PragmaVisitor("ground_truth.py")
    wrapper.visit(pragmas)
    # Pattern-based exclusions read mutmut's config file; we have none.
    ignored = IgnoredCode(no_mutate_lines=pragmas.no_mutate_lines,
                          ignore_node_lines=pragmas.ignore_node_lines,
                          ignore_pattern_lines=set())
    visitor = MutationVisitor(mutation_operators, ignored)
    wrapper.visit(visitor)
    positions = wrapper.resolve(PositionProvider)
    seen = {_normal(source)}
    mutants: list[Mutant] = []
    for mutation in visitor.mutations:
        if mutation.contained_by_top_level_function is None:
            continue
        mutated = deep_replace(wrapper.module, mutation.original_node, mutation.mutated_node)
        if not isinstance(mutated, cst.Module):
            continue
        code = mutated.code
        normal = _normal(code)
        if normal is None or normal in seen:
            continue
        seen.add(normal)
        position = positions.get(mutation.original_node)
        line = position.start.line if position is not None else 0
        mutants.append(Mutant(len(mutants), line, code))
    return mutants


def _normal(code: str) -> str | None:
    """A layout-free form of ``code`` (None when it does not compile)."""
    try:
        tree = ast.parse(code)
        compile(tree, "<mutant>", "exec")
    except (SyntaxError, ValueError):
        return None
    return ast.dump(tree)
