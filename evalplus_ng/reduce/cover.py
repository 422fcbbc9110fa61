"""Branch coverage requirement: the branch arcs of the fixed ground truth each input executes.

The ground truth is our own trusted code, so it runs in this process under one
``coverage.Coverage`` (branch mode) with a dynamic context per input: switching
contexts costs far less than a fresh measurement per input.
"""

from __future__ import annotations

import copy
import os
import tempfile
from collections.abc import Sequence
from typing import Any

from evalplus_ng.types import Args

#: A branch taken: (line of the branch, line it went to; negative = left the function).
Arc = tuple[int, int]


def branch_lines(source: str) -> set[int]:
    """Lines of ``source`` with more than one way out (if, while, for, ...)."""
    # coverage.py is imported where it is used: commands that never measure (evaluate,
    # report) do not pay for it.
    from coverage.parser import PythonParser

    parser = PythonParser(text=source)
    parser.parse_source()
    return {line for line, exits in parser.exit_counts().items() if exits > 1}


def branch_arcs(source: str, entry_point: str, inputs: Sequence[Args]) -> list[frozenset[Arc]]:
    """For each input, the branch arcs ``entry_point`` of ``source`` executes on it.

    Inputs on which the code raises still count what ran before the raise. The
    arguments are deep-copied first: the code may mutate them.
    """
    import coverage

    branches = branch_lines(source)
    with tempfile.TemporaryDirectory(prefix="evalplus-ng-cover-") as folder:
        path = os.path.join(folder, "ground_truth.py")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(source)
        namespace: dict[str, Any] = {"__name__": "__ground_truth__"}
        measure = coverage.Coverage(data_file=None, branch=True, include=[path],
                                    config_file=False)
        labels = [f"input-{index}" for index in range(len(inputs))]
        measure.start()
        try:
            exec(compile(source, path, "exec"), namespace)
            function = namespace[entry_point]
            for label, args in zip(labels, inputs, strict=True):
                call = copy.deepcopy(list(args))
                measure.switch_context(label)
                try:
                    function(*call)
                except Exception:
                    continue
        finally:
            measure.stop()
        data = measure.get_data()
        arcs: list[frozenset[Arc]] = []
        for label in labels:
            data.set_query_context(label)
            executed = data.arcs(path) or []
            arcs.append(frozenset((a, b) for a, b in executed if a in branches))
    return arcs
