"""Atomic writes under a fresh name: never through a planted link, nothing left behind."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from evalplus_ng.files import write_atomically


def test_a_link_planted_at_a_temporary_name_is_never_written_through(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious", encoding="utf-8")
    target = tmp_path / "results.json"
    # Where the old writers put their temporary file, and where a link at the target is.
    (tmp_path / "results.json.tmp").symlink_to(victim)
    (tmp_path / ".results.json.tmp").symlink_to(victim)
    write_atomically(target, '{"ok": true}\n')
    assert victim.read_text(encoding="utf-8") == "precious"
    assert target.read_text(encoding="utf-8") == '{"ok": true}\n'
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o644
    # A link planted at the target itself is replaced, not followed.
    target.unlink()
    target.symlink_to(victim)
    write_atomically(target, b"new")
    assert not target.is_symlink() and target.read_bytes() == b"new"
    assert victim.read_text(encoding="utf-8") == "precious"
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        ".results.json.tmp", "results.json", "results.json.tmp", "victim.txt"]


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    target.write_text("old", encoding="utf-8")

    class Broken(str):
        def encode(self, *args: object, **kwargs: object) -> bytes:
            raise RuntimeError("disk full")

    with pytest.raises(RuntimeError):
        write_atomically(target, Broken("x"))
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]
