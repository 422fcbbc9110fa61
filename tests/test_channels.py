"""Nothing crosses from one sample to the next (issue 31): chains of hostile samples run
one after another on one worker, in each jail mode, and no later copy learns anything
an earlier one left behind."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from evalplus_ng.judge import JUDGE
from evalplus_ng.records import Job, Status
from evalplus_ng.sandbox import Limits, Sandbox
from evalplus_ng.serialize import decode, encode

#: Hostile samples that attack the samples after them (run as chains, not alone).
CHAINS = Path(__file__).parent / "chains"
requires_root = pytest.mark.skipif(os.geteuid() != 0, reason="the jail's uid switch needs root")
LIMITS = Limits(memory_bytes=1 << 30, load_seconds=5.0)
#: The hidden answers of the chain's task (one bool per input).
ANSWERS = [True, False, False, True, False, True]


def _copy(name: str, placeholder: str, value: int) -> str:
    return (CHAINS / f"{name}.py").read_text().replace(placeholder, str(value))


@requires_root
def test_a_chain_of_samples_learns_nothing_from_folder_times(jail: str) -> None:
    # On one worker, copy k+1 reads what copy k wrote into the working folder's
    # modification time before the output it was stopped at: a wrong guess. With the
    # folder handed on as it was (da33015), each copy knows one answer more than the
    # one before, and copy len(ANSWERS) + 1 passes without knowing the task.
    inputs = [encode([[index]]) for index in range(len(ANSWERS))]
    expected = [encode(answer) for answer in ANSWERS]
    chain = [Job(code=_copy("mtime_chain", "__COPY__", copy), entry_point="f", inputs=inputs,
                 time_limits=[5.0] * len(inputs), expected=expected)
             for copy in range(len(ANSWERS) + 2)]
    with Sandbox(1, LIMITS, judge=JUDGE) as sandbox:
        results = list(sandbox.map(chain))
    assert not any(result.all_passed for result in results)
    # Each copy knew nothing: every one guessed True throughout and was stopped at the
    # first False answer.
    first_false = ANSWERS.index(False)
    for result in results:
        assert result.load.status is Status.OK
        assert [o.value for o in result.outcomes] == [True] * (first_false + 1), result


@requires_root
def test_every_child_finds_the_same_fresh_folder_whatever_the_last_one_left(
        jail: str) -> None:
    # Each probe reports its folder's metadata, the next inode number and its parent
    # folder's, then leaves a different number of traces; reports that differ would be
    # a channel from one sample to the next.
    probes = [Job(code=_copy("leave_traces", "__TRACES__", traces), entry_point="f",
                  inputs=[encode([0])], time_limits=[5.0]) for traces in (3, 1, 7, 2)]
    try:
        with Sandbox(1, LIMITS) as sandbox:
            results = list(sandbox.map(probes))
    finally:
        for left in Path("/run/lock").glob("evalplus-ng-trace-*"):
            left.unlink()
    seen: list[dict[str, object]] = []
    for result in results:
        assert result.load.status is Status.OK and result.outcomes, result
        outcome = result.outcomes[0]
        assert outcome.status is Status.OK, outcome
        seen.append(decode(outcome.value))
    assert all(report == seen[0] for report in seen), seen
    assert seen[0]["entries"] == "" and seen[0]["attributes"] == ""
