"""HumanEval/125 split_words: any string, possibly empty."""

import re

# What str.split() calls whitespace: the ASCII whitespace characters below, plus others.
_ASCII_WHITESPACE = " \t\n\r\x0b\x0c"


def pre(txt: str) -> bool:
    # ambiguous: whitespace outside ASCII's " \t\n\r\v\f" (str.split() also splits on
    # U+001C..U+001F, U+0085, U+00A0, ...): is it whitespace to split on?
    if any(c.isspace() and c not in _ASCII_WHITESPACE for c in txt):
        return False
    # ambiguous: empty fields (leading, trailing or consecutive whitespace; with no
    # whitespace, leading, trailing or consecutive commas): an empty word or none?
    if any(c in _ASCII_WHITESPACE for c in txt):
        if "" in re.split("[ \t\n\r\x0b\x0c]", txt):
            return False
    elif "," in txt and "" in txt.split(","):
        return False
    # ambiguous: lowercase (or titlecase) characters outside a-z ('é', 'ß', 'ǅ', circled 'ⓐ'):
    # the docstring's alphabet orders only 'a'..'z' (ord('a') = 0, ..., ord('z') = 25).
    return not any(not c.isascii() and (c.islower() or c.upper() != c) for c in txt)
