"""HumanEval/117 select_words: a string of ASCII letters and spaces, and a natural number n >= 0."""


def pre(s: str, n: int) -> bool:
    return n >= 0 and all(c == " " or (c.isascii() and c.isalpha()) for c in s)
