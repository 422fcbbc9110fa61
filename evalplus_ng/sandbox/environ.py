"""The environment of every process the sandbox starts: an allow-list, never the caller's.

A supervisor, its zygote and every child (a function's sample or a whole program) see
only the variables named in :data:`NAMES`, with the values set here: what Python and the
sandbox need, nothing of the shell that started evalplus-ng (no ``HOME``, no API key or
token, no proxy). The sanitizer's workers (:mod:`.bounded`) and the probes get the same.
A child's ``TMPDIR`` is its own working folder, set by :func:`.jail.confine`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

from evalplus_ng.sandbox.rootfs import inside, python_folders

#: ``PATH``: the system's own folders, never the caller's.
PATH = "/usr/local/bin:/usr/bin:/bin"
#: ``LANG`` and ``LC_ALL``: one locale everywhere, so text and its encoding (UTF-8) are
#: the same for a sample on every machine.
LOCALE = "C.UTF-8"
#: ``PYTHONHASHSEED`` of every supervisor (its children inherit it): code whose answer
#: depends on the order of a set of strings gets the same answer, and the same verdict,
#: in every run and on every worker or node.
HASH_SEED = "0"
#: What each numeric library may start: one thread (a child may not start any).
THREADS = "1"
#: Every variable a process started by the sandbox gets; no other.
NAMES = ("LANG", "LC_ALL", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "PATH",
         "PYTHONHASHSEED", "PYTHONPATH")


def package_home() -> str:
    """The folder that holds the evalplus_ng package (a checkout, or site-packages)."""
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def child_environment(parent_env: Mapping[str, str], home: str,
                      shown: Iterable[str]) -> dict[str, str]:
    """The environment of a process the sandbox starts, whatever ``parent_env`` holds:
    the fixed values of :data:`NAMES`, and a ``PYTHONPATH`` of ``home`` (where
    evalplus_ng is) followed by those of the parent's entries that lie in ``shown`` (the
    folders a jail shows for Python: a package such as the seccomp binding may be found
    through ``PYTHONPATH``). Nothing else of ``parent_env`` passes."""
    folders = [os.path.realpath(f) for f in shown]
    entries = [entry for entry in parent_env.get("PYTHONPATH", "").split(os.pathsep)
               if entry and inside(os.path.realpath(entry), folders)]
    return {"LANG": LOCALE, "LC_ALL": LOCALE, "OMP_NUM_THREADS": THREADS,
            "OPENBLAS_NUM_THREADS": THREADS, "PATH": PATH, "PYTHONHASHSEED": HASH_SEED,
            "PYTHONPATH": os.pathsep.join(dict.fromkeys([home, *entries]))}


def sandbox_environment() -> dict[str, str]:
    """:func:`child_environment` for a process started from this one."""
    return child_environment(os.environ, package_home(), python_folders())
