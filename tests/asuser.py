"""Running as an ordinary user (uid 65534) from a root test run: a folder that user may
enter, the Python it can run with evalplus_ng, and the run itself."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from evalplus_ng.sandbox.environ import package_home

#: The ordinary user's uid (nobody's).
UID = 65534


@dataclass(frozen=True)
class User:
    """An ordinary user's folder (its working folder, removed afterwards), the command
    that starts its Python and the environment that finds evalplus_ng."""

    folder: Path
    python: list[str]
    env: dict[str, str]
    uid: int = UID

    def run(self, args: Sequence[str], env: Mapping[str, str] | None = None,
            timeout: float = 300) -> subprocess.CompletedProcess[str]:
        """``python *args`` as this user in its folder, with ``env`` added."""
        return subprocess.run([*self.python, *args], env={**self.env, **(env or {})},
                              cwd=self.folder, user=self.uid, group=self.uid,
                              extra_groups=[], capture_output=True, text=True,
                              timeout=timeout)


def _runner_for(uid: int, folder: Path) -> tuple[list[str], dict[str, str]] | None:
    """A Python 3.11 that ``uid`` can run with evalplus_ng and pyseccomp importable (this
    one, or the system's with this environment's packages on PYTHONPATH); None."""
    import pyseccomp

    path = os.pathsep.join([package_home(), os.path.dirname(pyseccomp.__file__)])
    env = {"PATH": "/usr/bin:/bin", "HOME": str(folder), "PYTHONPATH": path}
    probe = ("import sys; assert sys.version_info[:2] == (3, 11); "
             "import evalplus_ng.sandbox.pool, pyseccomp")
    for python in (sys.executable, "/usr/bin/python3.11", shutil.which("python3.11")):
        if python is None:
            continue
        try:
            done = subprocess.run([python, "-c", probe], env=env, cwd=folder, user=uid,
                                  group=uid, extra_groups=[], capture_output=True, timeout=60)
        except OSError:
            continue
        if done.returncode == 0:
            return [python], env
    return None


@contextmanager
def ordinary_user() -> Iterator[User]:
    """A :class:`User` (the test is skipped where no Python it may run is found)."""
    folder = Path(tempfile.mkdtemp(prefix="evalplus-ng-user-"))
    try:
        folder.chmod(0o755)
        runner = _runner_for(UID, folder)
        if runner is None:
            pytest.skip(f"no Python 3.11 with evalplus_ng that uid {UID} can run here")
        yield User(folder, *runner)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
