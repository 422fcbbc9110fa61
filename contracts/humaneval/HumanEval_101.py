"""HumanEval/101 words_string: words separated by commas or spaces (no other whitespace)."""


def pre(s: str) -> bool:
    # Separators are commas and spaces only; other whitespace (tabs, newlines) is not promised.
    return all(c == " " or not c.isspace() for c in s)
