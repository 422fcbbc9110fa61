"""Shared test set-up: nothing a test runs writes to the user's own cache folder; the
program-task tests' one-worker sandbox."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from evalplus_ng.sandbox import Sandbox


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


@pytest.fixture(scope="module")
def program_sandbox() -> Iterator[Sandbox]:
    """One sandbox worker for a module of program-task tests
    (:func:`programfixtures.program_sandbox`), tagged with a marker of its own."""
    import uuid

    from programfixtures import program_sandbox as made

    with made(uuid.uuid4().hex) as box:
        yield box


@pytest.fixture(params=["bubblewrap", "namespaces"])
def jail(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each jail mode in turn, set for the sandboxes the test starts (skipped where the
    machine cannot make it, and where ``EVALPLUS_NG_JAIL`` names another mode: CI runs
    the sandbox's tests a second time with it set to ``namespaces``)."""
    from evalplus_ng.sandbox.jail import MODE_VARIABLE, Mode, _bubblewrap, namespaces_problem

    chosen = Mode(request.param)
    named = os.environ.get(MODE_VARIABLE)
    if named and named != chosen.value:
        pytest.skip(f"this run is for {MODE_VARIABLE}={named}")
    if chosen is Mode.BUBBLEWRAP and _bubblewrap() is None:
        pytest.skip("bubblewrap is missing or cannot make a jail here")
    if chosen is Mode.NAMESPACES and (problem := namespaces_problem()) is not None:
        pytest.skip(f"the kernel refuses the namespaces jail here: {problem}")
    monkeypatch.setenv(MODE_VARIABLE, chosen.value)
    return chosen.value


@pytest.fixture
def chromium(tmp_path: Path) -> Callable[..., str]:
    """Headless Chromium as a function: ``chromium(url, *flags)`` -> its stdout (with
    ``--dump-dom``: the DOM after the page's scripts ran). Skipped where it is missing
    (Debian's chromium package), a failure under ``CI`` (.ci/run installs it)."""
    browser = next((found for name in ("chromium", "chromium-browser", "google-chrome")
                    if (found := shutil.which(name))), None)
    if browser is None:
        if os.environ.get("CI"):
            pytest.fail("no headless Chromium: .ci/run installs Debian's chromium package")
        pytest.skip("no Chromium here (Debian's chromium package; .ci/run installs it)")

    def run(url: str, *flags: str) -> str:
        done = subprocess.run(
            [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
             "--no-first-run", "--disable-background-networking", "--disable-component-update",
             "--disable-sync", f"--user-data-dir={tmp_path / 'chromium-profile'}", *flags, url],
            check=True, timeout=120, capture_output=True, text=True)
        return done.stdout

    return run


@pytest.fixture
def evaluate_requests(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """``evaluate`` stops once its request is made, judging nothing: the requests made."""
    from evalplus_ng import cli

    made: list[Any] = []

    def stop(request: Any, *_args: Any, **_kwargs: Any) -> None:
        made.append(request)
        sys.exit(0)

    monkeypatch.setattr(cli, "run_evaluate", stop)
    return made
