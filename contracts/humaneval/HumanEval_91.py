"""HumanEval/91 is_bored: any string of words; sentences end with '.', '?' or '!'."""

import re

_ASCII_WHITESPACE = frozenset(" \t\n\r\v\f")
# A sentence that opens with "I" once leading punctuation and spaces are skipped.
_OPENS_WITH_I = re.compile(r"\W*I(?!\w)")


def pre(S: str) -> bool:
    # ambiguous: whitespace outside ASCII's " \t\n\r\v\f" (str.split() also splits on
    # U+001C..U+001F, U+0085, U+00A0, ...): does it separate words?
    if any(c.isspace() and c not in _ASCII_WHITESPACE for c in S):
        return False
    # ambiguous: a sentence that opens with "I" with punctuation attached or in front ("I, too",
    # "I'm", '"I', '- I'): whether it starts with the word "I" is not said. A first word that
    # is exactly "I" is plain.
    for sentence in re.split(r"[.?!]", S):
        if _OPENS_WITH_I.match(sentence) and sentence.split()[0] != "I":
            return False
    return True
