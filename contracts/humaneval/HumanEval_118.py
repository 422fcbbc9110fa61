"""HumanEval/118 get_closest_vowel: a word of English (ASCII) letters only."""


def pre(word: str) -> bool:
    return all(c.isascii() and c.isalpha() for c in word)
