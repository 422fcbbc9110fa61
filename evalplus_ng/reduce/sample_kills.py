"""Sample-kill requirement: LLM samples some test fails, with leave-one-model-out.

A samples folder holds one ``*.jsonl`` file per model and prompt template;
:func:`evalplus_ng.tasks.samples.model_of` tells which files share a model. When a reduced
suite judges a model, that model's own samples must not have chosen its tests, so each sample
kill is a goal only for the other models.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from evalplus_ng.records import Sample
from evalplus_ng.reduce.kills import KillRow
from evalplus_ng.tasks.samples import model_of
from evalplus_ng.types import TaskId


@dataclass(frozen=True)
class Candidate:
    """One distinct piece of code answering a task, and the models that wrote it."""

    task_id: TaskId
    code: str
    models: frozenset[str]


@dataclass(frozen=True)
class Answer:
    """One sample as written: its file's model and its candidate (index into the task's list)."""

    model: str
    file_name: str
    task_id: TaskId
    candidate: int


def candidates(found: Sequence[tuple[str, Sample]]
               ) -> tuple[dict[TaskId, list[Candidate]], list[Answer]]:
    """Distinct code per task (in first-seen order) and every sample as an answer."""
    index: dict[tuple[TaskId, str], int] = {}
    models: dict[TaskId, list[set[str]]] = {}
    codes: dict[TaskId, list[str]] = {}
    answers: list[Answer] = []
    for file_name, sample in found:
        model = model_of(file_name)
        key = (sample.task_id, sample.code)
        if key not in index:
            index[key] = len(codes.setdefault(sample.task_id, []))
            codes[sample.task_id].append(sample.code)
            models.setdefault(sample.task_id, []).append(set())
        position = index[key]
        models[sample.task_id][position].add(model)
        answers.append(Answer(model, file_name, sample.task_id, position))
    table = {
        task_id: [Candidate(task_id, code, frozenset(who))
                  for code, who in zip(codes[task_id], models[task_id], strict=True)]
        for task_id in codes
    }
    return table, answers


def kill_matrix(rows: Sequence[KillRow], authors: Sequence[frozenset[str]],
                held_out: str | None = None) -> dict[int, set[int]]:
    """Test -> candidates it kills, counting those some model besides ``held_out`` wrote.

    With ``held_out`` None every candidate counts (the published MINI suite).
    """
    matrix: dict[int, set[int]] = {}
    for number, (row, who) in enumerate(zip(rows, authors, strict=True)):
        if held_out is not None and who <= {held_out}:
            continue
        for test in row.killers:
            matrix.setdefault(test, set()).add(number)
    return matrix


def invert(rows: Sequence[KillRow]) -> dict[int, set[int]]:
    """Test -> rows (candidates, mutants) it kills."""
    matrix: dict[int, set[int]] = {}
    for number, row in enumerate(rows):
        for test in row.killers:
            matrix.setdefault(test, set()).add(number)
    return matrix


def models_in(answers: Sequence[Answer]) -> list[str]:
    """The models of a samples folder, sorted."""
    return sorted({answer.model for answer in answers})


def per_model(answers: Sequence[Answer]) -> Mapping[str, list[Answer]]:
    """Answers grouped by model, in file order."""
    grouped: dict[str, list[Answer]] = {}
    for answer in answers:
        grouped.setdefault(answer.model, []).append(answer)
    return grouped
