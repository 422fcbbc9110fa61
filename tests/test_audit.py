"""Audit signals on small synthetic buggy references (no dataset, no ../shared)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from evalplus_ng.generate.contract import Contract, load_contract
from evalplus_ng.judge import equal
from evalplus_ng.oracle import defects
from evalplus_ng.oracle.defects import AuditConfig, Finding, SampleCode, TaskAudit
from evalplus_ng.records import COST_EXCEEDED, Fault, Outcome, Status, Task
from evalplus_ng.sandbox import Sandbox
from evalplus_ng.serialize import encode
from evalplus_ng.tasks.sources import FixedSolution
from evalplus_ng.types import Args

SMALL = AuditConfig(perf_lines=3000, fast_lines=300, shrink_checks=400, consensus=3)


class _Budget(BaseException):
    pass


def _line_tracer(budget: int) -> Any:
    remaining = [budget]

    def tracer(frame: Any, event: str, arg: Any) -> Any:
        if event == "line":
            remaining[0] -= 1
            if remaining[0] < 0:
                raise _Budget
        return tracer

    return lambda *_: tracer


def run_in_process(entry_point: str) -> defects.Runner:
    """A stand-in for the sandbox runner: trusted synthetic code, lines counted the same way."""

    def run(code: str, inputs: Sequence[Args], max_lines: int | None,
            seconds: float, expected: Sequence[Any] | None = None,
            thrift: defects.Thrift | None = None) -> list[Outcome]:
        namespace: dict[str, Any] = {}
        exec(compile(code, "<synthetic>", "exec"), namespace)
        function = namespace[entry_point]
        outcomes = []
        costly = 0
        for args in inputs:
            thrifty = thrift is not None and costly >= thrift.costly
            budget = thrift.lines if thrift is not None and thrifty else max_lines
            if thrifty and not budget:  # Thrift(lines=0): the run ends at the costly-th
                outcomes.append(defects.not_examined(0))
                continue
            sys.settrace(_line_tracer(budget or 10**9))
            try:
                value = function(*[encode(a) and a for a in args])
                outcomes.append(Outcome(Status.OK, encode(value)))
            except _Budget:
                costly += 1
                outcomes.append(defects.not_examined(budget or 0) if thrifty else
                                Outcome(Status.ERROR, error=f"{COST_EXCEEDED}: too many lines",
                                        fault=Fault.COST))
            except Exception as exc:
                outcomes.append(Outcome(Status.ERROR, error=f"{type(exc).__name__}: {exc}",
                                        fault=Fault.RAISED))
            finally:
                sys.settrace(None)
            if expected is not None and not (
                    outcomes[-1].status is Status.OK
                    and equal(expected[len(outcomes) - 1], outcomes[-1].value)):
                break
        return outcomes

    return run


def toy(prompt: str, entry_point: str, original: str, fixed: str | None = None,
        inputs: Sequence[Args] = (), pre: Any = None, category: str = "bad-logic",
        samples: Sequence[SampleCode] = (), config: AuditConfig = SMALL) -> TaskAudit:
    task = Task(task_id="Toy/1", prompt=prompt, entry_point=entry_point,
                solution=fixed if fixed is not None else original,
                base_inputs=tuple(inputs), original_solution=original if fixed else "")
    contract: Contract = load_contract(task, None)
    if pre is not None:
        contract = replace(contract, pre=pre)
    repair = FixedSolution("Toy/1", fixed, category, [], "because", "Toy_1.py") \
        if fixed is not None else None
    return TaskAudit(task, contract, tuple(inputs), run_in_process(entry_point), config,
                     repair, tuple(samples))


MULTIPLY = 'def multiply(a: int, b: int) -> int:\n    """Product of the unit digits."""\n'
BUGGY_MULTIPLY = "def multiply(a, b):\n    return abs(a % 10) * abs(b % 10)\n"
FIXED_MULTIPLY = "def multiply(a, b):\n    return (abs(a) % 10) * (abs(b) % 10)\n"


def test_differential_finds_and_shrinks_the_disagreement() -> None:
    work = toy(MULTIPLY, "multiply", BUGGY_MULTIPLY, FIXED_MULTIPLY,
               inputs=[[148, 412], [19, 28], [-1234, 5678]])
    [finding] = defects.differential_and_raises(work, work.original(work.inputs))
    assert (finding.signal, finding.category, finding.witness) == ("differential", "bad-logic",
                                                                   [-1, 1])
    assert (finding.expected, finding.actual, finding.settled) == (1, 9, True)


def test_no_finding_when_original_and_fixed_agree() -> None:
    work = toy(MULTIPLY, "multiply", BUGGY_MULTIPLY, FIXED_MULTIPLY, inputs=[[148, 412], [3, 7]])
    assert defects.audit_task(work) == []


FIRST = 'def first(xs: list) -> int:\n    """The first element, or 0 for an empty list."""\n'


def test_raises_on_a_valid_input_is_an_edge_case() -> None:
    work = toy(FIRST, "first", "def first(xs):\n    return xs[0]\n",
               inputs=[[[3, 1, 2]], [[5, 4, 3, 2]], [[]]])
    [finding] = defects.differential_and_raises(work, work.original(work.inputs))
    assert (finding.signal, finding.category, finding.witness) == ("raises", "edge-case", [[]])
    assert "IndexError" in finding.actual and not finding.settled
    # With a fixed ground truth that answers, the finding is settled.
    fixed = toy(FIRST, "first", "def first(xs):\n    return xs[0]\n",
                "def first(xs):\n    return xs[0] if xs else 0\n", inputs=[[[3, 1]], [[]]],
                category="edge-case")
    [settled] = defects.differential_and_raises(fixed, fixed.original(fixed.inputs))
    assert (settled.signal, settled.expected, settled.settled) == ("raises", 0, True)
    # An input the contract rules out is not a defect.
    strict = toy(FIRST, "first", "def first(xs):\n    return xs[0]\n",
                 inputs=[[[3, 1, 2]], [[]]], pre=lambda xs: len(xs) > 0)
    strict = replace(strict, inputs=(([3, 1, 2],),))
    assert defects.differential_and_raises(strict, strict.original(strict.inputs)) == []


FIB = 'def fib(n: int) -> int:\n    """n-th Fibonacci number."""\n'
NAIVE_FIB = "def fib(n):\n    if n < 2:\n        return n\n    return fib(n - 1) + fib(n - 2)\n"
FAST_FIB = ("def fib(n):\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n"
            "    return a\n")


def test_performance_needs_a_costly_original_and_a_cheap_fix() -> None:
    work = toy(FIB, "fib", NAIVE_FIB, FAST_FIB, inputs=[[3]], pre=lambda n: 0 <= n <= 40,
               category="performance")
    [finding] = defects.performance(work, work.original(work.inputs))
    assert finding.signal == "performance" and finding.settled
    n = finding.witness[0]
    # Shrunk to the smallest n whose naive recursion exceeds the line budget.
    below, at = run_in_process("fib")(NAIVE_FIB, [[n - 1], [n]], SMALL.perf_lines, 1.0)
    assert below.status is Status.OK and COST_EXCEEDED in (at.error or "")
    assert finding.expected == _fib(n)
    # The same original with no fix to compare with: a finding awaiting review, on the
    # first costly probe (the contract's bound 40, then the prime 37), not shrunk.
    alone_work = toy(FIB, "fib", NAIVE_FIB, inputs=[[3]], pre=lambda n: 0 <= n <= 40)
    [alone] = defects.performance(alone_work, alone_work.original(alone_work.inputs))
    assert alone.witness == [40] and not alone.settled
    assert alone.explanation.endswith("no fixed ground truth to compare with")
    # A signal a review dismissed is still reported, but its witness is not shrunk.
    skipped = replace(work, dismissed=frozenset({"performance"}))
    [kept] = defects.performance(skipped, skipped.original(skipped.inputs))
    assert kept.witness == [40] and kept.witness[0] > finding.witness[0] and kept.settled


def _recording(work: TaskAudit, timeouts: Sequence[Args] = ()
               ) -> tuple[TaskAudit, list[tuple[list[Args], Any, float]]]:
    """``work`` whose runner records each call: (inputs, thrift, seconds). The inputs in
    ``timeouts`` time out (then, as under ``Thrift(costly=1, lines=0)``, the run ends)."""
    calls: list[tuple[list[Args], Any, float]] = []
    inner = work.run

    def run(code: str, inputs: Sequence[Args], max_lines: int | None, seconds: float,
            expected: Sequence[Any] | None = None,
            thrift: defects.Thrift | None = None) -> list[Outcome]:
        calls.append((list(inputs), thrift, seconds))
        late = next((i for i, args in enumerate(inputs) if args in timeouts), None)
        if late is None:
            return inner(code, inputs, max_lines, seconds, expected, thrift)
        assert thrift == defects.Thrift(costly=1, lines=0)  # the only case this stub plays
        return [*inner(code, inputs[:late], max_lines, seconds, expected, thrift),
                Outcome(Status.TIMEOUT, error="no reply"),
                *[defects.not_examined(0)] * (len(inputs) - late - 1)]

    return replace(work, run=run), calls


def test_a_performance_shrink_stops_each_batch_at_its_first_costly_candidate() -> None:
    # Every candidate that holds costs the original a full budget: a batch ends at the
    # first (the one the shrinker takes), and the witness is still the smallest costly n.
    work, calls = _recording(toy(FIB, "fib", NAIVE_FIB, FAST_FIB, inputs=[[3], [30]],
                                 pre=lambda n: 0 <= n <= 40, category="performance"))
    [finding] = defects.performance(work, work.original(work.inputs))
    batches = [inputs for inputs, thrift, _ in calls if thrift == defects.Thrift(1, 0)]
    assert batches and all(len(batch) > 1 for batch in batches)
    below, at = run_in_process("fib")(NAIVE_FIB, [[finding.witness[0] - 1], finding.witness],
                                      SMALL.perf_lines, 1.0)
    assert below.status is Status.OK and COST_EXCEEDED in (at.error or "")


def test_performance_without_a_fixed_ground_truth_runs_no_more_than_it_needs() -> None:
    # Probes of [3] under 0 <= n <= 40: 40 (the bound) and 37 (the largest prime).
    slow = toy(FIB, "fib", NAIVE_FIB, inputs=[[3]], pre=lambda n: 0 <= n <= 40)
    slow, calls = _recording(slow)
    [finding] = defects.performance(slow, slow.original(slow.inputs))
    # The probes run once, up to the first over the budget; no shrink runs after it.
    assert finding.witness == [40] and not finding.settled
    assert calls[1:] == [([[40], [37]], defects.Thrift(costly=1, lines=0), SMALL.seconds)]
    outcomes = slow.original([[40], [37], [3]], thrift=defects.Thrift(costly=1, lines=0))
    assert COST_EXCEEDED in (outcomes[0].error or "")
    assert [defects.NOT_EXAMINED in (o.error or "") for o in outcomes] == [False, True, True]
    # A candidate input already over the budget is the witness: no probe runs at all.
    known = toy(FIB, "fib", NAIVE_FIB, inputs=[[3], [30], [25]], pre=lambda n: 0 <= n <= 40)
    known, calls = _recording(known)
    [finding] = defects.performance(known, known.original(known.inputs))
    assert finding.witness == [30] and len(calls) == 1
    # No costly input and no costly probe: no finding.
    cheap = toy(FIB, "fib", FAST_FIB, inputs=[[3]], pre=lambda n: 0 <= n <= 40)
    assert defects.performance(cheap, cheap.original(cheap.inputs)) == []


def test_a_probe_out_of_time_without_a_fixed_ground_truth_is_named_so() -> None:
    # A probe that times out (work the line count does not see) is the lead, and the
    # finding says it ran out of time, not that it ran too many lines.
    work = toy(FIB, "fib", FAST_FIB, inputs=[[3]], pre=lambda n: 0 <= n <= 40)
    work, calls = _recording(work, timeouts=[[40]])
    [finding] = defects.performance(work, work.original(work.inputs))
    assert finding.witness == [40] and finding.actual == "no answer within the time limit"
    assert "run out of time before 3000 Python lines" in finding.explanation
    assert calls[1] == ([[40], [37]], defects.Thrift(costly=1, lines=0), SMALL.seconds)


def test_candidates_the_suite_vouches_for_run_only_against_a_fixed_ground_truth() -> None:
    inputs = [[3], [5], [8], [13]]
    # No fixed ground truth: the original is the ground truth that answered the suite's
    # inputs (from index 1 on), so only the task's own input runs.
    alone, calls = _recording(replace(toy(FIB, "fib", FAST_FIB, inputs=inputs),
                                      answered_from=1))
    outcomes = defects.originals(alone)
    assert [c[0] for c in calls] == [[[3]]]
    assert outcomes[0].value == 2 and outcomes[1:] == [defects.ANSWERED] * 3
    # With a fixed ground truth, the original is other code: every candidate runs.
    fixed, calls = _recording(replace(toy(FIB, "fib", NAIVE_FIB, FAST_FIB, inputs=inputs),
                                      answered_from=1))
    assert [o.value for o in defects.originals(fixed)] == [2, 5, 21, 233]
    assert [c[0] for c in calls] == [inputs]


def _fib(n: int) -> int:
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def test_probes_reach_the_contract_bound_and_primes_below_it() -> None:
    contract = replace(load_contract(toy(FIB, "fib", FAST_FIB).task, None),
                       pre=lambda n: 0 <= n <= 1000)
    assert defects.largest_valid([5], 0, contract) == 1000
    assert [args[0] for args in defects.probes([5], contract)] == [100, 97, 1000, 997, 1000, 997]
    unbounded = replace(contract, pre=lambda n: n >= 0)
    assert [args[0] for args in defects.probes([5], unbounded)][-2:] == [10**12, 999999999989]


def _trial_division(n: int) -> bool:
    return n >= 2 and all(n % d for d in range(2, int(n ** 0.5) + 1))


def test_primality_agrees_with_trial_division() -> None:
    assert [n for n in range(3000) if defects._is_prime(n)] == \
        [n for n in range(3000) if _trial_division(n)]
    # Near the probes' ceiling, Carmichael numbers and strong pseudoprimes to small bases.
    assert [n for n in range(10**12 - 100, 10**12 + 1) if defects._is_prime(n)] == \
        [999999999937, 999999999959, 999999999961, 999999999989]
    assert not any(defects._is_prime(n) for n in (561, 1105, 3215031751, 2152302898747,
                                                3474749660383, 341550071728321))
    assert defects._largest_prime(10**6) == 999983 and defects._largest_prime(1) is None


SQUARE_DOC = '''def square(x: int) -> int:
    """Square x.
    >>> square(3)
    9
    square(4) == 16
    square(5) ➞ 25
    square(6) should return 36.
    square(2) => 4
    """
'''


def test_docstring_examples_are_parsed_with_their_outputs() -> None:
    cases = defects.docstring_cases(SQUARE_DOC, "square")
    assert cases == [([3], 9), ([4], 16), ([5], 25), ([6], 36), ([2], 4)]


def test_docstring_mismatch_is_found_and_settled_by_a_fix() -> None:
    buggy = "def square(x):\n    return x * x if x < 5 else x + x\n"
    fixed = "def square(x):\n    return x * x\n"
    [finding] = defects.docstring(toy(SQUARE_DOC, "square", buggy, fixed))
    assert (finding.witness, finding.expected, finding.actual) == ([5], 25, 10)
    assert finding.category == "docstring-mismatch" and finding.settled
    # 2 and 2.0 are the same number in a docstring.
    floats = "def square(x):\n    return float(x * x)\n"
    assert defects.docstring(toy(SQUARE_DOC, "square", floats)) == []


def test_review_confirms_dismisses_or_leaves_for_review() -> None:
    fixed = {"Toy/1": FixedSolution("Toy/1", "", "bad-logic", [1], "why", "f/Toy_1.py")}
    findings = [
        Finding("Toy/1", "bad-logic", "differential", [1], 2, 3, "x", settled=True),
        Finding("Toy/1", "docstring-mismatch", "docstring", [1], 2, 3, "x", settled=False),
        Finding("Toy/2", "docstring-mismatch", "docstring", [1], 2, 3, "x"),
        Finding("Toy/3", "edge-case", "raises", [1], 2, 3, "x"),
    ]
    reviewed = defects.review(findings, fixed, {"Toy/2": {"docstring": "the example is wrong"}})
    assert [f.status for f in reviewed] == ["confirmed", "unreviewed", "dismissed", "unreviewed"]
    assert reviewed[2].review == "the example is wrong"
    assert defects.defective_tasks(reviewed) == ["Toy/1"]
    text = defects.markdown(reviewed, {"Toy/1": "f", "Toy/2": "g", "Toy/3": "h"}, fixed)
    assert "| Toy/1 | bad-logic | `f(1)` | `2` | `3` | differential | why |" in text
    assert "## Awaiting review" in text and "## Dismissed after review" in text
    record = defects.finding_record(reviewed[0], "f")
    assert {"task_id", "category", "witness", "expected", "actual", "explanation"} <= set(record)
    # Tuples are written as JSON lists, the way artifacts write inputs; `call` keeps them.
    tupled = defects.finding_record(replace(reviewed[0], witness=[(0, 7)], expected=(1, 2)), "f")
    assert (tupled["witness"], tupled["expected"], tupled["call"]) == ([[0, 7]], [1, 2],
                                                                      "f((0, 7))")


def test_a_fixed_ground_truth_no_signal_confirms_says_why() -> None:
    fixed = {"Toy/1": FixedSolution("Toy/1", "", "edge-case", [-1, 0], "0 has no sign",
                                    "f/Toy_1.py"),
             "Toy/2": FixedSolution("Toy/2", "", "bad-logic", [3], "off by one", "f/Toy_2.py")}
    text = defects.markdown([], {"Toy/1": "signs", "Toy/2": "g"}, fixed,
                          {"Toy/1": "breaks a premise of the base inputs: no zero value"})
    assert ("- Toy/1 (edge-case): its witness `signs(-1, 0)` is not a valid input (breaks a "
            "premise of the base inputs: no zero value): the suite holds no input of that "
            "kind, so the defect cannot decide a verdict; the fixed ground truth stays. "
            "Reason: 0 has no sign") in text
    assert ("- Toy/2 (bad-logic): its witness `g(3)` is valid, but no input of the suite "
            "shows the defect. Reason: off by one") in text


def test_sandbox_runner_counts_lines_and_reports_the_cost() -> None:
    task = Task(task_id="Toy/1", prompt=FIB, entry_point="fib", solution=FAST_FIB,
                base_inputs=(), original_solution=NAIVE_FIB)
    with Sandbox(1) as sandbox:
        run = defects.sandbox_runner(task, sandbox)
        naive = run(task.original, [[10], [25]], 5000, 10.0)
        fast = run(task.solution, [[25]], 5000, 10.0)
    assert naive[0].status is Status.OK and naive[0].value == 55
    assert naive[1].status is Status.ERROR and COST_EXCEEDED in (naive[1].error or "")
    assert fast[0].status is Status.OK and fast[0].value == 75025


@pytest.mark.parametrize("name, model", [
    ("Aeala_VicUnlocked-alpaca-65b-4bit_ALPACA_MD_RECALC.jsonl",
     "Aeala_VicUnlocked-alpaca-65b-4bit"),
    ("samples.jsonl", "samples"),
    ("TheBloke_open-llama-7b-open-instruct-GPTQ_ALPACA_PREFIX_openllama.jsonl",
     "TheBloke_open-llama-7b-open-instruct-GPTQ"),
    ("togethercomputer_RedPajama-INCITE-7B-Instruct_Q_A_MARKDOWN.jsonl",
     "togethercomputer_RedPajama-INCITE-7B-Instruct"),
    ("TheBloke_falcon-7b-instruct-GPTQ_FALCON_.jsonl", "TheBloke_falcon-7b-instruct-GPTQ"),
    ("some/folder/codellama_7b_python.jsonl", "codellama_7b_python"),
])
def test_sample_files_of_one_model_share_its_name(name: str, model: str) -> None:
    from evalplus_ng.tasks.samples import model_of

    assert model_of(name) == model


def _fib_in_sandbox_as_in_process(inputs: list[Args], thrift: defects.Thrift) -> list[Any]:
    """Naive fib's outcomes on ``inputs`` in the sandbox, asserted to match (status, value,
    not examined, over budget) those of a fully counted in-process run."""
    task = Task(task_id="Toy/1", prompt=FIB, entry_point="fib", solution=FAST_FIB,
                base_inputs=(), original_solution=NAIVE_FIB)
    with Sandbox(1) as sandbox:
        counted = defects.sandbox_runner(task, sandbox)(task.original, inputs, 5000, 10.0,
                                                      thrift=thrift)
    reference = run_in_process("fib")(task.original, inputs, 5000, 10.0, thrift=thrift)

    def shape(outcomes: Any) -> list[Any]:
        return [(o.status, o.value, defects.NOT_EXAMINED in (o.error or ""),
                 COST_EXCEEDED in (o.error or "")) for o in outcomes]

    assert shape(counted) == shape(reference)
    return list(counted)


def test_thrift_examines_the_same_inputs_as_a_fully_counted_run() -> None:
    # Naive fib runs about 3 * fib(n) lines: n = 8 fits 300 lines, n = 12 fits 5,000,
    # n = 16 and up need more. After two inputs over 5,000 lines, later inputs are
    # examined only within 300: 8 still is, 12 no longer.
    counted = _fib_in_sandbox_as_in_process([[12], [20], [8], [22], [12], [8], [30], [2]],
                                            defects.Thrift(costly=2, lines=300))
    assert [o.value for o in counted] == [144, None, 21, None, None, 21, None, 1]
    assert [defects.NOT_EXAMINED in (o.error or "") for o in counted] == \
        [False, False, False, False, True, False, True, False]


def test_thrift_without_lines_ends_the_run_at_the_costly_input() -> None:
    counted = _fib_in_sandbox_as_in_process([[8], [12], [20], [8], [30], [2]],
                                            defects.Thrift(costly=1, lines=0))
    assert [o.value for o in counted[:2]] == [21, 144]
    assert COST_EXCEEDED in (counted[2].error or "") and not defects._over_budget(counted[3])
    assert [defects.NOT_EXAMINED in (o.error or "") for o in counted] == \
        [False, False, False, True, True, True]


def test_a_counted_run_prices_c_level_work_however_fast_it_runs() -> None:
    # 'b' in s scans s in C at several characters a nanosecond but costs len(s) / 16
    # units: four times the budget here. Its untraced call ends long before a budget of
    # lines could have run, so an untraced first pass would have let it through (on a
    # fast enough machine): the verdict must be the price, the same on every machine.
    code = "def f(s):\n    return 'b' in s\n"
    task = Task(task_id="Toy/1", prompt="def f(s: str) -> bool:\n    pass\n",
                entry_point="f", solution=code, base_inputs=())
    with Sandbox(1) as sandbox:
        over, within = defects.sandbox_runner(task, sandbox)(
            code, [["a" * 640_000], ["a" * 16_000]], 10_000, 10.0,
            thrift=defects.Thrift(costly=10, lines=1000))
    assert COST_EXCEEDED in (over.error or "") and defects._over_budget(over)
    assert (within.status, within.value) == (Status.OK, False)
