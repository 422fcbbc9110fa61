"""LLM-written input generators and validators for program tasks: ``seed`` asks a scripted
chat-completions server on 127.0.0.1 (test_llmseed's) for them and caches them with their
provenance; ``augment`` runs them in the sandbox and keeps only what both the LLM's
validator and the task's plan admit.

The tasks are tests/programfixtures.py's ("n, then n integers" with its fake plan; an echo
task with no plan); nothing reads ``../shared`` and nothing leaves 127.0.0.1.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from programfixtures import SumPlan, fake_plan, gz_lines, sum_tasks, use_plan
from test_llmseed import (  # the scripted server and its fixture
    Responder,
    Response,
    Server,
    completion,
    prompt_of,
    serve,  # noqa: F401
)

from evalplus_ng.cli import main
from evalplus_ng.generate.llmseed import OpenAIEndpoint, RetryPolicy
from evalplus_ng.generate.programs.llmseed import (
    GENERATOR,
    VALIDATOR,
    GeneratorPair,
    LlmProgram,
    ProgramCache,
    ProgramProvenance,
    ProgramSeedConfig,
    build_messages,
    cache_path,
    parse_program,
    prompt_hash,
    read_cache,
    read_pairs,
    run_program_seed,
    write_cache,
)
from evalplus_ng.pipeline.programs.augment import (
    ARTIFACT,
    LlmConfig,
    ProgramAugmentConfig,
    run_augment_programs,
    summary_lines,
    warning_lines,
)
from evalplus_ng.records import ProgramTask, ProgramTest
from evalplus_ng.sandbox import Sandbox
from evalplus_ng.tasks.programfile import load_program_records

# --------------------------------------------------------------------------- programs

#: "n, then n integers": sizes by the hint, some past the plan's 200.
SUM_GENERATOR = """\
import random
seed, size, mode = input().split()
rng = random.Random(int(seed))
n = {"small": rng.randint(1, 5), "medium": rng.randint(6, 60),
     "large": rng.randint(150, 260)}[size]
top = 1000 if mode == "adversarial" else 9
print(n)
print(*[rng.randint(-top, top) for _ in range(n)])
"""
#: Accepts "n, then n integers" except where n leaves 1 divided by 3 (a rule of its own,
#: so that it rejects some inputs the plan admits).
SUM_VALIDATOR = """\
import sys
lines = sys.stdin.read().split("\\n")
try:
    n = int(lines[0])
    xs = [int(x) for x in lines[1].split()]
except Exception:
    print("not two lines of integers")
    sys.exit()
if n % 3 == 1:
    print("n % 3 must not be 1")
elif len(xs) != n:
    print("not n numbers")
else:
    print("ok")
"""
#: The echo task (no plan): one word of 1 to 8 letters.
WORD_GENERATOR = """\
import random
seed, size, mode = input().split()
rng = random.Random(int(seed))
print("".join(rng.choice("abcz") for _ in range(rng.randint(1, 8))))
"""
WORD_VALIDATOR = """\
import re, sys
text = sys.stdin.read()
print("ok" if re.fullmatch(r"[a-z]{1,8}\\n", text) else "one word of 1 to 8 letters")
"""


def n_of(text: str) -> int:
    return int(text.split("\n")[0])


def pair(generator: str, validator: str = SUM_VALIDATOR, model: str = "m") -> GeneratorPair:
    provenance = ProgramProvenance(model, "http://127.0.0.1:1/v1", "0" * 64, "2026-01-02")
    return GeneratorPair(model, LlmProgram(GENERATOR, generator, provenance),
                         LlmProgram(VALIDATOR, validator, provenance))


def records(tmp_path: Path, extra: list[dict[str, Any]] | None = None
            ) -> list[tuple[ProgramTask, dict[str, Any]]]:
    return load_program_records(sum_tasks(tmp_path / "tasks.jsonl.gz", extra or []))


def sum_copy(task_id: str) -> dict[str, Any]:
    """Another "n, then n integers" task (the fake plan reads only ``cc/sum``: give it
    ``plan_all``)."""
    return {"task_id": task_id, "prompt": "Print the sum of n integers.",
            "canonical_solution": "n = int(input())\nprint(sum(map(int, input().split())))\n",
            "tests": [{"input": "3\n1 2 3\n", "output": "6\n", "public": True}]}


def plan_all(task: ProgramTask) -> Any:
    """The fake plan for every task whose id starts ``cc/sum``."""
    if task.task_id.startswith("cc/sum"):
        return SumPlan(task.task_id, {"grammar": "n then n integers"})
    return fake_plan(task)


def augment(items: list[tuple[ProgramTask, dict[str, Any]]], out: Path, box: Sandbox,
            pairs: dict[str, list[GeneratorPair]], *, seed: int = 0,
            llm: LlmConfig | None = None, planner: Callable[[ProgramTask], Any] = plan_all
            ) -> Any:
    """``augment`` with no input of the task's own generator: every new test is the LLM's."""
    return run_augment_programs(items, ProgramAugmentConfig(count=5, seed=seed), out,
                                planner=planner, generator=lambda *_args: [],
                                executor=box, rule=None, llm_pairs=pairs,
                                llm=llm or LlmConfig(runs=12))


# --------------------------------------------------------------------------- replies


def test_a_reply_is_read_for_one_compiling_program() -> None:
    good = "Here:\n```python\nprint(input())\n```\nDone."
    assert parse_program(good) == ("print(input())\n", "")
    assert parse_program("```\nx = 1\n```") == ("x = 1\n", "")  # unmarked: taken
    # the first block marked Python wins over an unmarked one before it
    assert parse_program("```\nplain\n```\n```py\ny = 2\n```") == ("y = 2\n", "")
    assert parse_program("print(1)") == ("", "no ```python fenced block")
    assert parse_program("```python\n\n```") == ("", "an empty program")
    code, why = parse_program("```python\ndef f(:\n    pass\n```")
    assert code == "" and why.startswith("syntax error: line 1:")
    code, why = parse_program("```python\nx = '\0'\n```")  # a NUL byte: refused, not raised
    assert code == "" and why
    assert "over" in parse_program("```python\n" + "x = 1\n" * 20_000 + "```")[1]
    # compiled, never run: a reply whose program would write a file writes nothing
    marker = Path("ran.txt")
    parse_program(f"```python\nopen({str(marker)!r}, 'w').write('x')\n```")
    assert not marker.exists()


def test_prompts_show_the_statement_examples_and_the_protocol() -> None:
    task = ProgramTask("cc/t", "Sum n numbers.\nInput: n then n numbers.", "print(0)\n",
                       (ProgramTest("3\n1 2 3\n", "6\n", True), ProgramTest("2\n5 5\n", "10\n")))
    generator, validator = build_messages(task, GENERATOR), build_messages(task, VALIDATOR)
    text = generator[-1]["content"]
    assert "Sum n numbers." in text and "<input>\n3\n1 2 3\n</input>" in text
    assert "`SEED SIZE MODE`" in text and "random.Random(SEED)" in text
    assert "5 5" not in text  # a hidden test is never shown
    assert "prints `ok`" in validator[-1]["content"]
    assert prompt_hash(generator) != prompt_hash(validator)
    assert prompt_hash(generator) == prompt_hash(build_messages(task, GENERATOR))


# --------------------------------------------------------------------------- seed

FENCED = "```python\n{}```\n"


def by_role(generator: list[str], validator: list[str]) -> Responder:
    """Answer the generator's requests with ``generator``'s replies in turn (the last
    repeats), the validator's with ``validator``'s."""
    asked = {GENERATOR: 0, VALIDATOR: 0}

    def respond(body: dict[str, Any], _number: int) -> Response:
        role = GENERATOR if "`SEED SIZE MODE`" in prompt_of(body) else VALIDATOR
        replies = generator if role == GENERATOR else validator
        text = replies[min(asked[role], len(replies) - 1)]
        asked[role] += 1
        return completion(text)

    return respond


def endpoint(url: str) -> OpenAIEndpoint:
    return OpenAIEndpoint("test-model", url, "sk-test", timeout=5.0, max_tokens=512,
                          temperature=0.0)


FAST = RetryPolicy(retries=1, backoff=0.001, cap=0.01)


def test_seed_caches_both_programs_with_provenance_and_asks_only_once(
        tmp_path: Path, serve: Callable[[Responder], Server]) -> None:  # noqa: F811
    server = serve(by_role([FENCED.format(SUM_GENERATOR)], [FENCED.format(SUM_VALIDATOR)]))
    tasks = [task for task, _record in records(tmp_path)]
    config = ProgramSeedConfig("test-model", "2026-01-02", server.url)
    out = tmp_path / "seeds"
    summary = run_program_seed(tasks, out, endpoint(server.url), config, FAST, 2,
                               sleep=lambda _s: None)
    assert (summary.requests, summary.programs, summary.failed) == (4, 4, [])
    cache = read_cache(cache_path(out, "cc/sum"), "cc/sum")
    (got,) = cache.pairs()
    assert (got.generator.code, got.validator.code) == (SUM_GENERATOR, SUM_VALIDATOR)
    assert got.generator.provenance == ProgramProvenance(
        "test-model", server.url, prompt_hash(build_messages(tasks[0], GENERATOR)),
        "2026-01-02", 1)
    assert got.validator.provenance.prompt_sha256 == prompt_hash(
        build_messages(tasks[0], VALIDATOR))
    assert cache_path(out, "cc/sum") == out / "generators" / "cc_sum.json"
    document = json.loads(cache_path(out, "cc/sum").read_text())
    assert document["programs"]["test-model"]["generator"]["provenance"]["endpoint"] == \
        server.url
    # a hit: nothing asked; the same bytes
    before = cache_path(out, "cc/sum").read_bytes()
    again = run_program_seed(tasks, out, endpoint(server.url), config, FAST, 2)
    assert (again.requests, again.skipped, len(server.requests)) == (0, ("cc/sum", "cc/echo"), 4)
    assert cache_path(out, "cc/sum").read_bytes() == before
    # another model is asked; --force asks this one again
    other = ProgramSeedConfig("other", "2026-01-03", server.url)
    run_program_seed(tasks[:1], out, endpoint(server.url), other, FAST, 1)
    assert [p.model for p in read_cache(cache_path(out, "cc/sum"), "cc/sum").pairs()] == \
        ["other", "test-model"]
    forced = ProgramSeedConfig("test-model", "2026-01-04", server.url, force=True)
    assert run_program_seed(tasks[:1], out, endpoint(server.url), forced, FAST, 1).requests == 2
    assert read_pairs(out, ["cc/sum", "cc/echo", "cc/none"]).keys() == {"cc/sum", "cc/echo"}
    assert read_pairs(tmp_path / "empty", ["cc/sum"]) == {}


def test_replies_without_a_program_are_recorded_and_asked_again(
        tmp_path: Path, serve: Callable[[Responder], Server]) -> None:  # noqa: F811
    server = serve(by_role(["Sure! I would write a generator.",
                            FENCED.format("def broken(:\n"),
                            FENCED.format(SUM_GENERATOR)],
                           ["no code at all"]))
    tasks = [task for task, _record in records(tmp_path)][:1]
    config = ProgramSeedConfig("test-model", "2026-01-02", server.url)
    out = tmp_path / "seeds"
    summary = run_program_seed(tasks, out, endpoint(server.url), config, FAST, 1)
    (report,) = summary.reports
    assert report.got == (GENERATOR,)
    assert report.rejected[:2] == ("generator: no ```python fenced block",
                                   "generator: syntax error: line 1: invalid syntax")
    assert report.failures == ("validator: 3 replies held no program (last: no ```python "
                               "fenced block)",)
    cache = read_cache(cache_path(out, "cc/sum"), "cc/sum")
    assert cache.pairs() == [] and cache.has("test-model", GENERATOR)
    assert [item.reason for item in cache.rejected].count("no ```python fenced block") == 4
    assert cache.rejected[0].excerpt == "Sure! I would write a generator."
    assert cache.rejected[0].provenance.model == "test-model"
    assert len(server.requests) == 6
    # a rerun asks only for the validator
    run_program_seed(tasks, out, endpoint(server.url), config, FAST, 1)
    assert len(server.requests) == 9
    assert all("`SEED SIZE MODE`" not in prompt_of(body) for body in server.requests[6:])


def test_cli_seed_on_a_tasks_file_of_programs(
        tmp_path: Path, serve: Callable[[Responder], Server],  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    server = serve(by_role([FENCED.format(SUM_GENERATOR)], ["nothing"]))
    tasks = sum_tasks(tmp_path / "tasks.jsonl.gz")
    base = ["seed", "--dataset-file", str(tasks), "--model", "local", "--base-url",
            server.url, "--out", str(tmp_path / "seeds"), "--date", "2026-02-03",
            "--retries", "0"]
    refused = CliRunner().invoke(main, [*base, "--rounds", "2"])
    assert refused.exit_code == 2 and "--rounds: not for program tasks" in refused.output
    result = CliRunner().invoke(main, [*base, "--tasks", "cc/sum"])
    assert result.exit_code == 1, result.output
    assert "1 tasks asked, 0 already done; 1 new programs" in result.stdout
    assert "failed: cc/sum: validator: 3 replies held no program" in result.stderr
    assert "run again to retry them" in result.stderr
    cache = read_cache(cache_path(tmp_path / "seeds", "cc/sum"), "cc/sum")
    assert cache.programs["local"][GENERATOR].provenance.date == "2026-02-03"


# --------------------------------------------------------------------------- augment


def test_kept_inputs_pass_both_validators_and_runs_are_deterministic(
        tmp_path: Path, program_sandbox: Sandbox) -> None:
    items = records(tmp_path)
    pairs = {"cc/sum": [pair(SUM_GENERATOR)],
             "cc/echo": [pair(WORD_GENERATOR, WORD_VALIDATOR)]}
    summary = augment(items, tmp_path / "one", program_sandbox, pairs)
    sums, echo = gz_lines(summary.artifact)
    new = [test for test in sums["tests"] if test.get("origin")]
    assert new, "some inputs are kept"
    for test in new:  # admitted by the plan and by the LLM's validator; the reference's sum
        assert SumPlan("x").violation(test["input"]) is None
        assert n_of(test["input"]) % 3 != 1
        numbers = test["input"].split("\n")[1].split()
        assert test["output"] == f"{sum(map(int, numbers))}\n"
    report = summary.reports[0]
    assert report.outcome == "augmented" and report.llm_refused == ""
    counts = report.llm
    assert counts["runs"] == 12 and counts["printed"] == 12
    assert counts["validator_rejected"] > 0 and counts["plan_rejected"] > 0  # n > 200
    assert counts["admitted"] == counts["tests"] == len(new)
    assert counts["printed"] == (counts.get("repeated", 0) + counts["validator_rejected"]
                                 + counts["plan_rejected"] + counts["admitted"])
    # no plan: the LLM's validator (tried on the public input) is the only check
    words = [test["input"] for test in echo["tests"] if test.get("origin")]
    assert words and all(re.fullmatch(r"[a-z]{1,8}\n", word) for word in words)
    assert echo["contract"] is None and summary.reports[1].outcome == "augmented"
    assert summary.reports[1].reason.startswith("no input plan")
    lines = summary_lines(summary)
    assert any(line.startswith("LLM generators (2 tasks, 0 with a pair refused): 24 runs")
               for line in lines)
    stats = json.loads(summary.stats.read_text())
    assert stats["totals"]["llm"]["tasks"] == 2
    # the same seed and programs, the same bytes; another seed, other inputs
    again = augment(items, tmp_path / "two", program_sandbox, pairs)
    assert again.artifact.read_bytes() == summary.artifact.read_bytes()
    other = augment(items, tmp_path / "three", program_sandbox, pairs, seed=1)
    assert gz_lines(other.artifact)[0]["tests"] != sums["tests"]


BROKEN = {
    "loops": "while True:\n    pass\n",
    "crashes": "raise SystemExit(3)\n",
    "garbage": "print('hello world')\n",
    "unseeded": "import random\nprint(1)\nprint(random.randint(-1000, 1000))\n",
    "floods": "print(1)\nprint('7' * 100000)\n",
    "empty": "print()\n",
    "not_loaded": "def f(:\n",
}


def test_generators_that_loop_crash_or_print_garbage_are_contained(
        tmp_path: Path, program_sandbox: Sandbox) -> None:
    items = records(tmp_path, [sum_copy(f"cc/sum-{name}") for name in BROKEN])
    pairs = {f"cc/sum-{name}": [pair(code)] for name, code in BROKEN.items()}
    summary = augment(items, tmp_path / "out", program_sandbox, pairs,
                      llm=LlmConfig(runs=6, generator_seconds=0.3, max_input_bytes=10_000))
    reports = {report.task_id.removeprefix("cc/sum-"): report for report in summary.reports}
    for name in BROKEN:
        assert reports[name].llm.get("tests", 0) == 0, name
        assert reports[name].llm["runs"] == 6
    # a loop costs one time limit a size (its job stops there), the rest not run
    assert reports["loops"].llm == {"runs": 6, "timeout": 3, "not_run": 3}
    assert reports["crashes"].llm == {"runs": 6, "runtime_error": 6}
    assert reports["garbage"].llm == {"runs": 6, "printed": 6, "repeated": 5,
                                      "validator_rejected": 1}
    assert reports["unseeded"].llm["unstable"] >= 5  # two runs agree about 1 in 2000
    assert reports["floods"].llm == {"runs": 6, "output_limit": 6}
    assert reports["empty"].llm == {"runs": 6, "empty": 6}
    assert reports["not_loaded"].llm == {"runs": 6, "not_run": 6}
    assert all(report.outcome == "no_inputs" for name, report in reports.items()
               if name in BROKEN)
    assert any("(no input: timeout 3, runtime_error 6" in line
               for line in summary_lines(summary))


def test_a_validator_rejecting_a_public_input_refuses_its_pair(
        tmp_path: Path, program_sandbox: Sandbox) -> None:
    strict = SUM_VALIDATOR.replace("n % 3 == 1", "n == 3")  # the public input has n = 3
    items = records(tmp_path)
    pairs = {"cc/sum": [pair(SUM_GENERATOR, strict), pair(SUM_GENERATOR, model="good")],
             "cc/echo": [pair(WORD_GENERATOR, "print('no')\n")]}
    summary = augment(items, tmp_path / "out", program_sandbox, pairs)
    sums, echo = summary.reports
    assert sums.llm_refused == "m: its validator rejects public input 0: 'n % 3 must not be 1'"
    assert sums.llm["tests"] > 0  # the other model's pair is used
    assert echo.outcome == "no_grammar" and "tests" not in echo.llm
    assert echo.llm_refused == "m: its validator rejects public input 0: 'no'"
    (line,) = [line for line in warning_lines(summary.reports) if "cc/echo" in line]
    assert line == ("cc/echo: LLM generator and validator refused: m: its validator "
                    "rejects public input 0: 'no'")
    assert gz_lines(summary.artifact)[1]["tests"] == items[1][1]["tests"]


def test_cli_augment_uses_the_cached_programs_unless_told_not_to(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    use_plan(monkeypatch, generator=lambda *_args: [])
    tasks = sum_tasks(tmp_path / "tasks.jsonl.gz")
    seeds = tmp_path / "data" / "seeds"
    provenance = ProgramProvenance("m", "http://127.0.0.1:1/v1", "0" * 64, "2026-01-02")
    write_cache(cache_path(seeds, "cc/sum"), ProgramCache("cc/sum", {"m": {
        GENERATOR: LlmProgram(GENERATOR, SUM_GENERATOR, provenance),
        VALIDATOR: LlmProgram(VALIDATOR, SUM_VALIDATOR, provenance)}}))
    base = ["augment", "--dataset-file", str(tasks), "--per-task", "5", "-j", "1",
            "--no-calibrate", "--data", str(tmp_path / "data")]
    result = CliRunner().invoke(main, [*base, "--out", str(tmp_path / "with")])
    assert result.exit_code == 0, result.output
    assert "LLM generators and validators: 1 of 2 tasks have them" in result.stderr
    assert "LLM generators (1 tasks, 0 with a pair refused)" in result.stdout
    assert len(gz_lines(tmp_path / "with" / ARTIFACT)[0]["tests"]) > 2
    without = CliRunner().invoke(main, [*base, "--out", str(tmp_path / "without"),
                                        "--no-llm-seeds"])
    assert without.exit_code == 0, without.output
    assert "LLM generators" not in without.output
    assert len(gz_lines(tmp_path / "without" / ARTIFACT)[0]["tests"]) == 2
