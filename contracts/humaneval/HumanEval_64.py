"""HumanEval/64 vowels_count: a word, i.e. a non-empty string of ASCII letters of either case."""


def pre(s: str) -> bool:
    return len(s) > 0 and s.isascii() and s.isalpha()
