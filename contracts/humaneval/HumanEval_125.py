"""HumanEval/125 split_words: a string of printable ASCII characters (space is the only whitespace), possibly empty."""


def pre(txt: str) -> bool:
    # The docstring splits "on whitespace" but the reference only tests for ' ', and it
    # counts "lower-case letters" by ASCII code, so keep to printable ASCII: the two
    # readings then agree and non-ASCII lowercase letters cannot skew the count.
    return all(" " <= ch <= "~" for ch in txt)
