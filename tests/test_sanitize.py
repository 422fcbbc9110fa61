"""Tests for evalplus_ng.tasks.sanitize: messy completions become runnable, test-free modules."""

from __future__ import annotations

import ast
import builtins
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalplus_ng.tasks.sanitize import sanitize

# A HumanEval-style prompt: imports, a signature and a docstring, no body.
SUM_PROMPT = '''from typing import List


def weighted_sum(values: List[int], weight: int) -> int:
    """ Return the sum of values, each multiplied by weight.
    >>> weighted_sum([1, 2], 3)
    9
    """
'''

# A prompt with a helper the tests of the entry point rely on (like HumanEval/38 or /50).
CIPHER_PROMPT = '''def encode(s: str) -> str:
    """ Shift every lowercase letter by 3. """
    return "".join(chr((ord(c) - 97 + 3) % 26 + 97) for c in s)


def decode(s: str) -> str:
    """ Undo encode.
    >>> decode(encode("abc"))
    'abc'
    """
'''

SUM_BODY = "    total = 0\n    for v in values:\n        total += v * weight\n    return total\n"


def _run(source: str) -> dict[str, Any]:
    """Exec source as a script in a fresh namespace where driver calls fail loudly."""

    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("top-level test code was executed")

    fake_builtins = dict(vars(builtins))
    fake_builtins.update(print=forbidden, input=forbidden, exit=forbidden, quit=forbidden)
    namespace: dict[str, Any] = {"__builtins__": fake_builtins, "__name__": "__main__"}
    exec(compile(source, "<sanitized>", "exec"), namespace)
    return namespace


def _top_level_kinds(source: str) -> set[str]:
    """Names of the node types of the module's top-level statements."""
    return {type(node).__name__ for node in ast.parse(source).body}


def _assert_sum_works(source: str) -> None:
    """The sanitized module defines a correct weighted_sum."""
    namespace = _run(source)
    assert namespace["weighted_sum"]([1, 2, 3], 2) == 12
    assert namespace["weighted_sum"]([], 5) == 0


# --- function bodies -------------------------------------------------------------------------


def test_body_appended_to_prompt() -> None:
    result = sanitize(SUM_BODY, SUM_PROMPT, "weighted_sum")
    _assert_sum_works(result)
    assert "Return the sum of values" in result  # the prompt's own def is completed, not replaced


@pytest.mark.parametrize(
    "body",
    [
        # the prompt ended with the indentation, so the first line came back unindented
        "total = 0\n    for v in values:\n        total += v * weight\n    return total\n",
        # first line of a block statement unindented
        "for v in values:\n        pass\n    return sum(values) * weight\n",
        "  total = 0\n  for v in values:\n    total += v * weight\n  return total\n",
        "        total = 0\n        for v in values:\n            total += v * weight\n"
        "        return total\n",
        "\ttotal = 0\n\tfor v in values:\n\t\ttotal += v * weight\n\treturn total\n",
        # a body written with no indentation at all
        "total = 0\nfor v in values:\n    total += v * weight\nreturn total\n",
    ],
    ids=[
        "first-unindented",
        "first-block-unindented",
        "two-spaces",
        "eight-spaces",
        "tabs",
        "flat",
    ],
)
def test_body_with_bad_indentation(body: str) -> None:
    _assert_sum_works(sanitize(body, SUM_PROMPT, "weighted_sum"))


def test_body_followed_by_driver_code_and_a_helper() -> None:
    body = (
        "    return scale(sum(values), weight)\n"
        "\n\n"
        "def scale(x, k):\n"
        "    return x * k\n"
        "\n\n"
        'if __name__ == "__main__":\n'
        "    print(weighted_sum([1], 1))\n"
        "print(weighted_sum([2], 2))\n"
        "assert weighted_sum([1], 1) == 99\n"
        "weighted_sum([3], 3)\n"
    )
    result = sanitize(body, SUM_PROMPT, "weighted_sum")
    _assert_sum_works(result)
    assert _top_level_kinds(result) == {"ImportFrom", "FunctionDef"}


def test_prose_before_an_indented_body() -> None:
    completion = "Here is the implementation:\n    return sum(values) * weight\nIt is O(n)."
    _assert_sum_works(sanitize(completion, SUM_PROMPT, "weighted_sum"))


# --- whole functions -------------------------------------------------------------------------


def test_whole_function_keeps_prompt_helpers() -> None:
    completion = (
        "def decode(s: str) -> str:\n"
        '    return "".join(chr((ord(c) - 97 - 3) % 26 + 97) for c in s)\n'
    )
    namespace = _run(sanitize(completion, CIPHER_PROMPT, "decode"))
    assert namespace["decode"](namespace["encode"]("hello")) == "hello"


def test_whole_function_redefining_a_prompt_helper_wins_once() -> None:
    completion = (
        "def encode(s: str) -> str:\n"
        "    return s[::-1]\n\n\n"
        "def decode(s: str) -> str:\n"
        "    return s[::-1]\n"
    )
    result = sanitize(completion, CIPHER_PROMPT, "decode")
    namespace = _run(result)
    assert namespace["encode"]("abc") == "cba"
    assert result.count("def encode") == 1


def test_whole_function_with_helpers_imports_and_constants() -> None:
    completion = (
        "import math\n"
        "from solution import weighted_sum\n"
        "FACTOR = 1\n"
        "CACHE = {}\n\n"
        "def _mul(a, b):\n"
        "    return a * b * FACTOR\n\n"
        "def weighted_sum(values, weight):\n"
        "    return int(math.fsum(_mul(v, weight) for v in values))\n\n"
        "result = weighted_sum([1, 2], 3)\n"
        "print(result)\n"
    )
    result = sanitize(completion, SUM_PROMPT, "weighted_sum")
    _assert_sum_works(result)
    assert "from solution" not in result  # a driver import of the answer itself is dropped
    assert "result =" not in result  # a call of the entry point is test code
    assert "FACTOR = 1" in result and "CACHE = {}" in result


def test_computed_constant_kept_when_the_function_needs_it() -> None:
    completion = (
        "def sieve(n):\n"
        "    return [p for p in range(2, n) if all(p % d for d in range(2, p))]\n\n"
        "PRIMES = set(sieve(50))\n"
        "unused = sieve(10)\n\n"
        "def weighted_sum(values, weight):\n"
        "    return sum(v for v in values if v not in PRIMES) * weight + 0 * len(PRIMES)\n"
    )
    result = sanitize(completion, SUM_PROMPT, "weighted_sum")
    assert "PRIMES = set(sieve(50))" in result
    assert "unused" not in result
    assert _run(result)["weighted_sum"]([1, 4, 5], 2) == 10


def test_recursion_limit_kept_and_main_call_dropped() -> None:
    completion = (
        "import sys\n"
        "sys.setrecursionlimit(10000)\n\n"
        "def weighted_sum(values, weight):\n"
        "    return values[0] * weight + weighted_sum(values[1:], weight) if values else 0\n\n"
        "def main():\n"
        "    print(weighted_sum([1, 2], 3))\n\n"
        "main()\n"
    )
    result = sanitize(completion, SUM_PROMPT, "weighted_sum")
    _assert_sum_works(result)
    assert "sys.setrecursionlimit(10000)" in result
    assert "\nmain()" not in result


def test_prompt_constants_survive_and_full_solutions_are_not_duplicated() -> None:
    prompt = 'VOWELS = "aeiou"\n\n\ndef count_vowels(s: str) -> int:\n    """ Count vowels. """\n'
    solution = prompt + "    return sum(c in VOWELS for c in s)\n"
    result = sanitize(solution, prompt, "count_vowels")
    assert _run(result)["count_vowels"]("banana") == 3
    assert result.count("VOWELS =") == 1 and result.count("def count_vowels") == 1
    redefined = 'VOWELS = "a"\n\ndef count_vowels(s):\n    return sum(c in VOWELS for c in s)\n'
    assert _run(sanitize(redefined, prompt, "count_vowels"))["count_vowels"]("banana") == 3


def test_doctest_and_input_driver_is_dropped() -> None:
    completion = (
        "def weighted_sum(values, weight):\n"
        "    return sum(values) * weight\n\n"
        "import doctest\n"
        "doctest.testmod()\n"
        "n = int(input())\n"
        "data = [int(x) for x in input().split()]\n"
    )
    result = sanitize(completion, SUM_PROMPT, "weighted_sum")
    _assert_sum_works(result)
    assert "testmod" not in result and "input" not in result


# --- markdown and chatter ----------------------------------------------------------------------


def test_fenced_code_wrapped_in_prose() -> None:
    completion = (
        "### Response:\nSure! Here is a solution:\n\n"
        "```python\n"
        "def weighted_sum(values: List[int], weight: int) -> int:\n"
        "    return sum(values) * weight\n"
        "```\n\n"
        "This multiplies the sum by the weight. Example usage:\n\n"
        "```python\n"
        "print(weighted_sum([1, 2, 3], 2))  # 12\n"
        "```\n"
        "### Instruction:\nNow write a function that..."
    )
    result = sanitize(completion, SUM_PROMPT, "weighted_sum")
    _assert_sum_works(result)
    assert "Sure!" not in result and "Instruction" not in result


def test_several_fences_last_definition_wins_and_helpers_are_pulled() -> None:
    completion = (
        "First a helper:\n```\ndef double(x):\n    return 2 * x\n```\n"
        "A first try (wrong):\n```python\ndef weighted_sum(values, weight):\n    return 0\n```\n"
        "Fixed version:\n```python\n"
        "def weighted_sum(values, weight):\n"
        "    return sum(values) * weight * double(1) // 2\n"
        "```\n"
    )
    result = sanitize(completion, SUM_PROMPT, "weighted_sum")
    _assert_sum_works(result)
    assert "return 0" not in result
    assert "def double" in result


def test_chat_markers_and_markdown_escapes() -> None:
    completion = (
        "def weighted\\_sum(values, weight):\n"
        "    return sum(values) * weight\n"
        "</s>\nUSER: thanks! now explain it"
    )
    _assert_sum_works(sanitize(completion, SUM_PROMPT, "weighted_sum"))


# --- imports -----------------------------------------------------------------------------------


def test_missing_typing_and_stdlib_imports_are_added() -> None:
    completion = (
        "def weighted_sum(values: List[int], weight: int) -> Optional[int]:\n"
        "    pairs: Tuple[int, ...] = tuple(values)\n"
        "    counts = Counter(pairs)\n"
        "    return int(math.prod([1])) * sum(k * c for k, c in counts.items()) * weight\n"
    )
    result = sanitize(completion, "def weighted_sum(values, weight):\n", "weighted_sum")
    _assert_sum_works(result)
    assert "import math" in result
    assert "from collections import Counter" in result
    assert "from typing import List, Optional, Tuple" in result


def test_no_import_added_for_names_that_are_bound() -> None:
    completion = (
        "def weighted_sum(values, weight):\n"
        "    string = 'unused'\n"
        "    math = len(string) * 0\n"
        "    return sum(values) * weight + math\n"
    )
    result = sanitize(completion, SUM_PROMPT, "weighted_sum")
    assert "import math" not in result and "import string" not in result


def test_future_import_stays_first() -> None:
    completion = (
        "from __future__ import annotations\n\n"
        "def weighted_sum(values: List[int], weight: int) -> Deque[int]:\n"
        "    return sum(values) * weight\n"
    )
    result = sanitize(completion, SUM_PROMPT, "weighted_sum")
    assert result.startswith("from __future__ import annotations\n")
    _assert_sum_works(result)


# --- broken code -------------------------------------------------------------------------------


def test_truncated_tail_is_trimmed() -> None:
    completion = (
        "def weighted_sum(values, weight):\n"
        "    return sum(values) * weight\n\n\n"
        "def another_helper(values):\n"
        '    """Compute something else.\n'
        "    >>> another_helper([1, 2"
    )
    _assert_sum_works(sanitize(completion, SUM_PROMPT, "weighted_sum"))


def test_trailing_explanation_without_fences() -> None:
    completion = (
        "def weighted_sum(values, weight):\n"
        "    return sum(values) * weight\n\n"
        "Explanation: the function sums the list and multiplies it, which is what's asked.\n"
    )
    _assert_sum_works(sanitize(completion, SUM_PROMPT, "weighted_sum"))


def test_nothing_parses_returns_prompt_plus_completion() -> None:
    completion = "def weighted_sum(values, weight):\n if values:\n return 1\n return 0"
    assert sanitize(completion, SUM_PROMPT, "weighted_sum") == SUM_PROMPT + completion


def test_empty_completion_leaves_the_stub() -> None:
    result = sanitize("", SUM_PROMPT, "weighted_sum")
    assert _run(result)["weighted_sum"]([1], 1) is None


def test_is_deterministic() -> None:
    completion = "```python\ndef weighted_sum(values, weight):\n    return 1\n```\nprint(1)"
    first = sanitize(completion, SUM_PROMPT, "weighted_sum")
    assert all(sanitize(completion, SUM_PROMPT, "weighted_sum") == first for _ in range(3))


# --- properties --------------------------------------------------------------------------------

_INDENTS = ["    ", "  ", "        ", "\t"]
_DRIVERS = [
    "",
    "\n\nprint(weighted_sum([1], 1))\n",
    '\n\nif __name__ == "__main__":\n    import doctest\n    doctest.testmod()\n',
    "\n\nassert weighted_sum([1], 1) == 1\n",
]


@settings(max_examples=60, deadline=None)
@given(
    factor=st.integers(-5, 5),
    offset=st.integers(-5, 5),
    indent=st.sampled_from(_INDENTS),
    unindent_first=st.booleans(),
    driver=st.sampled_from(_DRIVERS),
    fenced=st.booleans(),
)
def test_body_variants_behave_and_resanitizing_changes_nothing(
    factor: int, offset: int, indent: str, unindent_first: bool, driver: str, fenced: bool
) -> None:
    lines = [
        f"{indent}scaled = [v * {factor} for v in values]",
        f"{indent}return sum(scaled) * weight + {offset}",
    ]
    if unindent_first:
        lines[0] = lines[0].lstrip()
    completion = "\n".join(lines) + "\n" + driver
    if fenced:
        completion = f"Here you go:\n```python\n{completion}```\nDone."
    once = sanitize(completion, SUM_PROMPT, "weighted_sum")
    expected = sum(v * factor for v in [1, 2, 3]) * 2 + offset
    assert _run(once)["weighted_sum"]([1, 2, 3], 2) == expected
    twice = sanitize(once, SUM_PROMPT, "weighted_sum")
    assert twice == once
    assert _top_level_kinds(once) <= {"ImportFrom", "FunctionDef"}


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("def x():\n\t ```#'\"()[]=+1abr_\\"))))
def test_never_raises_and_output_parses_or_is_the_raw_input(completion: str) -> None:
    result = sanitize(completion, SUM_PROMPT, "weighted_sum")
    if result != SUM_PROMPT + completion:
        ast.parse(result)
