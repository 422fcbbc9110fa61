"""The backend record: where a command's work runs, chosen once and passed down."""

from __future__ import annotations

from collections import Counter

import pytest

from evalplus_ng.backend.executors import LOCAL, Backend
from evalplus_ng.sandbox import Limits, Sandbox


def _square(x: int) -> int:
    return x * x


def test_a_backend_is_one_of_two_places_and_says_which() -> None:
    assert (LOCAL.workers, LOCAL.ray, LOCAL.address) == (2, False, None)
    with pytest.raises(ValueError, match="names a Ray cluster"):
        Backend(2, ray=False, address="10.0.0.1:6379")
    with pytest.raises(ValueError, match="at least 1"):
        Backend(0)
    assert Backend(1, ray=True).address is None  # the cluster running here, else a new one


def test_the_local_backend_fans_out_in_a_pool_and_runs_jobs_in_its_sandbox() -> None:
    nodes: Counter[str] = Counter()
    assert sorted(Backend(2).unordered(_square, [1, 2, 3], nodes)) == [1, 4, 9]
    assert nodes == Counter()  # Ray nodes only
    with Backend(1).executor(Limits(), ()) as executor:
        assert isinstance(executor, Sandbox) and executor.workers == 1


def test_ray_chunks_hold_eight_function_jobs_but_one_program_job() -> None:
    # Chunking is the driver's (no Ray needed): a program job runs each input in a fresh
    # process, so eight in one Ray task would leave the other workers idle.
    from evalplus_ng.backend.cluster import chunks
    from evalplus_ng.records import Job

    def job(name: str, program: bool = False) -> Job:
        return Job(code=name, entry_point="" if program else "f", inputs=[], time_limits=[],
                   program=program)

    jobs = [*(job(f"f{i}") for i in range(10)), job("p0", True), job("f10"), job("p1", True)]
    assert [[j.code for j in chunk] for chunk in chunks(jobs)] == [
        [f"f{i}" for i in range(8)], ["f8", "f9"], ["p0"], ["f10"], ["p1"]]
    assert list(chunks([])) == []
