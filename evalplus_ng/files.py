"""Files the engine writes and removes: atomic writes, folder trees of any depth, and
folders left by processes that are gone.

Writes go to a fresh temporary name beside the file.

The temporary file is made by :func:`tempfile.mkstemp` (``O_CREAT | O_EXCL |
O_NOFOLLOW``, a random name), so a symlink or file planted where a fixed ``x.tmp``
would have been is never written through, and two writers never share one; it then
replaces ``path`` in one rename, so readers see the old file or the new one, never
half of one. Files get mode 0644, as ``open`` under the usual umask gives.
"""

from __future__ import annotations

import contextlib
import errno
import itertools
import json
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from evalplus_ng.errors import InputError

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


def write_json(path: Path, document: object) -> None:
    """Replace ``path`` with ``document`` as indented JSON and a final newline."""
    write_atomically(path, json.dumps(document, indent=1) + "\n")


def probe_folder(path: Path) -> None:
    """Raise :class:`OSError` unless a file can be written in folder ``path`` or, where it
    does not exist yet, in the nearest folder above it (where it would be made), as
    :func:`write_atomically` writes one; before any work whose results go there. Leaves
    nothing behind."""
    existing = path
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(existing))
    fd, temporary = tempfile.mkstemp(dir=existing, prefix=".probe.", suffix=".tmp")
    os.close(fd)
    os.unlink(temporary)


_FOLDER = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW


def _hoist(root: int, name: str, serial: Iterator[int]) -> None:
    """Move the entries of folder ``name`` (in ``root``) up into ``root``, then remove it."""
    sub = os.open(name, _FOLDER, dir_fd=root)
    try:
        with os.scandir(sub) as entries:
            for entry in entries:
                for _attempt in range(8):  # a name the tree itself may already hold
                    with contextlib.suppress(OSError):
                        os.rename(entry.name, f".hoisted-{next(serial)}", src_dir_fd=sub,
                                  dst_dir_fd=root)
                        break
    finally:
        os.close(sub)
    os.rmdir(name, dir_fd=root)


def remove_tree(path: str | Path) -> None:
    """Remove a folder and everything in it, however deep; never raises.

    :func:`shutil.rmtree` recurses once per level, so a tree a few thousand folders
    deep (which untrusted code can build in its working folder) makes it raise
    RecursionError, and past about 2,000 levels the paths outgrow PATH_MAX. Then the
    tree is flattened instead: the entries of each subfolder move up into the top
    folder (by file descriptor, so no long path is ever formed) and the emptied
    subfolder goes, until the top folder is empty. Best effort, like
    ``rmtree(ignore_errors=True)``: what cannot be removed stays.
    """
    try:
        shutil.rmtree(path)
        return
    except FileNotFoundError:
        return
    except (OSError, RecursionError):
        pass
    serial = itertools.count()
    try:
        root = os.open(path, _FOLDER)
    except OSError:
        return
    try:
        while True:
            progress = False
            with os.scandir(root) as scan:
                entries = list(scan)
            for entry in entries:
                with contextlib.suppress(OSError):
                    if entry.is_dir(follow_symlinks=False):
                        _hoist(root, entry.name, serial)
                    else:
                        os.unlink(entry.name, dir_fd=root)
                    progress = True
            if not entries or not progress:
                break
    finally:
        os.close(root)
    with contextlib.suppress(OSError):
        os.rmdir(path)


def orphans(folder: str, pattern: re.Pattern[str]) -> list[str]:
    """The subfolders of ``folder`` whose name matches ``pattern`` and whose owner, the
    process numbered by the pattern's first group, is gone (another user's, or one whose
    number is taken again, counts as there)."""
    found: list[str] = []
    with contextlib.suppress(OSError), os.scandir(folder) as entries:
        for entry in entries:
            match = pattern.fullmatch(entry.name)
            if match is None or not entry.is_dir(follow_symlinks=False):
                continue
            try:
                os.kill(int(match.group(1)), 0)
            except ProcessLookupError:
                found.append(entry.path)
            except PermissionError:
                pass
    return found


def read_json_table(path: Path, valid: Callable[[Any], bool], expected: str) -> dict[str, Any]:
    """A JSON object of objects from ``path``: {} when there is no file; InputError (naming
    the file) when it is not JSON or ``valid`` refuses an entry (``expected`` says what
    was expected)."""
    if not path.is_file():
        return {}
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise InputError(str(path), None, f"invalid JSON: {exc}") from None
    if not isinstance(document, dict) or not all(
            isinstance(entry, dict) and valid(entry) for entry in document.values()):
        raise InputError(str(path), None, f"expected {expected}")
    return document
