"""HumanEval/154 cycpattern_check: two words, each a non-empty string of letters."""


def pre(a: str, b: str) -> bool:
    # The docstring: "You are given 2 words".
    return a.isalpha() and b.isalpha()
