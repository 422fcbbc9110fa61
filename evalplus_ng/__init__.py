"""evalplus-ng: rigorous test suites for code-generation benchmarks.

The public surface is small: load tasks, run code in the sandbox, calibrate time
limits, judge samples.
Everything else is internal and may change. Names load lazily so that sandbox
processes, which import only what they run, start fast.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "Calibration": "evalplus_ng.records",
    "EvalConfig": "evalplus_ng.evaluation.verdicts",
    "EvalplusError": "evalplus_ng.errors",
    "EvaluateRequest": "evalplus_ng.pipeline.evaluate",
    "InputError": "evalplus_ng.errors",
    "Job": "evalplus_ng.records",
    "JobResult": "evalplus_ng.records",
    "Limits": "evalplus_ng.sandbox",
    "Outcome": "evalplus_ng.records",
    "Sample": "evalplus_ng.records",
    "SampleResult": "evalplus_ng.evaluation.verdicts",
    "Sandbox": "evalplus_ng.sandbox",
    "Status": "evalplus_ng.records",
    "Task": "evalplus_ng.records",
    "UnknownTaskError": "evalplus_ng.errors",
    "Workspace": "evalplus_ng.pipeline.context",
    "Verdict": "evalplus_ng.records",
    "check_output": "evalplus_ng.judge",
    "load_humaneval": "evalplus_ng.tasks.registry",
    "load_plus_file": "evalplus_ng.tasks.plusfile",
    "pass_at_k": "evalplus_ng.evaluation.verdicts",
    "run_calibrate": "evalplus_ng.pipeline.calibrate",
    "run_evaluate": "evalplus_ng.pipeline.evaluate",
    "sanitize": "evalplus_ng.tasks.sanitize",
}
_RENAMED = {"check_output": "check"}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'evalplus_ng' has no attribute {name!r}")
    return getattr(importlib.import_module(module), _RENAMED.get(name, name))


def __dir__() -> list[str]:
    return __all__
