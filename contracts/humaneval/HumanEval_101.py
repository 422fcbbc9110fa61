"""HumanEval/101 words_string: words separated by commas or spaces (no other whitespace)."""


def pre(s: str) -> bool:
    # ambiguous: whitespace other than the space (tab, newline): the docstring separates words
    # by commas or spaces only, and does not say whether it separates words or belongs to one.
    # (Empty fields, "a,, b" or a trailing comma, are settled by the dataset's own tests: they
    # give no word.)
    return all(c == " " or not c.isspace() for c in s)
