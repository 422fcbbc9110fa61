"""HumanEval/118 get_closest_vowel: a word of English (ASCII) letters only."""


def pre(word: str) -> bool:
    # The docstring says "the given string contains English letter only".
    return all(c.isascii() and c.isalpha() for c in word)
