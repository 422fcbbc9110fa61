"""Results this tool wrote: a keyed MAC (HMAC-SHA256) under a secret of the user's.

A results file says what judged it (the suite's digest, the settings), and all of that
is public: anyone can write a file with the right record and any verdicts. ``--resume``
therefore reuses only a file that carries a MAC made with the user's secret, which is
made on first use (32 random bytes, mode 0600, in a 0700 folder of evalplus-ng's cache)
and hidden from samples by every jail (:func:`evalplus_ng.sandbox.rootfs.answer_keys`).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from evalplus_ng.errors import InputError

#: The field of a results document's ``evalplus_ng`` record that holds its MAC.
FIELD = "mac"
_PREFIX = "hmac-sha256:"
_SECRET_BYTES = 32


def secret_folder(cache: Path) -> Path:
    """Where the secret lives in evalplus-ng's cache folder ``cache``."""
    return cache / "secret"


def user_secret(cache: Path) -> bytes:
    """The user's secret in ``cache`` (see :func:`secret_folder`), made now if there is
    none. Made under a temporary name and linked into place, so that two runs starting
    together agree on one secret; a file of the wrong size is an error."""
    folder = secret_folder(cache)
    path = folder / "results.key"
    if not path.exists():
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=folder, prefix=".key-")  # mode 0600
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(os.urandom(_SECRET_BYTES))
            with contextlib.suppress(FileExistsError):  # another run made it first
                os.link(temporary, path)
        finally:
            os.unlink(temporary)
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
    with os.fdopen(os.open(path, flags), "rb") as handle:
        secret = handle.read(_SECRET_BYTES + 1)
    if len(secret) != _SECRET_BYTES:
        raise InputError(str(path), None, f"expected {_SECRET_BYTES} bytes of secret, found "
                         f"{len(secret)}; remove the file to make a new one")
    return secret


def _mac(document: dict[str, Any], secret: bytes) -> str:
    """The MAC of ``document`` without its own MAC field (canonical JSON: sorted keys)."""
    record = dict(document.get("evalplus_ng") or {})
    record.pop(FIELD, None)
    text = json.dumps({**document, "evalplus_ng": record}, sort_keys=True,
                      separators=(",", ":"), ensure_ascii=True)
    return _PREFIX + hmac.new(secret, text.encode("ascii"), hashlib.sha256).hexdigest()


def sealed(document: dict[str, Any], secret: bytes) -> dict[str, Any]:
    """``document`` (a results document with an ``evalplus_ng`` record) with its MAC."""
    record = dict(document["evalplus_ng"])
    record[FIELD] = _mac(document, secret)
    return {**document, "evalplus_ng": record}


def genuine(document: Any, secret: bytes) -> bool:
    """Whether ``document`` carries the MAC that :func:`sealed` gives it under ``secret``."""
    if not isinstance(document, dict) or not isinstance(document.get("evalplus_ng"), dict):
        return False
    claimed = document["evalplus_ng"].get(FIELD)
    return isinstance(claimed, str) and hmac.compare_digest(claimed, _mac(document, secret))
