"""Display names and metadata of models, from the optional ``report --models FILE``.

The file is one JSON object keyed by results-file stem (what ``report`` would otherwise
call the model: ``x`` for ``x_eval_results.json``). A value is the display name, or an
object with an optional ``name`` and free metadata (``size``, ``family``, ``link``, ...):
scalars, shown as columns of their own in the order they first appear; ``link`` (an
http or https URL) is put on the model's name instead::

    {"qwen3_base": {"name": "Qwen3 base", "size": "8B", "family": "Qwen",
                    "link": "https://huggingface.co/Qwen/Qwen3-8B-Base"},
     "TheBloke_Manticore-13B-GPTQ_ALPACA_MARKDOWN": "Manticore 13B (Alpaca, markdown)"}

Pure: :func:`model_infos` checks a parsed document and names what is wrong with it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

#: The metadata key put on the model's name rather than in a column of its own.
LINK = "link"


class ModelsFormatError(ValueError):
    """A models document that is not an object of stem -> name or metadata."""


@dataclass(frozen=True)
class ModelInfo:
    """One model as the models file presents it: its display name, its metadata
    (key -> text, in the file's order) and a link (an http(s) URL) or None."""

    name: str
    metadata: Mapping[str, str] = field(default_factory=dict)
    link: str | None = None


def _text(value: Any, where: str) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str | int | float):
        return str(value)
    raise ModelsFormatError(f"{where}: a text or a number, not {type(value).__name__}")


def _info(stem: str, value: Any) -> ModelInfo:
    if isinstance(value, str):
        return ModelInfo(value or stem)
    if not isinstance(value, dict):
        raise ModelsFormatError(f"{stem}: a display name or an object of metadata, "
                                f"not {type(value).__name__}")
    name = _text(value.get("name", stem), f"{stem}.name") or stem
    link = value.get(LINK)
    if link is not None:
        link = _text(link, f"{stem}.{LINK}")
        if not link.startswith(("https://", "http://")):
            raise ModelsFormatError(f"{stem}.{LINK}: an http(s) URL, not {link!r}")
    metadata = {str(key): _text(item, f"{stem}.{key}") for key, item in value.items()
                if key not in ("name", LINK) and item is not None}
    return ModelInfo(name, metadata, link)


def model_infos(document: Any) -> dict[str, ModelInfo]:
    """Stem -> :class:`ModelInfo` of a parsed models file; :class:`ModelsFormatError`
    names the first entry that is malformed. Two stems may share a display name (one
    model's files of two benchmarks, put in one row side by side); two files of one
    benchmark and suite under one name are the report's error."""
    if not isinstance(document, dict):
        raise ModelsFormatError("not a models file: a JSON object of results-file stem -> "
                                "display name or metadata")
    return {str(stem): _info(str(stem), value) for stem, value in document.items()}


def metadata_keys(infos: Mapping[str, ModelInfo]) -> tuple[str, ...]:
    """Every metadata key, in the order it first appears."""
    return tuple(dict.fromkeys(key for info in infos.values() for key in info.metadata))
