"""What the statements' Input sections say, checked against the tests' inputs.

For each of CodeContests' stdin tasks (``../shared/datasets/stdio/tasks.jsonl.gz``) it reads
the prompt with :func:`evalplus_ng.generate.programs.statement.stated_input` and counts the tasks
with bounds, line namings, alphabets and guarantees. Then a soundness check on every test
input (public and hidden; CodeContests' "generated" tests are mutations and may be invalid,
so each violation is listed to be looked at):

* the **first line**: where the statement names the tokens of its first line (``lines[0]``,
  "the first line contains two integers n and m") and the input's first line has that many
  tokens, each token is within the bounds parsed for its name (numeric sides, and a side
  given by another name on that line);
* **list lines**: a line the statement places exactly ("the second line contains n integers
  a_1, ..., a_n", every line before it described singly) has as many tokens as its stated
  length (where the first line gives it) and each token is within the list's bounds;
* **strings**: a string on such a line uses only its stated alphabet and has a stated length.

    python benchmarks/stdio_statements.py [../shared/datasets/stdio] [--show 40]
                                          [--out report.json]
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from evalplus_ng.generate.programs.statement import Bound, LineSpec, Stated, stated_input

DEFAULT_FOLDER = Path(__file__).resolve().parents[2] / "shared" / "datasets" / "stdio"


@dataclass(frozen=True)
class Violation:
    """One token of one test outside what the statement says."""

    task_id: str
    test: int
    public: bool
    check: str
    name: str
    value: str
    bound: str


def _number(token: str) -> Fraction | None:
    try:
        return Fraction(token)
    except (ValueError, ZeroDivisionError):
        return None


def _describe(bound: Bound) -> str:
    return (f"[{bound.low}{'|' + str(bound.low_ref) if bound.low_ref else ''}, "
            f"{bound.high}{'|' + str(bound.high_ref) if bound.high_ref else ''}]"
            f"{' length' if bound.length else ''}")


def _outside(bound: Bound, value: Fraction, env: Mapping[str, Fraction]) -> bool:
    return not bound.admits(value, env)


def _exact_lines(stated: Stated) -> dict[int, int]:
    """Described line index -> physical line index, for the lines placed exactly: the
    first ones, each described alone (no repetition, not inside a test case)."""
    placed: dict[int, int] = {}
    for index, line in enumerate(stated.lines):
        if line.repeat is not None or line.per_test or line.ordinal != index + 1:
            break
        placed[index] = index
    return placed


def check_task(task: Mapping[str, Any], stated: Stated,
               counts: Counter[str]) -> list[Violation]:
    """Every violation of the statement's first-line and list-line bounds in the task's
    tests; ``counts`` gathers how many checks were made."""
    out: list[Violation] = []
    placed = _exact_lines(stated)
    for test_index, test in enumerate(task["tests"]):
        rows = test["input"].split("\n")
        env: dict[str, Fraction] = {}
        for index in placed:
            spec: LineSpec = stated.lines[index]
            if index >= len(rows):
                break
            tokens = rows[index].split()
            if spec.list_length is None:
                if not spec.names or len(tokens) != len(spec.names):
                    counts["shape mismatch (scalars)"] += 1
                    continue
                for name, token in zip(spec.names, tokens, strict=True):
                    value = _number(token)
                    if value is not None:
                        env[name] = value
                pairs = list(zip(spec.names, tokens, strict=True))
                check = "first line" if index == 0 else "scalar line"
            else:
                want = spec.list_length.value(env) if spec.names else None
                if spec.kind == "string" and len(tokens) == 1:
                    pairs = [(spec.names[0] if spec.names else "", tokens[0])]
                    if want is not None:
                        counts["list lengths checked"] += 1
                        if len(tokens[0]) != want:
                            out.append(Violation(task["task_id"], test_index, test["public"],
                                                 "string length", pairs[0][0],
                                                 str(len(tokens[0])), str(spec.list_length)))
                    check = "string line"
                else:
                    if want is not None:
                        counts["list lengths checked"] += 1
                        if len(tokens) != want:
                            out.append(Violation(task["task_id"], test_index, test["public"],
                                                 "list length", spec.names[0],
                                                 str(len(tokens)), str(spec.list_length)))
                    pairs = [(spec.names[0], token) for token in tokens] if spec.names else []
                    check = "list line"
            for name, token in pairs:
                value = _number(token)
                if spec.kind == "string" or value is None:
                    alphabet = stated.alphabet(name)
                    if alphabet is not None:
                        counts["alphabet checks"] += 1
                        extra = set(token) - set(alphabet)
                        if extra:
                            out.append(Violation(task["task_id"], test_index, test["public"],
                                                 "alphabet", name, token[:40],
                                                 "".join(sorted(extra))))
                    bound = stated.bound(name, length=True, line=index)
                    if bound is not None:
                        counts["length checks"] += 1
                        if _outside(bound, Fraction(len(token)), env):
                            out.append(Violation(task["task_id"], test_index, test["public"],
                                                 "length", name, str(len(token)),
                                                 _describe(bound)))
                    continue
                indexed = spec.list_length is not None or spec.repeat is not None
                bound = stated.bound(name, indexed=indexed, line=index) or stated.bound(
                    name, line=index)
                if bound is None:
                    continue
                counts[f"{check} checks"] += 1
                if _outside(bound, value, env):
                    out.append(Violation(task["task_id"], test_index, test["public"], check,
                                         name, token, _describe(bound)))
    return out


def summary(tasks: list[dict[str, Any]]) -> tuple[Counter[str], list[Violation]]:
    """Counts over every task and every violation."""
    counts: Counter[str] = Counter()
    violations: list[Violation] = []
    for task in tasks:
        stated = stated_input(task["prompt"])
        counts["tasks"] += 1
        counts["tests"] += len(task["tests"])
        counts["tasks with a bound"] += bool(stated.bounds)
        counts["tasks with a numeric bound"] += any(
            b.low is not None or b.high is not None for b in stated.bounds)
        first = stated.lines[0] if stated.lines else None
        counts["tasks naming the first line"] += bool(
            first and first.ordinal == 1 and first.repeat is None and first.names)
        counts["tasks with a placed list line"] += any(
            stated.lines[i].list_length is not None for i in _exact_lines(stated))
        counts["tasks with an alphabet"] += bool(stated.alphabets)
        counts["tasks with a guarantee"] += bool(stated.guarantees)
        counts["tasks with several test cases"] += stated.test_count is not None
        found = check_task(task, stated, counts)
        counts["tasks with a violation"] += bool(found)
        violations.extend(found)
    return counts, violations


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, default=DEFAULT_FOLDER)
    parser.add_argument("--show", type=int, default=40, help="violations to print")
    parser.add_argument("--out", type=Path, default=None, help="write a JSON report here")
    args = parser.parse_args()
    with gzip.open(args.folder / "tasks.jsonl.gz", "rt", encoding="utf-8") as handle:
        tasks = [json.loads(line) for line in handle]
    counts, violations = summary(tasks)
    for key, value in counts.items():
        print(f"{key}: {value}")
    print(f"violations: {len(violations)} in {len({v.task_id for v in violations})} tasks "
          f"({sum(v.public for v in violations)} on public tests)")
    by_task = Counter((v.task_id, v.check, v.name) for v in violations)
    for (task_id, check, name), number in by_task.most_common(args.show):
        first = next(v for v in violations if (v.task_id, v.check, v.name) ==
                     (task_id, check, name))
        print(f"  {task_id} {check} {name}: {number} tests, e.g. test {first.test} "
              f"value {first.value} bound {first.bound}")
    if args.out is not None:
        args.out.write_text(json.dumps({"counts": counts, "violations": [
            v.__dict__ for v in violations]}, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
