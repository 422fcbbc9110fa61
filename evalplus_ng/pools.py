"""Worker process pools (``multiprocess``, forked) for the stages that fan tasks out, and
the bounded, in-order window that the sandbox pool and the Ray executor share."""

from __future__ import annotations

import signal
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import Any, TypeVar

Item = TypeVar("Item")
Handle = TypeVar("Handle")
Result = TypeVar("Result")


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


def in_order(items: Iterable[Item], submit: Callable[[Item], Handle],
             wait: Callable[[Handle], Result], cancel: Callable[[Handle], object],
             width: int) -> Generator[Result, None, None]:
    """``wait(submit(item))`` for each item, in item order, with at most ``width`` items
    submitted ahead of the consumer (a long iterable is never materialised at once); the
    items still in flight are cancelled if the consumer stops or raises."""
    window: deque[Handle] = deque()
    iterator = iter(items)
    try:
        while True:
            for item in iterator:
                window.append(submit(item))
                if len(window) >= width:
                    break
            if not window:
                return
            yield wait(window.popleft())
    finally:
        for handle in window:
            cancel(handle)
