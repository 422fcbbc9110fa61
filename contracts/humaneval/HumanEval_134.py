"""HumanEval/134 check_if_last_char_is_a_letter: an ASCII string (possibly empty); words are separated by spaces."""


def pre(txt: str) -> bool:
    # The reference recognises letters by ASCII code (97..122 after lower()), and
    # ord() fails when lower() turns one non-ASCII character into two ('İ'): keep to
    # ASCII, where "alphabetical character" is unambiguous.
    return txt.isascii()
