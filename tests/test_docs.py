"""The documentation site names every module of the package on its architecture page, and
its layer map is the one tests/test_layers.py keeps; the docs pages the package's help texts
name exist.

The strict build of the site (`mkdocs build --strict`, broken links and references fail)
runs in `.ci/run`, which installs the `docs` extra; this test needs no doc tooling.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "evalplus_ng"
ARCHITECTURE = ROOT / "docs" / "explanation" / "architecture.md"


def names(path: Path, package: Path = PACKAGE) -> set[str]:
    """The ways a page may name the module at ``path`` in ``package``, each in backticks:
    its dotted name (``evalplus_ng.tasks.spec``), its path from the checkout
    (``evalplus_ng/tasks/spec.py``) or from the package (``tasks/spec.py``); a package by
    its folder (``tasks/``) too."""
    inside = path.relative_to(package)
    dotted = ".".join(["evalplus_ng", *inside.with_suffix("").parts])
    forms = {str(inside), f"evalplus_ng/{inside}", dotted}
    if path.name == "__init__.py":
        folder = inside.parent
        dotted = dotted.removesuffix(".__init__")
        forms |= {dotted, f"{folder}/", f"evalplus_ng/{folder}/"} if folder.parts else {dotted}
    return {f"`{form}`" for form in forms}


def unnamed(page: str, package: Path) -> list[str]:
    """The modules of ``package`` that ``page`` does not name, as paths inside it."""
    return [str(path.relative_to(package)) for path in sorted(package.rglob("*.py"))
            if not any(form in page for form in names(path, package))]


def test_names_cover_the_forms() -> None:
    assert "`evalplus_ng.tasks.spec`" in names(PACKAGE / "tasks" / "spec.py")
    assert "`tasks/spec.py`" in names(PACKAGE / "tasks" / "spec.py")
    assert "`sandbox/`" in names(PACKAGE / "sandbox" / "__init__.py")
    assert "`evalplus_ng.sandbox`" in names(PACKAGE / "sandbox" / "__init__.py")
    assert "`__init__.py`" in names(PACKAGE / "__init__.py")
    # a module's bare name is not enough: `spec` could be anything
    assert "`spec`" not in names(PACKAGE / "tasks" / "spec.py")


def test_a_missing_module_is_listed(tmp_path: Path) -> None:
    package = tmp_path / "evalplus_ng"
    (package / "wing").mkdir(parents=True)
    for module in ("__init__.py", "cli.py", "wing/__init__.py", "wing/stage.py"):
        (package / module).write_text("", encoding="utf-8")
    page = "`cli.py`, `wing/` and `__init__.py`"
    assert unnamed(page, package) == ["wing/stage.py"]


def test_the_architecture_page_names_every_module() -> None:
    page = ARCHITECTURE.read_text(encoding="utf-8")
    missing = unnamed(page, PACKAGE)
    assert not missing, ("modules missing from docs/explanation/architecture.md "
                         f"(add each to its wing's table): {', '.join(missing)}")


def layer_map(page: str) -> list[tuple[str, ...]]:
    """The rows of the page's layer map, highest first: each the wing (``pipeline``) or the
    modules (``judge``, ``jobs``) its second column names."""
    section = page.split("## The layer map", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|") for line in section.splitlines()
            if line.startswith("| ") and line.split("|")[1].strip().isdigit()]
    return [tuple(name.removesuffix("/").removesuffix(".py")
                  for name in re.findall(r"`([^`]+)`", row[2])) for row in rows]


def test_the_layer_map_is_the_layering_test() -> None:
    from test_layers import LAYERS

    page = ARCHITECTURE.read_text(encoding="utf-8")
    assert layer_map(page) == list(LAYERS), (
        "the layer map of docs/explanation/architecture.md differs from tests/test_layers.py")


def test_the_package_points_at_docs_pages_that_exist() -> None:
    """Help texts and messages send users to a page of the docs (the README is a short
    manual, its sections are gone): each page they name exists."""
    named: dict[str, str] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        where = str(path.relative_to(ROOT))
        assert not re.search(r"(?<!tests/)README", text), f"{where} points at the README"
        named.update({page: where for page in re.findall(r"docs/[\w/.-]+?\.md", text)})
    assert "docs/how-to/from-evalplus.md" in named  # evaluate's help names it
    missing = [f"{page} (named in {where})" for page, where in named.items()
               if not (ROOT / page).is_file()]
    assert not missing, f"no such docs page: {', '.join(missing)}"
