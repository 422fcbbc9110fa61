"""HumanEval/78 hex_key: a string of hexadecimal digits 0-9 and uppercase A-F, or the empty string."""

from typing import List


def pre(num: str | List[str]) -> bool:
    if isinstance(num, list):
        # base input [] violates the docstring (a list, not a string); only [] is accepted.
        return num == []
    return all(ch in "0123456789ABCDEF" for ch in num)
