"""HumanEval/134 check_if_last_char_is_a_letter: an ASCII string (possibly empty); words are separated by spaces."""


def pre(txt: str) -> bool:
    # ambiguous: is a non-ASCII letter ('é', '中') "an alphabetical character"? The docstring
    # does not say which alphabet; in ASCII the answer is plain.
    if not txt.isascii():
        return False
    # ambiguous: whitespace other than the space (tab, newline): the docstring separates words
    # by space; does a tab separate them too, or belong to a word?
    return not any(c.isspace() and c != " " for c in txt)
