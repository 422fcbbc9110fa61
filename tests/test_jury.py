"""The jury: base-passing samples of two families against a wrong ground truth (small
literal fixtures, no ../shared), the families of samples files, how many disputed inputs
it holds, and a model's second opinion from a local chat-completions server."""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from test_audit import run_in_process, toy
from test_llmseed import Server, completion, error, replay, serve  # noqa: F401

from evalplus_ng.cli import main
from evalplus_ng.errors import InputError
from evalplus_ng.generate.llmseed import OpenAIEndpoint, RetryPolicy
from evalplus_ng.judge import check
from evalplus_ng.oracle import jury
from evalplus_ng.oracle.defects import Finding, SampleCode, TaskAudit
from evalplus_ng.oracle.jury import Extent, Vote, extent, majority
from evalplus_ng.oracle.opinion import OpinionConfig, SecondOpinion, parse_verdict
from evalplus_ng.records import Fault, Outcome, Status, Task
from evalplus_ng.serialize import decode, encode
from evalplus_ng.tasks.samples import families_of, parse_families
from evalplus_ng.types import Wire

# ---------------------------------------------------------------- families

#: Files named as real samples files of four models of two families (by the names).
NAMED = [Path(name) for name in ("TheBloke_WizardLM-30B-GPTQ_VICUNA_MEDIUM.jsonl",
                                 "TheBloke_wizardLM-7B-GPTQ_ALPACA_MEDIUM.jsonl",
                                 "qwen3_base.jsonl", "qwen3_instruct.jsonl")]


def test_each_samples_file_is_a_family_of_its_own_whatever_its_name() -> None:
    assert families_of(NAMED) == [path.name for path in NAMED]


def test_declared_families_group_files_the_first_match_wins_and_a_bad_one_is_an_error(
) -> None:
    table = parse_families(["qwen3_*=qwen3", "*wizardLM-7B*=small", "TheBloke_*=wizard"])
    assert families_of(NAMED, table) == ["wizard", "small", "qwen3", "qwen3"]
    with pytest.raises(InputError, match="expected PATTERN=FAMILY"):
        parse_families(["qwen3"])
    # A pattern no file matches (a typo, or the old substring form) is an error.
    with pytest.raises(InputError, match="'QwenCoder' matches no samples file"):
        families_of(NAMED, parse_families(["QwenCoder=qwen-coder"]))


# ---------------------------------------------------------------- majority (pure)


def _vote(family: str, value: Any, passed: bool = False) -> Vote:
    return Vote(family, passed, Outcome(Status.OK, encode(value)))


def _equal(a: Wire, b: Wire) -> bool:
    return bool(decode(a) == decode(b))


def test_a_majority_needs_two_families_and_to_outvote_the_ground_truth() -> None:
    found = majority([_vote("q3", 1), _vote("qc", 1), _vote("q3", 1), _vote("q3", 0, True)],
                     _equal, 3)
    assert found is not None and decode(found.value) == 1
    assert found.members == (0, 1, 2) and found.families == (("q3", 2), ("qc", 1))
    # One family only, however many samples.
    assert majority([_vote("q3", 1)] * 4, _equal, 3) is None
    # Too few, or no more than the ground truth's side.
    assert majority([_vote("q3", 1), _vote("qc", 1)], _equal, 3) is None
    assert majority([_vote("q3", 1), _vote("qc", 1), _vote("q3", 1)]
                    + [_vote("q3", 0, True)] * 3, _equal, 3) is None
    # A split vote: no answer has a strict lead.
    assert majority([_vote("q3", 1), _vote("qc", 1), _vote("q3", 1),
                     _vote("q3", 2), _vote("qc", 2), _vote("q3", 2)], _equal, 3) is None
    # An error is no answer: three agreeing of four are still a majority of the answers.
    failed = Vote("qc", False, Outcome(Status.ERROR, error="boom", fault=Fault.RAISED))
    assert majority([_vote("q3", 1), _vote("qc", 1), _vote("q3", 1), failed, failed],
                    _equal, 3) is not None


# ---------------------------------------------------------------- the jury on a toy task

# The prompt and the base inputs show non-ASCII text and one-letter strings: an inferred
# contract admits only the classes they show (evalplus_ng.generate.premises).
COUNT = ('def count_upper(s: str) -> int:\n    """How many upper-case letters s has '
         '(any Unicode letter)."""\n')
#: Wrong on letters beyond ASCII ('É' is upper case): a lowercase filter written [A-Z].
ASCII_ONLY = "def count_upper(s):\n    return sum(1 for c in s if 'A' <= c <= 'Z')\n"
UPPER = "def count_upper(s):\n    return sum(c.isupper() for c in s)\n"
UPPER_TOO = "def count_upper(s):\n    return len([c for c in s if c.isupper()])\n"
BASE = [["Hello World"], ["ABC"], ["q"]]
#: Two inputs the ground truth gets wrong among 22: at most the tenth the jury holds.
PLUS = (["abc"], ["ÉCOLE normale"], ["xyz QRS"], ["Ärger"],
        *([word] for word in "Lorem ipsum Dolor sit amet Consectetur adipiscing Elit sed do "
                              "eiusmod Tempor incididunt ut labore ET dolore magna".split()))


def judged_in_process(task: Task) -> Any:
    """A stand-in for :func:`evalplus_ng.oracle.defects.sandbox_judged`: trusted synthetic code."""
    run = run_in_process(task.entry_point)

    def judge(code: str, inputs: Sequence[Wire], expected: Sequence[Wire], seconds: float,
              timeouts: int) -> list[tuple[Outcome, bool]]:
        args = [decode(wire) for wire in inputs]
        outcomes = run(code, args, None, seconds)
        return [(o, o.status is Status.OK and check(task.oracle, a, decode(e), decode(o.value),
                                                    task.atol, task.equality))
                for o, a, e in zip(outcomes, args, expected, strict=True)]

    return judge


def count_task(samples: Sequence[SampleCode], plus: Sequence[Any] = PLUS) -> TaskAudit:
    work = toy(COUNT, "count_upper", ASCII_ONLY, inputs=BASE, samples=samples)
    from dataclasses import replace
    return replace(work, plus=tuple(plus), judged=judged_in_process(work.task))


TWO_FAMILIES = [SampleCode(UPPER, "qwen3_base", "qwen3"),
                SampleCode(UPPER_TOO, "mapcoder_QwenCoder480b_CoT", "qwen-coder"),
                SampleCode(UPPER, "qwen3_instruct", "qwen3"),
                SampleCode(ASCII_ONLY, "qwen3_base", "qwen3")]


def test_samples_of_two_families_against_the_ground_truth_are_a_shrunk_lead() -> None:
    [lead], cost = jury.jury(count_task(TWO_FAMILIES))
    assert lead.signal == "samples" and lead.status == "unreviewed"
    # Shrunk from 'ÉCOLE normale' to its one letter the ground truth misses.
    assert lead.witness == ["É"] and (lead.expected, lead.actual) == (1, 0)
    assert lead.families == (("qwen-coder", 1), ("qwen3", 2))
    assert lead.held == (["ÉCOLE normale"], ["Ärger"])  # every disputed plus input
    assert (lead.disputed, lead.checked) == (2, len(PLUS))
    assert "3 base-passing samples of 2 families" in lead.explanation
    assert cost.samples == 4 and cost.checks > 0
    # Each sample once on every plus input; the shrink runs the ground truth and one
    # sample of each family on each candidate.
    assert cost.calls == 4 * len(PLUS) + 3 * cost.checks


def test_one_family_alone_is_no_lead() -> None:
    one = [SampleCode(s.code, s.model, "qwen3") for s in TWO_FAMILIES]
    assert jury.jury(count_task(one)) == ([], jury.JuryCost())


def test_no_lead_where_the_samples_agree_with_the_ground_truth() -> None:
    wrong = [SampleCode(ASCII_ONLY, "qwen3_base", "qwen3"),
             SampleCode(ASCII_ONLY, "mapcoder_QwenCoder480b_CoT", "qwen-coder"),
             SampleCode(UPPER, "qwen3_instruct", "qwen3")]
    leads, cost = jury.jury(count_task(wrong))
    assert leads == [] and cost.calls == 3 * len(PLUS)


# ---------------------------------------------------------------- how much the jury holds


@pytest.mark.parametrize(("disputed", "checked", "expected"), [
    (2, 22, Extent.HELD), (4, 40, Extent.HELD), (5, 40, Extent.UNHELD),
    (1, 9, Extent.UNHELD),  # a tenth of 9 is no input: a review first
    (20, 40, Extent.UNHELD),  # half is not most
    (21, 40, Extent.SUSPECT), (47, 50, Extent.SUSPECT), (1, 1, Extent.SUSPECT)])
def test_the_jury_holds_at_most_a_tenth_and_most_is_suspect_samples(
        disputed: int, checked: int, expected: Extent) -> None:
    assert extent(disputed, checked, 0.1) is expected


def test_a_lead_disputing_more_than_the_jury_may_hold_holds_nothing() -> None:
    [lead], _cost = jury.jury(count_task(TWO_FAMILIES, PLUS[:5]))  # 2 of 5 disputed
    assert lead.signal == "samples" and lead.witness == ["É"]
    assert lead.held == () and (lead.disputed, lead.checked) == (2, 5)
    assert "none held" in lead.explanation


#: Right on the base tests only: the upper case letters of any other text are 1.
ONE_ELSE = ("def count_upper(s):\n    if s in ('Hello World', 'ABC', 'q'):\n"
            "        return sum(c.isupper() for c in s)\n    return 1\n")


def test_samples_that_outvote_the_ground_truth_on_most_inputs_are_suspect() -> None:
    four = [SampleCode(ONE_ELSE, name, name) for name in ("wizard", "wizard", "vicuna",
                                                          "vicuna")]
    [found], cost = jury.jury(count_task(four))
    assert found.signal == "suspect-samples" and found.held == ()
    assert found.disputed > len(PLUS) // 2 and found.checked == len(PLUS)
    assert (found.witness, found.expected, found.actual) == (["abc"], 1, 0)  # unshrunk
    assert found.families == (("vicuna", 2), ("wizard", 2)) and cost.checks == 0
    assert "the samples are suspect, not the ground truth" in found.explanation


def test_an_answer_too_long_for_repr_is_a_lead_shown_in_hex() -> None:
    huge = ("def count_upper(s):\n    n = sum(c.isupper() for c in s)\n"
            "    return 10 ** 5000 if n != sum(1 for c in s if 'A' <= c <= 'Z') else n\n")
    samples = [SampleCode(huge, name, name) for name in ("a", "b", "c")]
    [lead], _cost = jury.jury(count_task(samples))
    assert lead.signal == "samples" and lead.held == (["ÉCOLE normale"], ["Ärger"])
    assert isinstance(lead.expected, str) and lead.expected.startswith(hex(10 ** 5000)[:50])
    assert lead.expected.endswith("more characters)") and lead.actual == 0
    assert hex(10 ** 5000)[:100] in lead.explanation


def test_any_value_has_a_bounded_text_and_a_json_form() -> None:
    from evalplus_ng.oracle.defects import answer_of, call_text, exact_text, shown

    big = 10 ** 5000
    assert exact_text(big) == hex(big) and exact_text([big]).startswith('[{"i":"0x')
    assert call_text("f", [big, 1]) == f"f({hex(big)}, 1)"
    assert shown(big).startswith(hex(big)[:2000]) and len(shown(big)) < 2100
    assert shown("x" * 10**6).endswith("(998002 more characters)")
    assert shown((1, "a")) == [1, "a"] and shown({1: 2}) == {"1": 2}
    deep: Any = []
    for _ in range(100_000):
        deep = [deep]
    assert exact_text(deep).startswith("<a list too large or too deep")
    wire: Any = []
    for _ in range(100_000):
        wire = {"t": [wire]}
    assert answer_of(wire) == "<an answer that does not decode: RecursionError>"
    json.dumps([shown(big), shown(deep), answer_of(encode(big))])  # never a ValueError


# ---------------------------------------------------------------- augment holds leads out

LAST_DIGIT = {
    "task_id": "toy/1", "entry_point": "last_digit",
    "prompt": 'def last_digit(n: int) -> int:\n    """The last digit of n\'s absolute '
              'value (n may be negative)."""\n',
    # -1001 % 10 is 9: wrong on numbers below -999 (3 of the 40 plus inputs)
    "canonical_solution": "    return abs(n) % 10 if n > -1000 else n % 10\n",
    "base_input": [[12], [7], [120]]}


def _write_samples(folder: Path) -> None:
    folder.mkdir()
    right = "def last_digit(n):\n    return abs(n) % 10\n"
    also = "def last_digit(n):\n    return int(str(abs(n))[-1])\n"
    for name, codes in (("qwen3_base.jsonl", [right, also]),
                        ("mapcoder_QwenCoder480b_CoT.jsonl", [right])):
        (folder / name).write_text("".join(json.dumps({"task_id": "toy/1", "solution": c})
                                           + "\n" for c in codes), encoding="utf-8")


def _plus_inputs(path: Path) -> list[Any]:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        [record] = [json.loads(line) for line in handle]
    return list(record["plus_input"])


def test_augment_holds_a_lead_out_of_plus_until_a_review_accepts_the_ground_truth(
        tmp_path: Path) -> None:
    tasks = tmp_path / "toy.jsonl"
    tasks.write_text(json.dumps(LAST_DIGIT) + "\n", encoding="utf-8")
    samples, out = tmp_path / "samples", tmp_path / "out"
    _write_samples(samples)
    command = ["augment", "--dataset", str(tasks), "--out", str(out), "--per-task", "40",
               "-j", "1", "--no-reduce", "--no-calibrate", "--samples", str(samples)]
    result = CliRunner().invoke(main, command)
    assert result.exit_code == 0, result.output
    plus, held = _plus_inputs(out / "ToyPlus.jsonl.gz"), _plus_inputs(out / "ToyPlus-Held.jsonl.gz")
    # The ground truth's wrong answers, all of them (at most a tenth of the inputs).
    assert held and all(n < -999 and n % 10 != abs(n) % 10 for [n] in held)
    assert all(n > -1000 or n % 10 == abs(n) % 10 for [n] in plus)
    assert len(held) <= (len(plus) + len(held)) // 10
    stats = json.loads((out / "stats.json").read_text())
    assert stats["held_by_audit"] == {"inputs": len(held), "tasks": {"toy/1": len(held)}}
    [lead] = [f for f in json.loads((out / "audit.json").read_text())
              if f["signal"] == "samples"]
    assert (lead["witness"], lead["expected"], lead["actual"]) == ([-1001], 1, 9)
    # Each samples file is a family, whatever its name says.
    assert lead["families"] == {"mapcoder_QwenCoder480b_CoT.jsonl": 1, "qwen3_base.jsonl": 2}
    assert lead["held_inputs"] == lead["disputed_inputs"] == len(held)
    assert lead["checked_inputs"] == len(plus) + len(held) and lead["status"] == "unreviewed"
    assert f"{len(held)} plus input(s) of 1 task(s) held out" in result.stdout
    assert ("| toy/1 | `last_digit(-1001)` | `9` | `1` | mapcoder_QwenCoder480b_CoT.jsonl (1), "
            f"qwen3_base.jsonl (2) | {len(held)} of 40 | {len(held)} |") in \
        (out / "audit.md").read_text()
    # A review accepting the ground truth's answers lets them back in, in their places.
    (out / "data").mkdir(exist_ok=True)
    (out / "data" / "audit_review.json").write_text(json.dumps(
        {"toy/1": {"samples": "the task says so"}}), encoding="utf-8")
    result = CliRunner().invoke(main, command)
    assert result.exit_code == 0, result.output
    back = _plus_inputs(out / "ToyPlus.jsonl.gz")
    assert sorted(map(str, back)) == sorted(map(str, plus + held))
    assert not (out / "ToyPlus-Held.jsonl.gz").exists()
    assert json.loads((out / "stats.json").read_text())["held_by_audit"]["inputs"] == 0
    [lead] = [f for f in json.loads((out / "audit.json").read_text())
              if f["signal"] == "samples"]
    assert lead["status"] == "dismissed"


# ---------------------------------------------------------------- second opinion


LEAD = Finding("toy/1", "bad-logic", "samples", [-1], 1, 9, "3 samples agree",
               families=(("qwen3", 2), ("qwen-coder", 1)), held=([-1],))
TASK = Task("toy/1", LAST_DIGIT["prompt"], "last_digit",
            LAST_DIGIT["prompt"] + LAST_DIGIT["canonical_solution"], ((12,),))


def _asker(server: Server, cache: Path) -> SecondOpinion:
    endpoint = OpenAIEndpoint("judge-model", server.url, "k", timeout=5.0, max_tokens=100,
                              temperature=0.0)
    return SecondOpinion(endpoint, OpinionConfig("judge-model", "2026-01-02"), cache,
                         RetryPolicy(retries=2, backoff=0.001))


def test_a_second_opinion_is_asked_once_and_cached_with_its_provenance(
        serve: Callable[..., Server], tmp_path: Path) -> None:  # noqa: F811
    server = serve(replay(completion("The absolute value's last digit is 1.\nVERDICT: B")))
    cache = tmp_path / "opinions.json"
    asked = _asker(server, cache)(TASK, LEAD)
    assert asked.opinion == "judge-model (2026-01-02): the samples' answer is right"
    question = server.requests[0]["messages"][-1]["content"]
    assert "last_digit(-1)" in question and "Answer A: `9`" in question \
        and "Answer B: `1`" in question and "absolute value" in question
    [entry] = json.loads(cache.read_text()).values()
    assert entry["model"] == "judge-model" and entry["date"] == "2026-01-02"
    assert entry["verdict"] == "B" and entry["call"] == "last_digit(-1)"
    # Asked again (another run, another instance): the cache answers, not the server.
    again = _asker(server, cache)
    assert again(TASK, LEAD).opinion == asked.opinion and len(server.requests) == 1
    assert again.asked == 0


def test_a_failed_second_opinion_is_reported_and_not_cached(
        serve: Callable[..., Server], tmp_path: Path) -> None:  # noqa: F811

    server = serve(replay(error(500, "down")))
    cache = tmp_path / "opinions.json"
    asked = _asker(server, cache)(TASK, LEAD)
    assert asked.opinion.startswith("judge-model: no answer (HTTP 500")
    assert len(server.requests) == 3 and not cache.exists()


@pytest.mark.parametrize(("reply", "verdict"), [
    ("VERDICT: A", "A"), ("so... **VERDICT: b**", "B"), ("VERDICT: A\nVERDICT: NEITHER",
                                                         "NEITHER"), ("I think B", None)])
def test_the_verdict_is_the_replys_last_verdict_line(reply: str, verdict: str | None) -> None:
    assert parse_verdict(reply) == verdict


def test_audit_asks_the_endpoint_about_each_lead(serve: Callable[..., Server],  # noqa: F811
                                                 tmp_path: Path) -> None:
    server = serve(replay(completion("VERDICT: A")))
    tasks = tmp_path / "toy.jsonl"
    tasks.write_text(json.dumps(LAST_DIGIT) + "\n", encoding="utf-8")
    samples, out = tmp_path / "samples", tmp_path / "out"
    _write_samples(samples)
    result = CliRunner().invoke(main, ["augment", "--dataset", str(tasks), "--out", str(out),
                                       "--per-task", "40", "-j", "1", "--no-reduce",
                                       "--no-calibrate", "--no-audit"])
    assert result.exit_code == 0, result.output
    command = ["audit", "--dataset", str(tasks), "--out", str(out), "-j", "1",
               "--samples", str(samples), "--opinion-model", "judge-model",
               "--base-url", server.url, "--date", "2026-01-02"]
    result = CliRunner().invoke(main, command)
    assert result.exit_code == 0, result.output
    assert "second opinions: 1 asked" in result.stdout
    [lead] = [f for f in json.loads((out / "audit.json").read_text())
              if f["signal"] == "samples"]
    assert lead["second_opinion"] == "judge-model (2026-01-02): the ground truth's answer " \
                                     "is right"
    assert (out / "data" / "opinions.json").is_file()
    result = CliRunner().invoke(main, command)
    assert "second opinions: 0 asked" in result.stdout and len(server.requests) == 1


def test_a_lead_round_trips_through_the_audit_store() -> None:
    from evalplus_ng.oracle.defects import finding_from_wire, finding_wire

    lead = Finding("toy/1", "bad-logic", "samples", [(-1, "é")], 1, 9, "x",
                   families=(("qwen3", 2), ("qwen-coder", 1)), held=([(-1, "é")], [[-12]]),
                   opinion="m (d): the samples' answer is right")
    assert finding_from_wire(json.loads(json.dumps(finding_wire(lead)))) == lead
