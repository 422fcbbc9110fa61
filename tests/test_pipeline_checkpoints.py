"""Resuming from per-task checkpoints (:func:`evalplus_ng.pipeline.checkpoints.resume`)."""

from __future__ import annotations

from evalplus_ng.pipeline.checkpoints import resume


def test_resume_splits_the_kept_from_the_rest_in_order() -> None:
    kept = {"b": 2.0, "d": 4.0}
    loaded: list[str] = []

    def load(item: tuple[str, int]) -> float | None:
        loaded.append(item[0])
        return kept.get(item[0])

    items = [("a", 1), ("b", 2), ("c", 3), ("d", 4)]
    done, todo = resume(items, lambda item: item[0], load)
    assert done == {"b": 2.0, "d": 4.0} and list(done) == ["b", "d"]
    assert todo == [("a", 1), ("c", 3)]
    assert loaded == ["a", "b", "c", "d"]  # each item read once
    assert resume([], str, load) == ({}, [])
