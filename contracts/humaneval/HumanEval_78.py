"""HumanEval/78 hex_key: a string of hexadecimal digits 0-9 and uppercase A-F, or the empty string."""

from typing import List


def pre(num: str | List[str]) -> bool:
    if isinstance(num, list):
        # base input [] violates the docstring (a list, not a string); only [] is accepted.
        return num == []
    # The docstring: "the input is always correct or empty string", "A,B,C,D,E,F are always uppercase".
    return all(ch in "0123456789ABCDEF" for ch in num)
