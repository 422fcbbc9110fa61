"""HumanEval/154 cycpattern_check: two words, each a non-empty string of ASCII letters."""


def pre(a: str, b: str) -> bool:
    return all(w.isascii() and w.isalpha() for w in (a, b))
