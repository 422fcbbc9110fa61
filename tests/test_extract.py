"""Tests for evalplus_ng.tasks.extract: EvalPlus 0.3.1's sanitizer, on Python's parser.

The expected texts were checked against ``evalplus.sanitize.sanitize`` 0.3.1 itself
(tree-sitter 0.25): what it keeps, what it drops, and nothing repaired.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalplus_ng.records import Task
from evalplus_ng.tasks.extract import code_extract, extract, program
from evalplus_ng.tasks.samples import (
    Sanitizing,
    read_samples_of,
    repaired_positions,
    same_program,
)
from evalplus_ng.tasks.sanitize import prepare

PROMPT = '''import math


def area(r: float) -> float:
    """ Area of a circle of radius r. """
'''


def _brute_code_extract(text: str) -> str:
    """EvalPlus's ``code_extract`` as written: every run of two or more lines parsed."""
    lines = text.split("\n")
    best, pair = 0, (0, 0)
    for i in range(len(lines)):
        for j in range(i + 1, len(lines)):
            run = "\n".join(lines[i : j + 1])
            try:
                ast.parse(run)
            except (SyntaxError, MemoryError, ValueError):
                continue
            count = sum(1 for line in lines[i : j + 1] if line.strip())
            if count > best:
                best, pair = count, (i, j)
    return "\n".join(lines[pair[0] : pair[1] + 1])


# --- code_extract ------------------------------------------------------------------------------


def test_the_longest_parseable_run_wins_over_prose_around_it() -> None:
    text = "Here is the code:\n```python\ndef f(x):\n    return x\n```\nIt returns x."
    assert code_extract(text) == "def f(x):\n    return x"


def test_the_run_with_more_non_blank_lines_wins_and_the_first_on_a_tie() -> None:
    one = "def f():\n    return 1\n"
    two = "def g():\n    y = 2\n    return y\n"
    assert code_extract(f"{one}Then:\n{two}") == two.rstrip("\n")
    # Equal counts: the first run, the shortest of its ties (no trailing blank line).
    assert code_extract(f"{one}Or:\n{one}") == one.rstrip("\n")


def test_nothing_parses_gives_the_first_line() -> None:
    assert code_extract("Sorry,\nI cannot (help") == "Sorry,"
    assert code_extract("return x") == "return x"  # one line: no run of two


def test_an_indented_start_is_skipped_but_comments_before_it_count() -> None:
    text = "# a\n# b\n# c\n    return 1\nx = 1\n"
    assert code_extract(text) == _brute_code_extract(text) == "# a\n# b\n# c"


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([
    "", "   ", "def f(x):", "    return x", "    y = (", "    1)", "x = (", ")", "# note",
    "    # note", "Here you go:", "```python", "```", "class A:", "    pass", "'''", "\\",
    "\tif x:", "        return 2", "print(f(1))",
]), max_size=9))
def test_code_extract_is_evalplus_code_extract(lines: list[str]) -> None:
    text = "\n".join(lines)
    assert code_extract(text) == _brute_code_extract(text)


# --- what is kept ------------------------------------------------------------------------------


def test_imports_and_reached_definitions_are_kept_in_evalplus_order() -> None:
    code = '''from typing import List
LIMIT = 10
UNUSED = 3


def helper(x):
    return x * LIMIT


def other():
    return 0


def f(xs: List[int]):
    return [helper(x) for x in xs]


import os
print(f([1]))
if __name__ == "__main__":
    f([2])
'''
    assert extract(code, "f") == (
        "from typing import List\nimport os\nLIMIT = 10\n"
        "def helper(x):\n    return x * LIMIT\n"
        "def f(xs: List[int]):\n    return [helper(x) for x in xs]")


def test_names_in_attributes_and_keywords_reach_definitions_too() -> None:
    code = ("class P:\n    size = 1\n\n\nclass Q:\n    pass\n\n\ndef size():\n    return 2\n"
            "\n\ndef f(p: P):\n    return p.size\n")
    assert extract(code, "f") == ("class P:\n    size = 1\ndef size():\n    return 2\n"
                                  "def f(p: P):\n    return p.size")


def test_decorated_functions_functions_without_return_and_future_imports_go() -> None:
    code = '''from __future__ import annotations
import functools


@functools.lru_cache(None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def log(x):
    print(x)


def f(n):
    log(n)
    return fib(n)
'''
    assert extract(code, "f") == "import functools\ndef f(n):\n    log(n)\n    return fib(n)"


def test_the_first_definition_of_a_name_counts() -> None:
    code = "def f(x):\n    return 1\n\n\ndef f(x):\n    return 2\n"
    assert extract(code, "f") == "def f(x):\n    return 1"
    # A function without a return does not take its name.
    code = "def f(x):\n    pass\n\n\ndef f(x):\n    return 2\n"
    assert extract(code, "f") == "def f(x):\n    return 2"


def test_assignments_are_named_by_a_plain_first_target() -> None:
    code = "a = b = 1\nc, d = 2, 3\nn: int = 4\nk += 1\n\n\ndef f():\n    return a + b + c + n\n"
    assert extract(code, "f") == "a = b = 1\nn: int = 4\ndef f():\n    return a + b + c + n"


def test_imports_are_kept_even_when_nothing_else_is() -> None:
    # The prompt's function has no return: only the import is kept.
    assert extract(PROMPT + "\nI do not know.\n", "area") == "import math"


# --- the program judged ------------------------------------------------------------------------


def test_a_completion_follows_the_prompt_and_a_newline() -> None:
    assert program("    return math.pi * r * r\n", PROMPT, "area", solution=False) == (
        'import math\ndef area(r: float) -> float:\n    """ Area of a circle of radius r. """\n'
        "\n    return math.pi * r * r")


def test_a_solution_is_sanitized_without_the_prompt() -> None:
    solution = "def area(r):\n    return 3 * r * r\n\n\nassert area(1) == 3\n"
    assert program(solution, PROMPT, "area", solution=True) == (
        "def area(r):\n    return 3 * r * r")


def _area(code: str) -> object:
    namespace: dict[str, object] = {}
    exec(code, namespace)  # trusted literals only
    area = namespace["area"]
    assert callable(area)
    return area(2)


def test_a_forgotten_import_stays_forgotten_and_only_repair_adds_it() -> None:
    answer = "def area(r):\n    return factorial(r)\n"
    plain = program(answer, PROMPT, "area", solution=False)
    assert plain == "import math\n" + answer.rstrip("\n")
    with pytest.raises(NameError):
        _area(plain)
    repaired = prepare(answer, PROMPT, "area", False)
    assert "from math import factorial" in repaired and _area(repaired) == 2


def test_a_body_in_markdown_is_not_recovered() -> None:
    # The prompt (a function with only a docstring) is as long a run as the fenced code
    # and comes first: nothing of it is kept, so the program is the prompt itself.
    prompt = 'def area(r: float) -> float:\n    """ Area of a circle of radius r. """\n'
    answer = "Sure:\n```python\ndef area(r):\n    return 3 * r * r\n```\n"
    assert program(answer, prompt, "area", solution=False) == prompt.rstrip("\n")
    assert _area(program(answer, prompt, "area", solution=False)) is None
    assert _area(prepare(answer, prompt, "area", False)) == 12


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("def x():\n\t ```#'\"()[]=+1abr_\\"))))
def test_never_raises_and_is_deterministic(completion: str) -> None:
    assert program(completion, PROMPT, "area", False) == program(completion, PROMPT, "area",
                                                                 False)


# --- samples files -----------------------------------------------------------------------------


def test_samples_read_three_ways_and_the_programs_repairs_changed(tmp_path: Path) -> None:
    task = Task("T/0", PROMPT, "area", "    return math.pi * r * r\n", ([1.0],))
    rows = ["    return math.pi * r * r\n",  # one program either way
            "    return factorial(r)\n",  # repaired: the import added
            "```python\ndef area(r):\n    return 3 * r * r\n```\n"]  # the prompt is longer
    path = tmp_path / "s.jsonl"
    path.write_text("".join(json.dumps({"task_id": "T/0", "completion": row}) + "\n"
                            for row in rows), encoding="utf-8")
    tasks = {"T/0": task}
    raw, _ = read_samples_of(path, tasks, sanitizing=Sanitizing.NONE)
    assert [s.code for s in raw] == [PROMPT + row for row in rows]
    plain, _ = read_samples_of(path, tasks, sanitizing=Sanitizing.EVALPLUS)
    assert [s.code for s in plain] == [program(row, PROMPT, "area", False) for row in rows]
    repaired, _ = read_samples_of(path, tasks, sanitizing=Sanitizing.REPAIR)
    assert [s.code for s in repaired] == [prepare(row, PROMPT, "area", False) for row in rows]
    assert repaired[0].code != plain[0].code  # two texts, one syntax tree
    assert repaired_positions(repaired, plain) == [1, 2]
    assert same_program("x = 1  # one\n", "x = (1)") == "same"
    assert same_program("x = 1", "x = 2") == same_program("x = (", "x = (") == ""
