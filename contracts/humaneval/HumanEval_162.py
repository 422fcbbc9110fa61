"""HumanEval/162 string_to_md5: an ASCII string (empty is allowed and gives None)."""


def pre(text: str) -> bool:
    # ambiguous: non-ASCII text: the docstring names no encoding to hash the string's bytes
    # in (UTF-8? Latin-1? UTF-16?); ASCII text has the same bytes in UTF-8 and Latin-1.
    return text.isascii()
