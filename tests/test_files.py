"""Atomic writes under a fresh name (never through a planted link); trees of any depth removed."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest

from evalplus_ng.files import remove_tree, write_atomically


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


def test_a_tree_deeper_than_rmtree_can_recurse_is_removed(tmp_path: Path) -> None:
    top = tmp_path / "work"
    top.mkdir()
    outside = tmp_path / "outside.txt"
    outside.write_text("keep", encoding="utf-8")
    fd = os.open(top, os.O_RDONLY)
    current = fd
    for _ in range(3000):  # by descriptor: the whole path would outgrow PATH_MAX
        os.mkdir("d", dir_fd=current)
        deeper = os.open("d", os.O_RDONLY, dir_fd=current)
        os.close(os.open("f", os.O_WRONLY | os.O_CREAT, dir_fd=deeper))
        if current != fd:
            os.close(current)
        current = deeper
    os.symlink(outside, "link", dir_fd=current)
    os.close(current)
    os.close(fd)
    with pytest.raises(RecursionError):
        shutil.rmtree(top)  # what the supervisor used to call
    remove_tree(top)
    assert not top.exists()
    assert [p.name for p in tmp_path.iterdir()] == ["outside.txt"]
    assert outside.read_text(encoding="utf-8") == "keep"
    remove_tree(top)  # a missing tree is no error
