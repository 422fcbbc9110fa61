"""HumanEval/50 decode_shift: a string produced by encode_shift, i.e. only lowercase ASCII letters (may be empty)."""


def pre(s: str) -> bool:
    # The docstring: the input was encoded with encode_shift, whose output is lowercase ASCII letters.
    return all("a" <= ch <= "z" for ch in s)
