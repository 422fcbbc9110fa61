"""Resuming a stage from its per-task checkpoints: which items are kept already and which
are still to do. Written once for the stages that checkpoint each task under a key (the
program tasks' ``augment``, their limits and their MINI), which each name, key and read
their checkpoints their own way."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol, TypeVar

Item = TypeVar("Item")
Kept = TypeVar("Kept")


class _Task(Protocol):
    @property
    def task_id(self) -> str: ...


TaskT = TypeVar("TaskT", bound=_Task)


def resume(items: Iterable[Item], name: Callable[[Item], str],
           load: Callable[[Item], Kept | None]) -> tuple[dict[str, Kept], list[Item]]:
    """``(done, todo)``: what ``load`` reads back for each item (None: absent, stale or
    unreadable), by ``name(item)``, and the items it read nothing for, both in the items'
    order."""
    done: dict[str, Kept] = {}
    todo: list[Item] = []
    for item in items:
        kept = load(item)
        if kept is None:
            todo.append(item)
        else:
            done[name(item)] = kept
    return done, todo


def resume_tasks(records: Sequence[tuple[TaskT, Any]], load: Callable[[TaskT], Kept | None],
                 progress: Callable[[int, int], None] | None = None,
                 ) -> tuple[dict[str, Kept], list[TaskT]]:
    """:func:`resume` over the tasks of ``records`` (each a task and its line, as read), by
    task id; ``progress`` hears how many of them are done already."""
    done, todo = resume([task for task, _record in records], lambda task: task.task_id, load)
    if progress is not None:
        progress(len(done), len(records))
    return done, todo
