"""Domain aliases shared across stages (the protocols are in :mod:`evalplus_ng.protocols`)."""

from __future__ import annotations

from typing import Any, TypeAlias

TaskId: TypeAlias = str
#: One call's positional arguments, as plain Python values.
Args: TypeAlias = list[Any]
#: A JSON-compatible tree produced by :mod:`evalplus_ng.serialize`.
Wire: TypeAlias = Any
