"""Find the project's data folders (datasets/, contracts/, seeds/, reducers/).

Installed, they ship inside the distribution as ``evalplus_ng.<name>``
(see ``package_dir`` in setup.cfg); in a source checkout they sit beside the
package. Either way the caller never needs the checkout.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from evalplus_ng.errors import EvalplusError

DATA_FOLDERS = ("datasets", "contracts", "seeds", "reducers")


def data_dir(name: str) -> Path:
    """The folder holding one kind of data, installed or in the checkout."""
    if name not in DATA_FOLDERS:
        raise ValueError(f"unknown data folder {name!r}")
    package = Path(__file__).resolve().parent
    for candidate in (package / name, package.parent / name):
        if candidate.is_dir():
            return candidate
    raise EvalplusError(f"data folder '{name}' not found beside {package}: broken installation")


def dataset_definition(name: str) -> dict[str, Any]:
    """The JSON definition of a dataset (``datasets/<name>/dataset.json``)."""
    path = data_dir("datasets") / name / "dataset.json"
    if not path.is_file():
        raise EvalplusError(f"unknown dataset {name!r} (no {path})")
    definition: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return definition
