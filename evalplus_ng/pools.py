"""Worker process pools (``multiprocess``, forked) for the stages that fan tasks out."""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterable, Iterator
from typing import Any


def default_sigterm() -> None:
    """Pool workers die on SIGTERM (the pool's own way to stop them), whatever handler
    the parent had installed when it forked them (the CLI's raises SystemExit, which a
    worker can swallow in a finalizer and then wait forever for a task)."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def fork_pool(workers: int) -> Any:
    """A pool of ``workers`` forked processes that die on SIGTERM. Close and join it once
    its work is consumed (the workers leave on their own); terminate only on an error:
    terminating can leave a worker waiting forever on the task queue's lock."""
    from multiprocess import get_context

    return get_context("fork").Pool(workers, initializer=default_sigterm)


def unordered(workers: int, function: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
    """``function`` over ``items`` in a :func:`fork_pool` of ``workers``, results as they
    come. The pool is closed and joined once every result is out, and terminated if the
    consumer stops early or raises."""
    pool = fork_pool(workers)
    try:
        yield from pool.imap_unordered(function, items)
    except BaseException:
        pool.terminate()
        pool.join()
        raise
    # Every item is done: the workers leave on their own (no SIGTERM needed).
    pool.close()
    pool.join()
