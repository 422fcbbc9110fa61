"""Shared test set-up: nothing a test runs writes to the user's own cache folder."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True, scope="session")
def _private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """``evaluate --suite base`` caches recovered inputs: in a test folder, not ~/.cache."""
    folder = tmp_path_factory.mktemp("cache")
    previous = os.environ.get("EVALPLUS_NG_CACHE")
    os.environ["EVALPLUS_NG_CACHE"] = str(folder)
    yield folder
    if previous is None:
        os.environ.pop("EVALPLUS_NG_CACHE", None)
    else:
        os.environ["EVALPLUS_NG_CACHE"] = previous


@pytest.fixture(autouse=True)
def _own_working_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test runs in a folder of its own: ``evaluate``'s default suite (``auto``) and
    the default output folder ``evalplus-ng-out`` are relative to the working folder, so
    a suite the user made in the project's folder must not change what a test judges."""
    monkeypatch.chdir(tmp_path)


@pytest.fixture(params=["bubblewrap", "namespaces"])
def jail(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each jail mode in turn, set for the sandboxes the test starts (bubblewrap is
    skipped where it is missing or cannot make a jail)."""
    from evalplus_ng.sandbox.jail import MODE_VARIABLE, Mode, mode

    chosen = Mode(request.param)
    if chosen is Mode.BUBBLEWRAP and mode() is not Mode.BUBBLEWRAP:
        pytest.skip("bubblewrap is missing or cannot make a jail here")
    monkeypatch.setenv(MODE_VARIABLE, chosen.value)
    return chosen.value
