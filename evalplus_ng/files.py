"""Write a file atomically, under a fresh temporary name beside it.

The temporary file is made by :func:`tempfile.mkstemp` (``O_CREAT | O_EXCL |
O_NOFOLLOW``, a random name), so a symlink or file planted where a fixed ``x.tmp``
would have been is never written through, and two writers never share one; it then
replaces ``path`` in one rename, so readers see the old file or the new one, never
half of one. Files get mode 0644, as ``open`` under the usual umask gives.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

MODE = 0o644


def write_atomically(path: Path, data: bytes | str) -> None:
    """Replace ``path`` with ``data`` (str is written as UTF-8)."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            os.fchmod(handle.fileno(), MODE)
            handle.write(payload)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
