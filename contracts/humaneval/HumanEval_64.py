"""HumanEval/64 vowels_count: a word, i.e. a non-empty string of ASCII letters of either case."""


def pre(s: str) -> bool:
    # The docstring: "a string representing a word" (non-empty, made of letters).
    if not (len(s) > 0 and s.isalpha()):
        return False
    # ambiguous: non-ASCII letters (is 'é' or 'ı' a vowel? 'ı'.upper() is 'I'; 'İ'.lower() is 2 chars).
    return s.isascii()
