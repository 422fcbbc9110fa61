"""Running as an ordinary user (uid 65534) from a root test run: a folder that user may
enter, the Python it can run with evalplus_ng, and the run itself."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from test_jail import _runner_for

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
