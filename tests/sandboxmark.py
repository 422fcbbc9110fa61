"""A test's marker on every process its sandboxes start, for test_sandbox._leftovers.

The sandbox gives the processes it starts an environment of its own (an allow-list:
:mod:`evalplus_ng.sandbox.environ`), so a variable the test sets does not reach them.
While :data:`MARK` is set, :func:`marking` adds it to that environment: in the test's own
process through ``monkeypatch`` (test_sandbox.tag), in a process the test starts (a tool
run as a command, Ray's workers) through ``sitemark/sitecustomize.py``, which
:func:`variables` puts on its ``PYTHONPATH``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

#: The variable that carries a test's marker.
MARK = "EVALPLUS_NG_SANDBOX_TEST_MARK"
_HERE = Path(__file__).parent

Environment = Callable[..., dict[str, str]]


def marking(made: Environment) -> Environment:
    """``made`` (:func:`evalplus_ng.sandbox.environ.child_environment`), plus the marker
    this process holds when it holds one."""

    def child_environment(*args: object) -> dict[str, str]:
        env = made(*args)
        if MARK in os.environ:
            env[MARK] = os.environ[MARK]
        return env

    return child_environment


def install() -> None:
    """Mark the sandboxes this whole process starts (``sitecustomize``)."""
    from evalplus_ng.sandbox import environ

    environ.child_environment = marking(environ.child_environment)  # type: ignore[assignment]


def variables(marker: str) -> dict[str, str]:
    """What a process the test starts needs in its environment to mark its sandboxes
    with ``marker``."""
    path = [str(_HERE / "sitemark"), str(_HERE), os.environ.get("PYTHONPATH", "")]
    return {MARK: marker, "PYTHONPATH": os.pathsep.join(p for p in path if p)}
