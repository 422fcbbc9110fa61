"""The seal of results files: a per-user secret made once, and MACs that only it makes."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from evalplus_ng.errors import InputError
from evalplus_ng.seal import FIELD, genuine, sealed, secret_folder, user_secret


def test_the_secret_is_made_once_private_and_kept(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = user_secret(cache)
    assert len(first) == 32 and user_secret(cache) == first
    folder = secret_folder(cache)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert [p.name for p in folder.iterdir()] == ["results.key"]  # no temporary left
    assert stat.S_IMODE((folder / "results.key").stat().st_mode) == 0o600
    assert user_secret(tmp_path / "other") != first


def test_a_secret_of_the_wrong_size_is_a_one_line_error(tmp_path: Path) -> None:
    user_secret(tmp_path)
    (secret_folder(tmp_path) / "results.key").write_bytes(b"short")
    with pytest.raises(InputError, match=r"results\.key.*expected 32 bytes of secret, found 5"):
        user_secret(tmp_path)


def test_a_sealed_document_survives_the_file_and_nothing_else_passes() -> None:
    secret = b"s" * 32
    document = {"hash": "h", "evalplus_ng": {"hash": "h", "suite": "base"},
                "eval": {"T/1": [{"solution": "é\udc80", "base_status": "pass",
                                  "base_fail_tests": [[1.5, float("nan"), 10**30]]}]}}
    seal = sealed(document, secret)
    assert FIELD not in document["evalplus_ng"]
    written = json.loads(json.dumps(seal, indent=1))
    assert genuine(written, secret)
    assert not genuine(written, b"t" * 32)
    assert not genuine(document, secret)
    written["eval"]["T/1"][0]["base_status"] = "fail"
    assert not genuine(written, secret)
    for junk in (None, [], {"evalplus_ng": []}, {"evalplus_ng": {FIELD: 3}}):
        assert not genuine(junk, secret)
